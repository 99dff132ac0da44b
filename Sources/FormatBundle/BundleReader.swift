import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a bundle (SCHEMAS.md "Formats: Bundle"): a tar archive with any compression libarchive
/// detects, a zip (told by its first bytes, `PK\x03\x04`), or a folder with the same layout, or a
/// folder laid out like the app's Documents folder. A zip goes through the same checks as a tar.
///
/// `init` makes one scan pass over the whole input, members in any order:
/// - every member path is checked (`MemberPath.check`) and NFC-normalized; absolute paths, `..`
///   segments (with `/` or `\`), links whose target leaves the bundle, members reached through a
///   link, device, fifo and socket files, and setuid/setgid members are `unsafe-path` diagnostics
///   naming the member and are never read further; repeated (or NFC-equal) paths are
///   `duplicate-member`; names that are not UTF-8 are `invalid-encoding`;
/// - the size and SHA-256 of every regular member is computed while its bytes pass (on a second
///   thread); a folder without `manifest.json` is only sized, its digests computed when asked for;
/// - an archive expanding to more than `Options.maximumTotalSize`, or (past
///   `Options.expansionAllowance`) to more than `Options.maximumExpansionRatio` times its
///   compressed size, is `too-large` and read no further (`ExpansionGuard`);
/// - `data/*` and `media/*` members of a tar are spooled to a private temporary folder (never
///   memory), so later passes can read them; folders are read in place;
/// - `manifest.json` is parsed;
/// - a truncated or corrupt archive is `truncated-archive` / `malformed-archive` naming the last
///   member reached and the byte offset (`ArchiveReader`); everything read up to there is still
///   checked.
///
/// Problems go to the `DiagnosticLog`; `init` throws only when the input cannot be opened at all.
public final class BundleReader {
    /// Limits of the scan pass (DESIGN.md "Limits"; `Docs/bundles.md`).
    public struct Options: Sendable {
        /// The largest member content accepted, in bytes (default 16 GiB); larger is `too-large`.
        public var maximumMemberSize: Int64
        /// The largest `manifest.json` accepted, in bytes (default 64 MiB; it is held in memory).
        public var maximumManifestSize: Int
        /// The most content an archive may hold in all, in bytes (default 64 GiB); more is `too-large`.
        public var maximumTotalSize: Int64
        /// The most bytes of content a compressed archive (a zip, a `.tar.gz`) may expand to per
        /// byte of its size (default 250), once past `expansionAllowance`; more is `too-large`.
        public var maximumExpansionRatio: Int64
        /// The content, in bytes, any archive may expand to whatever its ratio (default 256 MiB).
        public var expansionAllowance: Int64

        /// For a folder without a manifest holding several JSON files at its root: picks the data
        /// file among them (root-relative names, byte order), or nil when none is; the others are
        /// then ignored with a note. Without it, or when it picks none, the folder is no bundle.
        public var documentsDataFile: (@Sendable ([String]) -> String?)?

        /// Whether an archive's media members are kept to be read again (copied to the reader's
        /// private folder as the scan passes them), asked once, at the first of them, with the
        /// domain of the manifest when it came before them (nil: none did). Nil (the default):
        /// always. A run that writes nothing and reads no media bytes back into its records needs
        /// only their sizes and SHA-256 digests, which the scan takes either way.
        public var keepsMedia: (@Sendable (_ manifestDomain: String?) -> Bool)?

        public init(maximumMemberSize: Int64 = 16 << 30, maximumManifestSize: Int = 64 << 20,
                    maximumTotalSize: Int64 = 64 << 30, maximumExpansionRatio: Int64 = 250,
                    expansionAllowance: Int64 = 256 << 20,
                    documentsDataFile: (@Sendable ([String]) -> String?)? = nil)
        {
            self.maximumMemberSize = maximumMemberSize
            self.maximumManifestSize = maximumManifestSize
            self.maximumTotalSize = maximumTotalSize
            self.maximumExpansionRatio = maximumExpansionRatio
            self.expansionAllowance = expansionAllowance
            self.documentsDataFile = documentsDataFile
        }
    }

