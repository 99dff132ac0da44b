import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writes a bundle (SCHEMAS.md "Formats: Bundle") to a tar archive, a zip or a folder, reproducibly.
///
/// Records arrive per collection in any interleaving; each collection is spooled to a temporary
/// data file written by the content format's `FormatWriter` (`data/<collection>.<ext>`, one
/// collection a file). Media come from `addMedia(path:source:)` or from fields with external
/// storage (a base64 string becomes `<media folder>/<percent-encoded id>.<ext>` and the field
/// holds that path). `finish()` writes `manifest.json` first, then every other member in byte
/// order of path, with mtime = `createdAt`, uid/gid 0, empty owner names, mode 0644, no folder
/// entries, in the pax format (ustar headers unless a name needs a pax record), or as a zip
/// (deflated, DOS times in UTC: `ZipTimestamps`). The archive or folder is built beside the
/// destination and renamed into place only when complete.
public final class BundleWriter {
    /// Where the bundle goes.
    public enum Destination: Sendable, Hashable {
        /// A tar archive at `path`, through `compression`.
        case archive(path: String, compression: Compression)
        /// A folder at `path` with the same layout.
        case folder(path: String)
        /// A zip at `path`.
        case zip(path: String)

        /// A folder when `path` ends with `/` or names an existing folder; else a zip when
        /// `container` says so or, without it, `path` ends in `.zip`; else a tar whose compression
        /// comes from the ending (`.tar.gz`/`.tgz`, `.tar.zst`, `.tar.xz`, `.tar`).
        public static func forPath(_ path: String, container: ArchiveContainer? = nil) -> Destination {
            var isFolder: ObjCBool = false
            if path.hasSuffix("/") || (FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
                && isFolder.boolValue)
            {
                return .folder(path: path)
            }
            if (container ?? ArchiveContainer.forPath(path)) == .zip { return .zip(path: path) }
            return .archive(path: path, compression: Compression.forPath(path).compression)
        }

        /// The destination's path as given.
        public var path: String {
            switch self {
            case .archive(let path, _), .folder(let path), .zip(let path): return path
            }
        }
    }

    /// What to write and how.
    public struct Options: Sendable {
        /// Domain and schema version for the manifest and the data files' envelopes.
        public var header: DatasetHeader
        /// Collections in canonical order: each gets a data file (empty ones too); collections
        /// not listed follow in first-seen order.
        public var collections: [String]
        /// The content format of data files, by registry name (`--data-format`, default `json`).
        public var dataFormat: String
        /// The manifest's `createdAt` (RFC 3339 UTC), also every member's mtime (whole seconds):
        /// `SOURCE_DATE_EPOCH` when set, else the newest record instant; never the clock.
        public var createdAt: String
        /// The manifest's `generator` (`ferry 0.1.0`).
        public var generator: String
        /// Fields with external storage per collection (`["wineTastingNotes": ["imageData"]]`).
        public var externalStorage: [String: [String]]
        /// The media folder per collection for external storage (`media/notes/wineTastingNotes`);
        /// default `media/<collection>`.
        public var mediaFolders: [String: String]
        /// Passed to the content writers (with `header` and `collections` set per data file).
        public var writeOptions: WriteOptions

        public init(
            header: DatasetHeader, collections: [String] = [], dataFormat: String = "json", createdAt: String,
            generator: String, externalStorage: [String: [String]] = [:], mediaFolders: [String: String] = [:],
            writeOptions: WriteOptions = WriteOptions()
        ) {
            self.header = header
            self.collections = collections
            self.dataFormat = dataFormat
            self.createdAt = createdAt
            self.generator = generator
            self.externalStorage = externalStorage
            self.mediaFolders = mediaFolders
            self.writeOptions = writeOptions
        }
    }

    private final class CollectionFile {
        let name: String
        let member: String
        let spoolPath: String
        let descriptor: Int32
        let sink: HashingSink
        let writer: any RecordWriter
        var count = 0
        var result: BundleMember?

        init(name: String, member: String, spoolPath: String, descriptor: Int32, sink: HashingSink,
             writer: any RecordWriter) {
            self.name = name
            self.member = member
            self.spoolPath = spoolPath
            self.descriptor = descriptor
            self.sink = sink
            self.writer = writer
        }
    }

    private let destination: Destination
    private var options: Options
    private let format: FormatDescriptor
    private let formatWriter: any FormatWriter
    private let dataExtension: String
    private var modificationTime: Int64
    private let spool: SpoolFolder
    private var collections: [String: CollectionFile] = [:]
    private var collectionOrder: [String] = []
    private var media: [String: MediaFile] = [:]
    /// SHA-256 on the second core for media and copies.
    private lazy var pipeline = HashPipeline()

