import FerryCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writing the finished bundle: the archive, zip or folder, each output renamed into place only when complete.
extension BundleWriter {
    func unwritable(_ what: String, _ path: String) -> FerryError {
        FerryError(.outputUnwritable, "\(what): \(String(cString: strerror(errno)))", at: SourceLocation(file: path))
    }

    /// Puts the finished folder `temporary` in the place of the folder `destination`, then removes
    /// the old one, which is at `temporary` after the swap. One `renameat2(RENAME_EXCHANGE)` where
    /// the file system has it, so the destination is never absent; else the old folder is moved
    /// aside first, and both stay this run's (registered) only once the new one is in place.
    func swapFolder(_ temporary: String, into destination: String, path: String) throws {
        if Self.renameat2(AT_FDCWD, temporary, AT_FDCWD, destination, Self.renameExchange) == 0 {
            TemporaryFiles.shared.remove(temporary)
            return
        }
        let aside = temporary + ".old"
        guard rename(destination, aside) == 0 else { throw unwritable("cannot replace the folder", path) }
        guard rename(temporary, destination) == 0 else {
            rename(aside, destination)
            throw unwritable("cannot rename the folder into place", path)
        }
        TemporaryFiles.shared.release(temporary)
        if TemporaryFiles.shared.adopt(aside) { TemporaryFiles.shared.remove(aside) }
    }

    /// glibc's `renameat2` (stdio.h, declared only under `_GNU_SOURCE`).
    @_silgen_name("renameat2")
    private static func renameat2(_ oldFolder: Int32, _ old: UnsafePointer<CChar>, _ newFolder: Int32,
                                  _ new: UnsafePointer<CChar>, _ flags: UInt32) -> Int32
    /// linux/fs.h `RENAME_EXCHANGE`: swap the two names atomically.
    private static let renameExchange: UInt32 = 2

    /// Copies a file's bytes to `write` in chunks of the pipeline's pool (no hashing).
    func copySpool(_ spoolPath: String, into write: (UnsafeRawBufferPointer) throws -> Void) throws {
        let source = try FileDescriptorSource(path: spoolPath)
        let pool = pipeline.pool
        let chunk = pool.acquire()
        defer { pool.release(chunk) }
        while true {
            let n = try source.read(into: chunk.buffer)
            if n == 0 { return }
            try write(UnsafeRawBufferPointer(rebasing: chunk.buffer[0..<n]))
        }
    }

    /// Copies an entry whose digest is unknown into the archive while the hashing thread digests
    /// it; exactly `member.size` bytes, else the file changed since it was listed.
    func copyHashing(_ entry: Entry, into writer: ArchiveWriter) throws -> PendingDigest {
        let source = try FileDescriptorSource(path: entry.spoolPath)
        var written: Int64 = 0
        let (size, digest) = try pipeline.copy(read: { try source.read(into: $0) }) { bytes in
            written += Int64(bytes.count)
            guard written <= entry.member.size else { throw self.changedFile(entry.member.path) }
            try writer.write(bytes)
        }
        guard size == entry.member.size else { throw changedFile(entry.member.path) }
        return digest
    }

    /// Writes the archive beside `path` and renames it into place; returns the manifest written.
    /// Entries not yet hashed (only into a plain tar) are hashed as they are written; the header
    /// files (`manifest.json` and the BagIt manifests), written first with placeholder digests,
    /// are then rewritten in place with `pwrite`: a digest is always 64 hex digits, so their
    /// lengths do not change, and a tar header holds no checksum of the content. The bytes are
    /// those a writer knowing every digest beforehand would write.
    /// A zip gets its DOS times rewritten in UTC at the end (`ZipTimestamps`).
    func writeArchive(
        to path: String, format: ArchiveWriter.Format, compression: Compression, entries: [Entry],
        makeHeaders: ([Entry]) throws -> BundleHeaderFiles
    ) throws -> BundleManifest {
        let (temporary, descriptor) = try TemporaryFiles.shared.createFile(
            beside: path, mode: 0o600, failure: "cannot create a temporary file")
        var done = false
        defer {
            close(descriptor)
            if !done { TemporaryFiles.shared.remove(temporary) }
        }
        let sink = FileDescriptorSink(descriptor: descriptor, name: path)
        let writer = try ArchiveWriter(sink: sink, name: path, format: format, compression: compression)
        let placeholder = Self.placeholderDigest
        let headers = try makeHeaders(entries.map { entry in
            var entry = entry
            if !entry.isHashed { entry.member.sha256 = placeholder }
            return entry
        })
        var manifest = headers.manifest
        var localHeaders: [Int64] = []
        var headerOffsets: [Int64] = []
        for (index, header) in headers.members.enumerated() {
            // A zip member's last deflated bytes and data descriptor go out when it is finished:
            // only then does `position` stand where the next local header starts.
            if format == .zip, index > 0 { try writer.finishEntry() }
            localHeaders.append(writer.position)
            try writer.beginEntry(path: header.path, size: Int64(header.bytes.count), permissions: 0o644,
                                  modificationTime: modificationTime)
            headerOffsets.append(writer.position)
            try header.bytes.withUnsafeBytes { try writer.write($0) }
        }
        var digests: [(index: Int, digest: PendingDigest)] = []
        for (index, entry) in entries.enumerated() {
            if format == .zip { try writer.finishEntry() }
            localHeaders.append(writer.position)
            try writer.beginEntry(path: entry.member.path, size: entry.member.size, permissions: 0o644,
                                  modificationTime: modificationTime)
            if entry.isHashed {
                try copySpool(entry.spoolPath) { try writer.write($0) }
            } else {
                guard compression == .none, format == .tar else {
                    throw FerryError(.internalError, "unhashed media in a compressed archive")
                }
                digests.append((index, try copyHashing(entry, into: writer)))
            }
        }
        // The last member's data descriptor goes out now, so the central directory starts here.
        if format == .zip { try writer.finishEntry() }
        let centralDirectory = writer.position
        try writer.close()
        if format == .zip {
            try ZipTimestamps.rewrite(descriptor: descriptor, localHeaders: localHeaders, centralDirectory: centralDirectory,
                                      modificationTime: modificationTime, name: path)
        }
        if !digests.isEmpty {
            var hashed = entries
            for (index, digest) in digests { hashed[index].member.sha256 = try digest.value() }
            let final = try makeHeaders(hashed)
            manifest = final.manifest
            for (index, header) in final.members.enumerated() where header.bytes != headers.members[index].bytes {
                guard header.bytes.count == headers.members[index].bytes.count else {
                    throw FerryError(.internalError, "a header file changed length once its digests were known",
                                     at: SourceLocation(file: path, member: header.path))
                }
                try Self.writeAll(header.bytes, to: descriptor, at: headerOffsets[index], name: path)
            }
        }
        // A replaced archive keeps its mode, as every replaced output does.
        var replaced = stat()
        let kept = stat(path, &replaced) == 0 && (replaced.st_mode & S_IFMT) == S_IFREG ? replaced.st_mode & 0o7777 : nil
        fchmod(descriptor, kept ?? 0o644)
        guard rename(temporary, path) == 0 else { throw unwritable("cannot rename the archive into place", path) }
        done = true
        TemporaryFiles.shared.release(temporary)
        return manifest
    }