    /// How the input is laid out.
    public enum Layout: Sendable, Hashable {
        /// An archive: a tar or a zip (`container` says which).
        case archive
        /// A folder with the bundle layout (`manifest.json`, `data/`, `media/`).
        case folder
        /// A folder like the app's Documents folder: `ProfileImages/`, `MemberImages/`, `Stories/`
        /// at its root or under `media/`, beside one JSON file that is the data (or several, of
        /// which `Options.documentsDataFile` picks it), no manifest.
        case documentsFolder(dataFile: String)
    }

    /// Where a member's bytes can be read again.
    enum Storage {
        case spooled(String)
        case inFolder(String)
        case notKept
        /// A media member hashed and not kept (`Options.keepsMedia`).
        case hashedOnly
    }

    /// The input's path as given.
    public let path: String
    public internal(set) var layout: Layout
    /// The archive format when `layout` is `.archive` (`.tar` otherwise).
    public internal(set) var container: ArchiveContainer = .tar
    /// The parsed manifest, nil when absent or unreadable (a diagnostic says which).
    public internal(set) var manifest: BundleManifest?
    /// Every regular file accepted, `manifest.json` excluded, in byte order of path; of a BagIt
    /// bag only the payload (`data/...`, without a `data/manifest.json` read as the manifest).
    /// Digests a folder scan left for later (`defersFolderHashing`) are computed on first use; a
    /// file that cannot be read then has an empty `sha256`.
    public var files: [BundleMember] {
        resolveDeferredHashes()
        return isBag ? scannedFiles.filter { isDatasetFile($0.path) } : scannedFiles
    }

    /// True when the input is a BagIt bag (RFC 8493): `bagit.txt` at its root, or a version 2
    /// manifest. Its dataset lies in the payload folder `data/`; the bag's own fixity is checked
    /// by `verify` (`BundleReader+BagIt.swift`).
    public internal(set) var isBag = false
    /// True when the archive ends early (`truncated-archive` reported while scanning): what it
    /// lacks past the cut (members, the manifest, records the manifest counts) is not reported
    /// again as missing.
    public internal(set) var isCutShort = false
    /// True when the archive could not be read in full (`malformed-archive` reported while
    /// scanning: an unrecognised archive, a damaged member header, a member's data unreadable):
    /// what the damage hid (members, the manifest, records the manifest counts, records that
    /// media or references belong to) is not reported again, as for an archive cut short.
    public internal(set) var isDamaged = false
    /// True when the archive is cut short or damaged (`isCutShort`, `isDamaged`): only what was
    /// read before is there, and what the rest held is not reported missing.
    public var isReadInPart: Bool { isCutShort || isDamaged }
    /// The cut the scan met inside a kept member's data: the member, the spool file holding its
    /// bytes before the cut, and libarchive's error (reported by `reportCut` once the scan knows
    /// whether the member is data).
    var pendingCut: (member: String, file: String, error: FerryError)?
    /// The data member the archive is cut inside and the line of its last byte before the cut:
    /// its records before the cut are read, and what its reader says of the cut is not reported
    /// again (`BundleRecordReader`, `echoesCut`).
    var cutMember: (member: String, lastLine: Int)?
    /// The member read as the Ferry manifest inside a bag's payload (`data/manifest.json` of a
    /// version 1 bundle bagged by another tool), nil otherwise.
    var payloadManifestPath: String?
    /// A bag's root `manifest.json` (a tag file, not kept with the members).
    var rootManifestBytes: [UInt8]?