    /// A media file to write: where its bytes lie, and its member entry (`sha256` empty while
    /// `isHashed` is false: it is then hashed as it is copied into the bundle).
    private struct MediaFile {
        var spoolPath: String
        var member: BundleMember
        var isHashed: Bool
    }

    /// A member to write in `finish()`.
    private struct Entry {
        var member: BundleMember
        var spoolPath: String
        var isHashed = true
    }
    /// Media files that are not temporary copies (the user's own): a folder output copies them
    /// rather than linking them.
    private var sharedFiles: Set<String> = []
    private var finished = false

    /// The manifest written by `finish()` (nil before).
    public private(set) var manifest: BundleManifest?

    /// - Parameters:
    ///   - destination: a tar path or a folder.
    ///   - registry: the content formats; `options.dataFormat` must name one with a writer.
    ///   - options: what to write.
    /// - Throws: `FerryError(.unknownFormat)` for a data format without a writer,
    ///   `.invalidValue` for a `createdAt` that is not RFC 3339, `.outputUnwritable` when no
    ///   temporary folder can be made.
    public init(destination: Destination, registry: FormatRegistry, options: Options) throws {
        guard let format = registry.format(named: options.dataFormat), let writer = format.writer,
              !format.isContainer
        else {
            throw FerryError(.unknownFormat, "no format named '\(options.dataFormat)' writes bundle data files")
        }
        guard let seconds = BundleTimestamp.epochSeconds(options.createdAt) else {
            throw FerryError(.invalidValue, "createdAt '\(options.createdAt)' is not an RFC 3339 instant")
        }
        self.destination = destination
        self.options = options
        self.format = format
        self.formatWriter = writer
        self.dataExtension = format.extensions.first ?? format.name
        self.modificationTime = seconds
        self.spool = try SpoolFolder(kind: "bundle-out")
    }

    deinit {
        for file in collections.values where file.descriptor >= 0 && file.result == nil { close(file.descriptor) }
    }

    private var destinationPath: String { destination.path }

    private func collectionFile(_ name: String) throws -> CollectionFile {
        if let file = collections[name] { return file }
        guard case .safe(let safeName) = MemberPath.check(name), !safeName.contains("/") else {
            throw FerryError(.unsafePath, "collection name '\(name)' cannot be a file name",
                             at: SourceLocation(file: destinationPath))
        }
        let member = "data/\(safeName).\(dataExtension)"
        let (spoolPath, descriptor) = try spool.createFile()
        let sink = HashingSink(FileDescriptorSink(descriptor: descriptor, name: spoolPath))
        var writeOptions = options.writeOptions
        writeOptions.header = options.header
        writeOptions.collections = [name]
        writeOptions.fileName = member
        let writer: any RecordWriter
        do {
            writer = try formatWriter.makeWriter(sink, options: writeOptions)
        } catch {
            close(descriptor)
            throw error
        }
        let file = CollectionFile(name: name, member: member, spoolPath: spoolPath, descriptor: descriptor,
                                  sink: sink, writer: writer)
        collections[name] = file
        collectionOrder.append(name)
        return file
    }

    /// Writes one record into its collection's data file (`record.collection`, else `records`),
    /// first moving base64 values of external-storage fields out into media files.
    /// - Throws: the content writer's errors; `FerryError(.duplicateMember)` when two records
    ///   would write different media to one path; `.outputUnwritable`.
    /// Sets the manifest's `createdAt` (and every member's mtime) before `finish()`, for callers
    /// that learn it from the records (the newest record instant).
    /// - Throws: `FerryError(.invalidValue)` for text that is not an RFC 3339 instant.
    public func setCreatedAt(_ createdAt: String) throws {
        guard let seconds = BundleTimestamp.epochSeconds(createdAt) else {
            throw FerryError(.invalidValue, "createdAt '\(createdAt)' is not an RFC 3339 instant")
        }
        options.createdAt = createdAt
        modificationTime = seconds
    }

    public func write(_ record: Record) throws {
        guard !finished else { throw FerryError(.internalError, "write after the bundle was finished") }
        let name = record.collection ?? "records"
        let file = try collectionFile(name)
        var record = record
        if let fields = options.externalStorage[name], !fields.isEmpty, case .object(var object) = record.value {
            for field in fields {
                guard case .string(let text)? = object[field], !text.isEmpty,
                      let data = Data(base64Encoded: text)
                else { continue }
                let bytes = [UInt8](data)
                let id = object["id"]?.stringValue ?? record.documentID ?? String(file.count)
                let stem = MediaNaming.percentEncoded(id) + (fields.count > 1 ? "-" + MediaNaming.percentEncoded(field) : "")
                let folder = options.mediaFolders[name] ?? "media/\(name)"
                let path = folder + "/" + stem + "." + MediaNaming.fileExtension(for: bytes)
                try addMedia(path: path, source: MemorySource(bytes))
                object[field] = .string(path)
            }
            record.value = .object(object)
        }
        try file.writer.write(record)
        file.count += 1
    }

