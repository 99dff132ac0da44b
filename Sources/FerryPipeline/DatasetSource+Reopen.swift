import FerryCore
import FormatBundle
import Foundation

extension DatasetSource {
    /// `ReadOptions.reopen` for the file at `path`, decompressed as `compressed` says. A regular
    /// file is opened again; standard input (`-`) redirected from a file is read again from
    /// `standardInputStart`, its offset before anything was read; an input that is no regular file
    /// (a pipe) through `pipe`, which kept its first bytes. Nil for anything else (a folder's file
    /// that is no regular file).
    static func reopener(_ path: String, compressed: Bool, standardInputStart: Int64? = nil, pipe: SpooledPipeSource? = nil)
        -> (@Sendable () throws -> any ByteSource)?
    {
        if let pipe {
            if compressed { return { try CompressedFileSource(source: pipe.reopen(), name: path) } }
            return { try pipe.reopen() }
        }
        if path == "-" {
            guard let start = standardInputStart else { return nil }
            let again: @Sendable () -> any ByteSource = {
                FileDescriptorSource(descriptor: 0, name: "-", closesOnDeinit: false, offset: start)
            }
            if compressed { return { try CompressedFileSource(source: again(), name: "-") } }
            return again
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        if compressed { return { try CompressedFileSource(path: path) } }
        return { try FileDescriptorSource(path: path) }
    }
}