    /// The accepted files in byte order of path (tag files of a bag included); `sha256` is empty
    /// for those still in `unhashed`.
    var scannedFiles: [BundleMember] = []
    /// Positions in `scannedFiles` by path.
    var fileIndex: [String: Int] = [:]
    /// Folder files whose digest nobody asked for yet (no manifest to check them against).
    var unhashed: Set<String> = []
    /// Digests still being computed on the hashing thread while the scan went on.
    var pendingDigests: [String: PendingDigest] = [:]
    lazy var pipeline = HashPipeline()

    var storage: [String: Storage] = [:]
    /// A plain tar that ended at a member boundary without its end-of-archive blocks: the cut's
    /// diagnostic at the last member read, reported only when the manifest lists what is absent.
    var tarEndsWithoutMarker: Diagnostic?
    var reportedMissing: Set<String> = []
    let spool: SpoolFolder
    let options: Options
    lazy var expansion = ExpansionGuard(
        maximumTotal: options.maximumTotalSize, ratio: options.maximumExpansionRatio, allowance: options.expansionAllowance)
    /// The archive's size in bytes when it is a file, for the expansion ratio; else nil.
    var archiveInputSize: Int64?
    /// The compressed bytes consumed so far when the archive arrives decompressed already.
    var compressedBytesRead: (() -> Int64?)?

    /// What the manifest declares (empty for a Documents folder: the data file's own envelope says it).
    public var header: DatasetHeader { manifest?.header ?? DatasetHeader() }

    /// The media files: members under `media/`, or for a Documents folder under `ProfileImages/`,
    /// `MemberImages/` and `Stories/`; in a bag the same under `data/`; in byte order of path.
    public var mediaFiles: [BundleMember] {
        files.filter { isMediaPath($0.path) }
    }

    /// The media files with their sizes (as `mediaFiles`), without waiting for any digest: their
    /// `sha256` may be empty.
    public var mediaSizes: [BundleMember] {
        scannedFiles.filter { isMediaPath($0.path) }
    }

    /// The paths of `mediaFiles`, without waiting for any digest.
    public var mediaPaths: [String] {
        scannedFiles.map(\.path).filter { isMediaPath($0) }
    }

    /// A member's path relative to the dataset root, as records name media: in a bag without
    /// `data/` (`data/media/x.jpg` is `media/x.jpg`), else the member path itself.
    public func datasetPath(of member: String) -> String {
        isBag && member.hasPrefix(BagIt.payloadPrefix) ? String(member.dropFirst(BagIt.payloadPrefix.count)) : member
    }