    /// The checked member path of a media file about to be added (as `addMedia(path:source:)` says).
    private func mediaMember(_ path: String) throws -> String {
        guard !finished else { throw FerryError(.internalError, "addMedia after the bundle was finished") }
        guard case .safe(let member) = MemberPath.check(path), member != "manifest.json", !member.hasPrefix("data/")
        else {
            throw FerryError(.unsafePath, "media path '\(path)' is not a safe relative path",
                             at: SourceLocation(file: destinationPath, member: path))
        }
        return member
    }

    /// Adds a media file, streamed from `source` into the spool and hashed on the way (never held
    /// whole in memory).
    /// - Parameter path: the path relative to the dataset root (`media/Stories/s1/c1.jpeg`), as
    ///   records name it, relative, no `..`; the member is that path under the payload folder
    ///   (`data/media/Stories/s1/c1.jpeg`).
    /// - Throws: `FerryError(.unsafePath)` for a path that is absolute, has `..` or is reserved
    ///   (`manifest.json`, `data/...`); `.duplicateMember` when another file with different bytes
    ///   has that path; the source's read errors.
    public func addMedia(path: String, source: any ByteSource) throws {
        let member = try mediaMember(path)
        let (spoolPath, descriptor) = try spool.createFile()
        defer { close(descriptor) }
        let sink = FileDescriptorSink(descriptor: descriptor, name: spoolPath, capacity: 64 * 1024)
        let (size, sha) = try pipeline.copyAndDigest(read: { try source.read(into: $0) }) { try sink.write($0) }
        try sink.flush()
        let entry = BundleMember(path: BagIt.payloadPrefix + member, size: size, sha256: sha)
        if let existing = media[member] {
            unlink(spoolPath)
            if existing.member != entry {
                throw FerryError(.duplicateMember, "two different media files for one path",
                                 at: SourceLocation(file: destinationPath, member: member))
            }
            return
        }
        media[member] = MediaFile(spoolPath: spoolPath, member: entry, isHashed: true)
    }

    /// Adds a media file that already lies on disk with a known size (a member a `BundleReader`
    /// scanned: `storedFile(of:)`): it is copied from `file` when the bundle is written, not
    /// spooled first. With `sha256` nil it is hashed while it is copied (into a plain tar, in the
    /// same pass: the manifest goes first with placeholder digests of the same length and is
    /// rewritten in place at the end). `file` must not change before `finish()`.
    /// `isPrivateCopy` (a temporary copy nobody else uses) lets a folder output hard-link it
    /// instead of copying it; the user's own files are always copied.
    /// - Throws: as `addMedia(path:source:)`.
    public func addMedia(path: String, storedAt file: String, size: Int64, sha256: String?, isPrivateCopy: Bool = false) throws {
        let member = try mediaMember(path)
        let entry = MediaFile(spoolPath: file, member: BundleMember(path: BagIt.payloadPrefix + member, size: size, sha256: sha256 ?? ""),
                              isHashed: sha256 != nil)
        if let existing = media[member] {
            var same = existing.member.size == size
            if same, existing.spoolPath != file { same = try digest(of: existing) == digest(of: entry) }
            if !same {
                throw FerryError(.duplicateMember, "two different media files for one path",
                                 at: SourceLocation(file: destinationPath, member: member))
            }
            return
        }
        media[member] = entry
        if !isPrivateCopy { sharedFiles.insert(file) }
    }

    /// A media file's SHA-256, read and hashed now when it is not known yet.
    private func digest(of file: MediaFile) throws -> String {
        if file.isHashed { return file.member.sha256 }
        let source = try FileDescriptorSource(path: file.spoolPath)
        return try pipeline.copyAndDigest(read: { try source.read(into: $0) }, write: nil).sha256
    }

