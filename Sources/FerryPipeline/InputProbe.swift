import FerryCore
import FormatBundle
import Foundation

/// One input file or standard input, opened: its compression and format found from `--from`, else
/// the file name, else the first bytes (DESIGN.md "Detection"), and a stream of its decompressed
/// bytes positioned at the start.
///
/// Content wins only where the name says nothing: `notes.json` is read as JSON without a look at
/// its bytes, while `-`, `backup` or `backup.gz` are sniffed. Compression is recognised by its
/// magic number (gzip, zstd, xz, bzip2), then the decompressed bytes are sniffed again: a tar
/// (`ustar` at offset 257) or a zip (`PK\x03\x04`) is a bundle, anything else a content format:
/// each format recognises its own (`FormatRegistry.format(forHead:)`).
struct InputProbe {
    enum Kind {
        /// A tar archive or a zip: read as a bundle.
        case archive
        /// A data file of this format.
        case records(FormatDescriptor)
    }

    var kind: Kind
    /// The decompressed bytes from the first one on.
    var source: any ByteSource
    var compression: Compression
    /// The path without its compression ending (`notes.json` for `notes.json.gz`): names a
    /// one-collection file's collection.
    var innerPath: String
    /// The input's raw bytes when it is not a regular file (standard input from a pipe, a named
    /// pipe): what `source` reads from at bottom, from its first byte, which can be read again
    /// (`SpooledPipeSource.reopen()`); nil for a regular file.
    var pipe: SpooledPipeSource?

    /// Extensions that say nothing about the content: such files are sniffed like extensionless ones.
    static let neutralExtensions: Set<String> = ["txt", "dat", "data", "bin", "export", "backup", "bak"]

    /// Opens `path` (`-` for standard input), a file, not a folder.
    /// - Parameter formatName: `--from`, which may carry a compression ending (`json.gz`, `csv.zst`).
    /// - Throws: `FerryError` with `unreadable-input` when the file cannot be opened,
    ///   `unknown-format` for an unknown `--from` or an extension no format reads, and the
    ///   decompressor's `malformed-archive` / `truncated-archive`.
    static func open(path: String, formatName: String?, registry: FormatRegistry) throws -> InputProbe {
        var (compression, innerPath) = path == "-" ? (Compression.none, path) : Compression.forPath(path)
        var format: FormatDescriptor?
        if let formatName {
            guard let requested = requested(formatName, registry: registry) else {
                throw FerryError(.unknownFormat, "unknown format '\(formatName)'; `ferry formats` lists them", at: SourceLocation(file: path))
            }
            format = requested.format
            compression = requested.compression
        } else if path != "-" {
            format = registry.format(forPath: innerPath)
            let ext = URL(fileURLWithPath: innerPath).pathExtension.lowercased()
            if format == nil, !ext.isEmpty, !neutralExtensions.contains(ext) {
                throw FerryError(.unknownFormat, "no format reads '.\(ext)' files; name one with --from (`ferry formats` lists them)"
                                 + registry.undescribedNote(for: ext), at: SourceLocation(file: path))
            }
        }
        let opened = try FileDescriptorSource(path: path)
        // Beneath the probe's look and any decompressor, so the bytes it keeps start at the first.
        let pipe = FileDescriptorSource.regularFileOffset(of: opened.descriptor) == nil
            ? SpooledPipeSource(opened, name: path) : nil
        let file: any ByteSource = pipe ?? opened
        if let format {
            let source: any ByteSource = compression == .none ? file : try CompressedFileSource(source: file, name: path)
            return InputProbe(kind: format.isContainer ? .archive : .records(format), source: source,
                              compression: compression, innerPath: innerPath, pipe: pipe)
        }
        var (head, stream) = try PrefixedSource.sniff(file)
        if compression == .none { compression = Compression.forContent(head) }
        if compression != .none {
            (head, stream) = try PrefixedSource.sniff(try CompressedFileSource(source: stream, name: path))
        }
        let sniffed = registry.format(forHead: InputHead(head))
        if sniffed?.isContainer == true {
            return InputProbe(kind: .archive, source: stream, compression: compression, innerPath: innerPath, pipe: pipe)
        }
        guard let sniffed, sniffed.reader != nil else {
            throw FerryError(.unknownFormat, "cannot tell the format; name it with --from", at: SourceLocation(file: path))
        }
        return InputProbe(kind: .records(sniffed), source: stream, compression: compression, innerPath: innerPath, pipe: pipe)
    }

    /// The format and compression a `--from` value names: a format (`json`, `tar`) or a format with
    /// a compression ending (`json.gz`, `csv.zst`, `xml.xz`, `jsonl.bz2`, `tar.gz`, `tgz`). Nil when
    /// no known format is named.
    static func requested(_ name: String, registry: FormatRegistry) -> (format: FormatDescriptor, compression: Compression)? {
        if let format = registry.format(named: name) { return (format, .none) }
        let (compression, inner) = Compression.forPath("." + name)
        guard compression != .none, let format = registry.format(named: String(inner.dropFirst())) else { return nil }
        return (format, compression)
    }
}

extension FormatRegistry {
    /// True when `name` (a `--from` value) names a format of this registry, alone or with a
    /// compression ending (`json.gz`, `tar.zst`, `tgz`), as the input's reading takes it.
    public func knowsInputFormat(_ name: String) -> Bool { InputProbe.requested(name, registry: self) != nil }

    /// True when `name` (an `--encoding` value) names an encoding one of this registry's
    /// readers knows (`FormatReader.knowsEncoding`).
    public func knowsEncoding(_ name: String) -> Bool { formats.contains { $0.reader?.knowsEncoding(name) == true } }
}

extension InputProbe {
    /// True when the input is a tar archive (a bundle).
    var isArchive: Bool {
        if case .archive = kind { return true }
        return false
    }
}