    /// Stands for a digest not known yet: as long as a real one.
    static let placeholderDigest = String(repeating: "0", count: 64)

    /// `pwrite(2)` of all of `bytes` at `offset`, retrying short writes and EINTR.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, at offset: Int64, name: String) throws {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < buffer.count {
                let n = pwrite(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FerryError(.outputUnwritable, "write failed: \(String(cString: strerror(errno)))",
                                     at: SourceLocation(file: name))
                }
                done += n
            }
        }
    }

    func writeFolder(to path: String, headers: [(path: String, bytes: [UInt8])], entries: [Entry])
        throws
    {
        let temporary = try TemporaryFiles.shared.createFolder(beside: path, failure: "cannot create a temporary folder")
        var done = false
        defer { if !done { TemporaryFiles.shared.remove(temporary) } }
        chmod(temporary, 0o755)
        for header in headers {
            try writeFile(temporary + "/" + header.path) { try $0.write(header.bytes) }
        }
        var made_: Set<String> = []
        for entry in entries {
            let member = entry.member
            let spoolPath = entry.spoolPath
            let segments = member.path.split(separator: "/")
            for end in 1..<max(segments.count, 1) {
                let folder = segments[0..<end].joined(separator: "/")
                if made_.insert(folder).inserted {
                    guard mkdir(temporary + "/" + folder, 0o755) == 0 || errno == EEXIST else {
                        throw unwritable("cannot create \(folder)", path)
                    }
                }
            }
            let destination = temporary + "/" + member.path
            // A temporary copy (this writer's spool, a reader's spooled archive member) on the same
            // file system becomes the output file by a hard link: no second copy of the bytes.
            if !sharedFiles.contains(spoolPath), link(spoolPath, destination) == 0 {
                chmod(destination, 0o644 & ~Self.fileCreationMask)
                var times = [timespec(tv_sec: time_t(modificationTime), tv_nsec: 0),
                             timespec(tv_sec: time_t(modificationTime), tv_nsec: 0)]
                utimensat(AT_FDCWD, destination, &times, 0)
                continue
            }
            try writeFile(destination) { sink in try copySpool(spoolPath) { try sink.write($0) } }
        }
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: trimmed, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw FerryError(.outputUnwritable, "a file is in the way of the output folder",
                                 at: SourceLocation(file: path))
            }
            try swapFolder(temporary, into: trimmed, path: path)
        } else {
            guard rename(temporary, trimmed) == 0 else { throw unwritable("cannot rename the folder into place", path) }
            TemporaryFiles.shared.release(temporary)
        }
        done = true
    }

    /// The process's umask, which `open(2)` applies to the files `writeFile` creates: read from
    /// /proc (setting and restoring it would race with other threads creating files), else 022.
    private static let fileCreationMask: mode_t = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0o022 }
        for line in status.split(separator: "\n") where line.hasPrefix("Umask:") {
            let digits = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
            if let mask = mode_t(digits, radix: 8) { return mask }
        }
        return 0o022
    }()

    func writeFile(_ file: String, _ body: (FileDescriptorSink) throws -> Void) throws {
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw unwritable("cannot create \(file)", destinationPath) }
        defer { close(descriptor) }
        let sink = FileDescriptorSink(descriptor: descriptor, name: file)
        try body(sink)
        try sink.flush()
        var times = [timespec(tv_sec: time_t(modificationTime), tv_nsec: 0),
                     timespec(tv_sec: time_t(modificationTime), tv_nsec: 0)]
        futimens(descriptor, &times)
    }
}