    /// Completes the data files, writes the manifest and every member, and renames the result into
    /// place. Calling it twice does nothing the second time.
    /// - Throws: `FerryError(.outputUnwritable)` (the destination is then left as it was).
    public func finish() throws {
        guard !finished else { return }
        finished = true
        for name in options.collections where collections[name] == nil { _ = try collectionFile(name) }
        var ordered = options.collections.filter { collections[$0] != nil }
        var listed = Set(ordered)
        for name in collectionOrder where !listed.contains(name) {
            ordered.append(name)
            listed.insert(name)
        }
        var entries: [Entry] = []
        var manifestCollections: [BundleManifest.Collection] = []
        for name in ordered {
            guard let file = collections[name] else { continue }
            try file.writer.finish()
            try file.sink.flush()
            close(file.descriptor)
            let member = BundleMember(path: file.member, size: file.sink.count, sha256: try file.sink.hasher.finalize())
            file.result = member
            entries.append(Entry(member: member, spoolPath: file.spoolPath))
            manifestCollections.append(.init(name: name, path: file.member, format: format.name, count: file.count))
        }
        for (_, item) in media { entries.append(Entry(member: item.member, spoolPath: item.spoolPath, isHashed: item.isHashed)) }
        entries.sort { MemberPath.precedes($0.member.path, $1.member.path) }
        for pair in zip(entries, entries.dropFirst()) where pair.0.member.path == pair.1.member.path {
            throw FerryError(.duplicateMember, "a media file and a data file share a path",
                             at: SourceLocation(file: destinationPath, member: pair.0.member.path))
        }
        let baggingDate = String(RFC3339Fields.timestamp(seconds: modificationTime, milliseconds: 0).prefix(10))
        let makeHeaders = { (entries: [Entry]) in
            try BundleHeaderFiles(manifest: BundleManifest(
                domain: self.options.header.domain, schemaVersion: self.options.header.schemaVersion,
                createdAt: self.options.createdAt, generator: self.options.generator, collections: manifestCollections,
                files: entries.map { BundleManifest.File(path: $0.member.path, size: $0.member.size, sha256: $0.member.sha256) }),
                baggingDate: baggingDate)
        }
        switch destination {
        case .archive(let path, let compression):
            // A plain tar hashes unhashed media as it writes them (one pass); a compressed one
            // cannot rewrite its manifest afterwards, so they are hashed first.
            if compression != .none { try hashUnhashed(&entries) }
            if entries.allSatisfy(\.isHashed) { manifest = try makeHeaders(entries).manifest }
            manifest = try writeArchive(to: path, format: .tar, compression: compression, entries: entries,
                                        makeHeaders: makeHeaders)
        case .zip(let path):
            // Members are deflated as they go: the manifest cannot be rewritten afterwards.
            try hashUnhashed(&entries)
            manifest = try makeHeaders(entries).manifest
            manifest = try writeArchive(to: path, format: .zip, compression: .none, entries: entries,
                                        makeHeaders: makeHeaders)
        case .folder(let path):
            try hashUnhashed(&entries)
            let headers = try makeHeaders(entries)
            self.manifest = headers.manifest
            try writeFolder(to: path, headers: headers.members, entries: entries)
        }
    }

    /// Hashes the entries whose digest is unknown, all queued before any is waited for.
    private func hashUnhashed(_ entries: inout [Entry]) throws {
        var started: [(index: Int, digest: PendingDigest)] = []
        for (index, entry) in entries.enumerated() where !entry.isHashed {
            let source = try FileDescriptorSource(path: entry.spoolPath)
            let (size, digest) = try pipeline.copy(read: { try source.read(into: $0) }, write: nil)
            guard size == entry.member.size else { throw changedFile(entry.member.path) }
            started.append((index, digest))
        }
        for (index, digest) in started {
            entries[index].member.sha256 = try digest.value()
            entries[index].isHashed = true
        }
    }

    private func changedFile(_ member: String) -> FerryError {
        FerryError(.outputUnwritable, "the file changed while the bundle was written",
                   at: SourceLocation(file: destinationPath, member: member))
    }

    // MARK: - Output

    private func unwritable(_ what: String, _ path: String) -> FerryError {
        FerryError(.outputUnwritable, "\(what): \(String(cString: strerror(errno)))", at: SourceLocation(file: path))
    }

    /// Puts the finished folder `temporary` in the place of the folder `destination`, then removes
    /// the old one, which is at `temporary` after the swap. One `renameat2(RENAME_EXCHANGE)` where
    /// the file system has it, so the destination is never absent; else the old folder is moved
    /// aside first, and both stay this run's (registered) only once the new one is in place.
    private func swapFolder(_ temporary: String, into destination: String, path: String) throws {
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
    private func copySpool(_ spoolPath: String, into write: (UnsafeRawBufferPointer) throws -> Void) throws {
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
    private func copyHashing(_ entry: Entry, into writer: ArchiveWriter) throws -> PendingDigest {
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
    private func writeArchive(
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

    private func writeFolder(to path: String, headers: [(path: String, bytes: [UInt8])], entries: [Entry])
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

    private func writeFile(_ file: String, _ body: (FileDescriptorSink) throws -> Void) throws {
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

/// Forwards bytes to another sink while counting them and hashing them with SHA-256.
final class HashingSink: ByteSink {
    let inner: any ByteSink
    let hasher = SHA256Hasher()
    private(set) var count: Int64 = 0

    init(_ inner: any ByteSink) { self.inner = inner }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try inner.write(bytes)
        hasher.update(bytes)
        count += Int64(bytes.count)
    }

    func flush() throws { try inner.flush() }
}