    /// Scans `path`: a tar archive (`.tar`, `.tar.gz`, `.tgz`, `.tar.zst`, `.tar.xz`, or any
    /// compression libarchive detects), a zip, or a folder; `-` is standard input.
    /// - Parameters:
    ///   - path: the input path as the user gave it (used in every location; a folder's without
    ///     its trailing slashes).
    ///   - options: limits.
    ///   - log: receives every problem found.
    /// - Throws: `FerryError(.unreadableInput)` when the input cannot be opened, or
    ///   `.outputUnwritable` when no temporary folder can be created.
    public init(path: String, options: Options = Options(), log: DiagnosticLog) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) || path == "-" else {
            throw FerryError(.unreadableInput, "no such file or folder", at: SourceLocation(file: path))
        }
        // `dir/` and `dir` are one folder: locations name it without the slash (`dir:data/x.xml`).
        var named = path
        while isFolder.boolValue, named.count > 1, named.hasSuffix("/") { named.removeLast() }
        self.path = named
        self.options = options
        self.spool = try SpoolFolder(kind: "bundle")
        self.layout = isFolder.boolValue ? .folder : .archive
        var scan = Scan()
        if isFolder.boolValue {
            try scanFolder(into: &scan, log: log)
        } else {
            try scanArchiveInput(try FileDescriptorSource(path: path), isFile: true, into: &scan, log: log)
        }
        finishScan(&scan, isFolder: isFolder.boolValue, log: log)
    }

    /// Scans a tar archive or a zip from a stream already opened (standard input or a file whose
    /// format was found from its first bytes, possibly already decompressed), as
    /// `init(path:options:log:)` does. A zip is spooled to the private folder first: it is read
    /// from its end (the central directory).
    /// - Parameters:
    ///   - path: the input path as the user gave it (`-` for standard input), used in every location.
    ///   - source: the archive's bytes, compressed or not.
    /// - Throws: `FerryError(.outputUnwritable)` when no temporary folder can be created.
    public init(path: String, source: any ByteSource, options: Options = Options(), log: DiagnosticLog) throws {
        self.path = path
        self.options = options
        self.spool = try SpoolFolder(kind: "bundle")
        self.layout = .archive
        var scan = Scan()
        try scanArchiveInput(source, isFile: false, into: &scan, log: log)
        finishScan(&scan, isFolder: false, log: log)
    }

    /// True while scanning a folder without `manifest.json` (see `scanFolder`).
    var defersFolderHashing = false

    // MARK: - Reading members

    /// The file holding `member` on disk (a folder bundle's own file, or the copy spooled while
    /// scanning an archive) and its size and SHA-256 as scanned, or nil when the member is not
    /// kept. The file stays as it is while this reader lives: a writer may copy it from there
    /// without reading and hashing it once more (issue 7: pack and unpack near bsdtar's speed).
    /// `isPrivateCopy` is true for the reader's own spooled copy (never the user's file), which a
    /// writer may hard-link into a folder output instead of copying.
    public func storedFile(of member: String) -> StoredFile? {
        let key = MemberPath.nfc(member)
        guard let index = fileIndex[key] ?? fileIndex[member] else { return nil }
        let entry = scannedFiles[index]
        let sha256: String? = unhashed.contains(entry.path) ? nil : entry.sha256
        switch storage[key] {
        case .spooled(let file)?: return StoredFile(path: file, size: entry.size, sha256: sha256, isPrivateCopy: true)
        case .inFolder(let file)?: return StoredFile(path: file, size: entry.size, sha256: sha256, isPrivateCopy: false)
        default: return nil
        }
    }

    /// Where a member lies on disk (`storedFile(of:)`).
    public struct StoredFile: Sendable, Hashable {
        /// The file's path.
        public var path: String
        /// Its size in bytes, as scanned.
        public var size: Int64
        /// Its SHA-256, or nil when the scan left it for later (a folder without a manifest): the
        /// writer then hashes the bytes as it copies them.
        public var sha256: String?
        /// True for the reader's own spooled copy, never the user's file.
        public var isPrivateCopy: Bool
    }

    /// Opens a member for reading (from the spool for a tar, in place for a folder).
    /// - Parameter member: an NFC relative path as listed in `files`.
    /// - Throws: `FerryError(.missingFile)` when the member was not found or not kept (tar members
    ///   outside `data/` and `media/` are hashed but not kept), `.unreadableInput` when it cannot be opened.
    public func open(_ member: String) throws -> any ByteSource {
        switch storage[MemberPath.nfc(member)] {
        case .spooled(let file)?, .inFolder(let file)?:
            do {
                return try FileDescriptorSource(path: file)
            } catch let error as FerryError {
                var diagnostic = error.diagnostic
                diagnostic.location = location(member)
                throw FerryError(diagnostic)
            }
        case .notKept?:
            throw FerryError(.missingFile, "member is outside data/ and media/ and was not kept", at: location(member))
        case .hashedOnly?:
            throw FerryError(.internalError, "media member was only hashed: this run said it reads no media", at: location(member))
        case nil:
            throw FerryError(.missingFile, "no such member", at: location(member))
        }
    }

    /// The data members to read, in order: the manifest's collections in manifest order; without a
    /// manifest the `data/*` members in byte order (collection = file name without extension); for
    /// a Documents folder its JSON file (collection from the file's own content).
    func dataPlan() -> [(member: String, collection: String?, format: String?)] {
        if let manifest {
            return manifest.collections.map { ($0.path, $0.name, $0.format.isEmpty ? nil : $0.format) }
        }
        if case .documentsFolder(let dataFile) = layout { return [(dataFile, nil, nil)] }
        let dataFiles = isBag
            ? scannedFiles.filter { isDatasetFile($0.path) && !isMediaPath($0.path) }
            : scannedFiles.filter { $0.path.hasPrefix("data/") }
        return dataFiles.map { file in
            let name = file.path.dropFirst(5).split(separator: "/").last.map(String.init) ?? file.path
            let stem = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
            return (file.path, stem, nil)
        }
    }

    /// Whether the data member exists; reports `missing-file` once when it does not.
    func checkPresent(_ member: String, collection: String?, log: DiagnosticLog) -> Bool {
        if storage[member] != nil { return true }
        // A member past the cut of an archive cut short, or in its damage, is not missing: the cut
        // or the damage is reported.
        if !isReadInPart, !reportedMissing.contains(member) {
            reportedMissing.insert(member)
            var where_ = location(member)
            where_.collection = collection
            log.report(.error(.missingFile, "the manifest lists this data member but the bundle lacks it", at: where_))
        }
        return false
    }

    /// The data members in reading order with the content format each is read by, as
    /// `makeRecordReader` picks them (members no registered format reads are left out).
    public func dataMembers(registry: FormatRegistry) -> [(member: String, format: FormatDescriptor)] {
        dataPlan().compactMap { plan in
            Self.format(of: plan.member, declared: plan.format, registry: registry).map { (plan.member, $0) }
        }
    }

    /// The format of a data member: its extension's, else the manifest's `format` name.
    static func format(of member: String, declared: String?, registry: FormatRegistry) -> FormatDescriptor? {
        registry.format(forPath: member) ?? declared.flatMap { registry.format(named: $0) }
    }

    /// A reader of every record of the bundle's data members, in manifest (collection) order.
    ///
    /// Each member is read by the content format its extension names in `registry` (else the
    /// manifest's `format`); every record and diagnostic carries `file` = the bundle path and
    /// `member` = the member path; records without a collection get the manifest's collection name.
    /// - Parameters:
    ///   - registry: the content formats (FormatBundle knows none itself).
    ///   - options: passed to each content reader with `fileName`, `member` and `collection` set.
    ///   - log: receives the content readers' diagnostics and `missing-file` for absent data members.
    ///   - memberStarted: called with each member's path and its content reader when reading of
    ///     the member starts (before its first record), for checks of what the reader found in the
    ///     member's own header (a CSV header's repeated names); the diagnostics it returns are
    ///     reported before the member's records (in turn with them under `--jobs`).
    /// - Throws: `FerryError(.unknownFormat)` naming the member when no registered format reads it.
    ///
    /// Each record carries `scalarsAreText` of its member's format, so one bundle may mix formats.
    public func makeRecordReader(
        registry: FormatRegistry, options: ReadOptions, log: DiagnosticLog,
        memberStarted: ((String, any RecordReader) -> [Diagnostic])? = nil
    ) throws -> any RecordReader {
        var steps: [BundleRecordReader.Step] = []
        for (member, collection, formatName) in dataPlan() {
            let format = Self.format(of: member, declared: formatName, registry: registry)
            if isBag, manifest == nil, format?.reader == nil {
                // A bag made by another tool may carry a file beside the dataset (a README).
                log.report(.note(.assumption, "no format reads this payload file; not read", at: location(member)))
                continue
            }
            guard let format, let formatReader = format.reader else {
                throw FerryError(.unknownFormat, "no format reads this data member", at: location(member))
            }
            steps.append(BundleRecordReader.Step(
                member: member, collection: collection, reader: formatReader, scalarsAreText: format.scalarsAreText))
        }
        return BundleRecordReader(bundle: self, steps: steps, options: options, log: log, memberStarted: memberStarted)
    }

}
