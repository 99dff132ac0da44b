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
        let member: String
        let spoolPath: String
        let descriptor: Int32
        let sink: HashingSink
        let writer: any RecordWriter
        var count = 0
        var result: BundleMember?

        init(member: String, spoolPath: String, descriptor: Int32, sink: HashingSink,
             writer: any RecordWriter) {
            self.member = member
            self.spoolPath = spoolPath
            self.descriptor = descriptor
            self.sink = sink
            self.writer = writer
        }
    }

    let destination: Destination
    private var options: Options
    let format: FormatDescriptor
    private let formatWriter: any FormatWriter
    private let dataExtension: String
    var modificationTime: Int64
    let spool: SpoolFolder
    private var collections: [String: CollectionFile] = [:]
    private var collectionOrder: [String] = []
    var media: [String: MediaFile] = [:]
    /// SHA-256 on the second core for media and copies.
    lazy var pipeline = HashPipeline()

    /// A media file to write: where its bytes lie, and its member entry (`sha256` empty while
    /// `isHashed` is false: it is then hashed as it is copied into the bundle).
    struct MediaFile {
        var spoolPath: String
        var member: BundleMember
        var isHashed: Bool
    }

    /// A member to write in `finish()`.
    struct Entry {
        var member: BundleMember
        var spoolPath: String
        var isHashed = true
    }
    /// Media files that are not temporary copies (the user's own): a folder output copies them
    /// rather than linking them.
    var sharedFiles: Set<String> = []
    var finished = false

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

    var destinationPath: String { destination.path }

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
        let file = CollectionFile(member: member, spoolPath: spoolPath, descriptor: descriptor,
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
                files: entries.map(\.member)),
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

    func changedFile(_ member: String) -> FerryError {
        FerryError(.outputUnwritable, "the file changed while the bundle was written",
                   at: SourceLocation(file: destinationPath, member: member))
    }
}
