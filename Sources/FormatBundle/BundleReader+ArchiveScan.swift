import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The scan of a tar or zip archive: each member sized, hashed and spooled as its bytes pass.
extension BundleReader {
    func scanArchiveInput(_ source: any ByteSource, isFile: Bool, into scan: inout Scan, log: DiagnosticLog) throws {
        if let decompressing = source as? any DecompressingSource, decompressing.compressedBytesRead != nil {
            compressedBytesRead = { decompressing.compressedBytesRead }
        }
        // A regular file is looked at with pread(2), which leaves it positioned at its start, so
        // a tar is read exactly as before (its pool chunks aligned with the file).
        let head: [UInt8]
        let input: any ByteSource
        if isFile, let file = source as? FileDescriptorSource, Self.regularFileSize(path) != nil {
            var bytes = [UInt8](repeating: 0, count: 6)
            let n = bytes.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, 6, 0) }
            head = Array(bytes.prefix(max(n, 0)))
            input = source
        } else {
            (head, input) = try PrefixedSource.sniff(source, count: 6)
        }
        guard ArchiveContainer.forContent(head) == .zip else {
            // gzip, xz, bzip2 and zstd are decompressed by their own libraries, not libarchive's
            // filters: a cut stream then gives every byte before the cut (`StreamDecompressor`).
            let tar = StreamDecompressor.decodes(Compression.forContent(head))
                ? try CompressedFileSource(source: input, name: path) : input
            try scanArchive(tar, knownSize: isFile, into: &scan, log: log)
            return
        }
        container = .zip
        var file = path
        if !isFile || Self.regularFileSize(path) == nil {
            let (spooled, descriptor) = try spool.createFile(suffix: ".zip")
            defer { close(descriptor) }
            let sink = FileDescriptorSink(descriptor: descriptor, name: spooled, capacity: 256 * 1024)
            let chunk = pipeline.pool.acquire()
            defer { pipeline.pool.release(chunk) }
            while case let n = try input.read(into: chunk.buffer), n > 0 {
                try sink.write(UnsafeRawBufferPointer(rebasing: chunk.buffer[0..<n]))
            }
            try sink.flush()
            file = spooled
        }
        let reader: ArchiveReader
        do {
            reader = try ArchiveReader(zipFile: file, name: path)
        } catch let error as FerryError where error.diagnostic.code != .unreadableInput {
            log.report(error.diagnostic)
            return
        }
        try scanMembers(of: reader, inputSize: Self.regularFileSize(file), into: &scan, log: log)
    }

    /// The size of the regular file at `path`, nil for anything else (a pipe, a folder, `-`).
    static func regularFileSize(_ path: String) -> Int64? {
        var info = stat()
        guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// - Parameter knownSize: true when `source` is the file at `path` itself, so its size tells a
    ///   truncated archive from a corrupt one.
    func scanArchive(_ source: any ByteSource, knownSize: Bool, into scan: inout Scan, log: DiagnosticLog) throws {
        let reader: ArchiveReader
        do {
            reader = try ArchiveReader(source: source, name: path, mode: .tar, pool: pipeline.pool)
        } catch let error as FerryError where error.diagnostic.code != .unreadableInput {
            log.report(error.diagnostic)
            return
        }
        try scanMembers(of: reader, inputSize: knownSize ? Self.regularFileSize(path) : nil, into: &scan, log: log)
    }

    /// The scan loop over an archive's members, tar or zip alike: every check of the safety
    /// policy, then the content of each member admitted is spooled or hashed.
    /// - Parameter inputSize: the archive file's size when known, which tells a truncated tar
    ///   from a corrupt one and bounds the expansion ratio.
    func scanMembers(of reader: ArchiveReader, inputSize: Int64?, into scan: inout Scan, log: DiagnosticLog) throws {
        archiveInputSize = inputSize
        // An archive decompressed before it reached libarchive (standard input sniffed as gzip)
        // expands all the same: its compressed file's size, when it is one, bounds the headers.
        let expands = reader.expandsInput || compressedBytesRead != nil
        let compressedSize = expands ? inputSize ?? (compressedBytesRead != nil ? Self.regularFileSize(path) : nil) : nil
        var damagedInARow = 0
        var lastMember: String?
        // A damaged header is reported when the next event shows what it was: the input's end right
        // after it (nothing more consumed) means the archive was cut off in a header
        // (`truncated-archive`); anything else is a corrupt header (`malformed-archive`), said once
        // for a run of them (libarchive steps over the damage a block at a time, each block a
        // "damaged" header, until it finds a member again: one damage, not one per block).
        var pendingDamage: (diagnostic: Diagnostic, position: Int64, startsRun: Bool)?
        func flushDamage(atEnd: Bool) {
            guard var pending = pendingDamage else { return }
            pendingDamage = nil
            if atEnd && reader.inputPosition == pending.position {
                pending.diagnostic.code = .truncatedArchive
                pending.diagnostic.message = "the archive ends inside a member header (\(pending.diagnostic.message))"
            } else if !pending.startsRun {
                return
            }
            log.report(pending.diagnostic)
        }
        while true {
            let header: ArchiveReader.NextHeader
            do {
                header = try reader.nextEntry()
            } catch let error as FerryError {
                flushDamage(atEnd: false)
                var diagnostic = error.diagnostic
                // libarchive calls a header cut off by the end of the input "damaged": when every
                // input byte was consumed, the archive is truncated rather than corrupt.
                if diagnostic.code == .malformedArchive, let inputSize, reader.inputPosition >= inputSize {
                    diagnostic.code = .truncatedArchive
                    diagnostic.message = "the archive ends inside a member header (\(diagnostic.message))"
                }
                log.report(diagnostic)
                return
            }
            let entry: ArchiveEntry
            switch header {
            case .end:
                flushDamage(atEnd: true)
                if (inputSize ?? reader.inputPosition) == 0 {
                    // libarchive reads no bytes as an empty archive; GNU tar refuses them, and so
                    // does Ferry: an empty file is no archive (a tar holds at least its two
                    // end-of-archive blocks, a zip its central directory), not a bundle that
                    // lacks its manifest. An empty .zip or .tgz comes here too (nothing to detect).
                    log.report(.error(.malformedArchive, "the input is empty (0 bytes), not a tar or zip archive", at: location(nil)))
                    return
                }
                if reader.mode == .tar, !reader.expandsInput, let inputSize, Self.tarLacksEndMarker(path, size: inputSize) {
                    tarEndsWithoutMarker = .error(.truncatedArchive, "the archive ends after this member without "
                        + "the two zero blocks that end a tar (the input is cut short)", at: location(lastMember))
                }
                return
            case .damaged(let error):
                flushDamage(atEnd: false)
                pendingDamage = (error.diagnostic, reader.inputPosition, damagedInARow == 0)
                damagedInARow += 1
                if damagedInARow >= 8 {
                    flushDamage(atEnd: false)
                    return
                }
                continue
            case .entry(let e, _):
                flushDamage(atEnd: false)
                damagedInARow = 0
                entry = e
            }
            guard let member = admit(
                rawPath: entry.path, displayPath: entry.displayPath, kind: entry.kind, permissions: entry.permissions,
                linkTarget: entry.linkTarget, scan: &scan, log: log)
            else { continue }
            lastMember = member
            if member == "manifest.json", let size = entry.size, size > Int64(options.maximumManifestSize) {
                log.report(.error(.tooLarge, "manifest is \(size) bytes, more than the limit of "
                    + "\(options.maximumManifestSize); not read", at: location(member)))
                continue
            }
            if let size = entry.size, size > options.maximumMemberSize {
                log.report(.error(.tooLarge, "member is \(size) bytes, more than the limit of "
                    + "\(options.maximumMemberSize); not read", at: location(member)))
                continue
            }
            if let size = entry.size,
               let problem = expansion.admit(declaredSize: size, compressedInput: compressedSize)
            {
                // Stops here: skipping the member would mean decompressing it all the same.
                log.report(.error(.tooLarge, problem, at: location(member)))
                return
            }
            if entry.isEncrypted {
                log.report(.error(.unreadableInput, "member is encrypted; not read", at: location(member)))
                continue
            }
            do {
                try readArchiveMember(member, entry: entry, reader: reader, scan: &scan)
            } catch is MemberDataCut {
                // Nothing follows the cut (`pendingCut` holds it).
                return
            } catch let error as FerryError {
                // Errors of the copy itself (a member longer than the limit, found while reading
                // because its header understated it) carry no position yet: name the member.
                var diagnostic = error.diagnostic
                if diagnostic.location.file == nil { diagnostic.location = location(member) }
                log.report(diagnostic)
                return
            }
        }
    }

    func readArchiveMember(_ member: String, entry: ArchiveEntry, reader: ArchiveReader, scan: inout Scan) throws {
        if member == "manifest.json" {
            var bytes: [UInt8] = []
            _ = try pipeline.copy(limit: Int64(options.maximumManifestSize), read: { try reader.readData(into: $0) }) {
                bytes.append(contentsOf: $0)
            }
            scan.manifestBytes = bytes
            return
        }
        let hashedOnly = Self.isKeptPath(member) && isMediaPath(member, inBag: scan.members["bagit.txt"] != nil) && !keepsMedia(&scan)
        guard Self.isKeptPath(member), !hashedOnly else {
            let size: Int64, digest: PendingDigest
            do {
                (size, digest) = try hashArchiveMember(entry: entry, reader: reader, write: nil)
            } catch let cut as MemberDataCut {
                guard hashedOnly else { throw cut.error }  // nothing of it is kept: the cut is reported where it stands
                // As a kept member's cut below: what came before it is hashed, the cut reported with the scan's end.
                scan.members[member] = BundleMember(path: member, size: cut.size, sha256: "")
                pendingDigests[member] = cut.digest
                storage[member] = .hashedOnly
                pendingCut = (member, "", cut.error)
                throw cut
            }
            scan.members[member] = BundleMember(path: member, size: size, sha256: "")
            pendingDigests[member] = digest
            storage[member] = hashedOnly ? .hashedOnly : .notKept
            return
        }
        let (file, descriptor) = try spool.createFile()
        defer { close(descriptor) }
        let sink = FileDescriptorSink(descriptor: descriptor, name: file, capacity: 64 * 1024)
        do {
            let (size, digest) = try hashArchiveMember(entry: entry, reader: reader) { try sink.write($0) }
            try sink.flush()
            scan.members[member] = BundleMember(path: member, size: size, sha256: "")
            pendingDigests[member] = digest
            storage[member] = .spooled(file)
        } catch let cut as MemberDataCut {
            // The archive ends inside this member: its bytes before the cut are kept, so that the
            // records they hold are read as those of any input cut short.
            try sink.flush()
            scan.members[member] = BundleMember(path: member, size: cut.size, sha256: "")
            pendingDigests[member] = cut.digest
            storage[member] = .spooled(file)
            pendingCut = (member, file, cut.error)
            throw cut
        } catch {
            unlink(file)
            throw error
        }
    }

    /// Streams the current member's content to `write` (nil: nowhere) while the hashing thread
    /// digests it. Blocks are taken where libarchive holds them (for an uncompressed tar, the pool
    /// chunk the input was read into: no copy); other blocks are copied into a pool chunk first,
    /// since their buffer may be reused before the hashing thread gets to them. Sparse members go
    /// through `readData(into:)`, which fills their holes.
    /// - Throws: the reader's errors; `FerryError(.tooLarge)` past `maximumMemberSize`; `MemberDataCut` when the
    ///   archive ends inside the member's data (the digest of what came before finished).
    func hashArchiveMember(
        entry: ArchiveEntry, reader: ArchiveReader, write: ((UnsafeRawBufferPointer) throws -> Void)?
    ) throws -> (size: Int64, digest: PendingDigest) {
        let limit = options.maximumMemberSize
        // A tar member's size is where its content ends; a zip member's inflates to what it may:
        // more than its header declares is a bomb hiding from the checks made at the header.
        // (A sparse tar member's map may outgrow its size too; the member limit catches that.)
        let declared = entry.isSparse ? Int64.max : entry.size ?? Int64.max
        func count(_ n: Int, total: Int64) throws {
            if total > declared {
                throw FerryError(.tooLarge, "the member inflates to more than the \(declared) bytes its header declares: "
                    + "a decompression bomb; not read further")
            }
            try expansion.count(n, inputBytes: archiveInputSize ?? compressedBytesRead?() ?? reader.inputPosition)
        }
        if entry.isSparse {
            var total: Int64 = 0
            return try pipeline.copy(limit: limit, read: {
                let n = try reader.readData(into: $0)
                total += Int64(n)
                try count(n, total: total)
                return n
            }, write: write)
        }
        let pool = pipeline.pool
        // A small member (a photo) is hashed here: queueing its bytes costs more than hashing them.
        let hashesHere = declared <= HashPipeline.hashedHereSize
        let digest = hashesHere ? pipeline.beginHere() : pipeline.begin()
        var total: Int64 = 0
        func nextBlock() throws -> (bytes: UnsafeRawBufferPointer, chunk: ChunkPool.Chunk?)? {
            do {
                return try reader.nextDataBlock()
            } catch let error as FerryError where error.diagnostic.code == .truncatedArchive {
                // The bytes before the cut were hashed and written: the caller may keep them.
                pipeline.finish(digest)
                throw MemberDataCut(size: total, digest: digest, error: error)
            }
        }
        while let block = try nextBlock() {
            if block.bytes.isEmpty { continue }
            total += Int64(block.bytes.count)
            if total > limit {
                throw FerryError(.tooLarge, "content is more than \(limit) bytes, the limit; not read")
            }
            try count(block.bytes.count, total: total)
            if hashesHere {
                pipeline.hashHere(block.bytes, into: digest)
                try write?(block.bytes)
                continue
            }
            if let chunk = block.chunk {
                pipeline.hash(block.bytes, in: chunk, into: digest)
                try write?(block.bytes)
                continue
            }
            // Not in a pool chunk (libarchive's own or a decompressor's buffer): copied, in pieces of a chunk.
            var offset = 0
            while offset < block.bytes.count {
                let chunk = pool.acquire()
                defer { pool.release(chunk) }
                let n = min(chunk.buffer.count, block.bytes.count - offset)
                let piece = UnsafeRawBufferPointer(rebasing: block.bytes[offset..<(offset + n)])
                chunk.buffer.copyMemory(from: piece)
                let copied = UnsafeRawBufferPointer(rebasing: chunk.buffer[0..<n])
                pipeline.hash(copied, in: chunk, into: digest)
                try write?(copied)
                offset += n
            }
        }
        pipeline.finish(digest)
        return (total, digest)
    }
}
