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
    private enum Storage {
        case spooled(String)
        case inFolder(String)
        case notKept
    }

    /// The input's path as given.
    public let path: String
    public internal(set) var layout: Layout
    /// The archive format when `layout` is `.archive` (`.tar` otherwise).
    public private(set) var container: ArchiveContainer = .tar
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
    private var unhashed: Set<String> = []
    /// Digests still being computed on the hashing thread while the scan went on.
    private var pendingDigests: [String: PendingDigest] = [:]
    lazy var pipeline = HashPipeline()

    private var storage: [String: Storage] = [:]
    /// A plain tar that ended at a member boundary without its end-of-archive blocks: the cut's
    /// diagnostic at the last member read, reported only when the manifest lists what is absent.
    var tarEndsWithoutMarker: Diagnostic?
    var reportedMissing: Set<String> = []
    private let spool: SpoolFolder
    let options: Options
    private lazy var expansion = ExpansionGuard(
        maximumTotal: options.maximumTotalSize, ratio: options.maximumExpansionRatio, allowance: options.expansionAllowance)
    /// The archive's size in bytes when it is a file, for the expansion ratio; else nil.
    private var archiveInputSize: Int64?
    /// The compressed bytes consumed so far when the archive arrives decompressed already.
    private var compressedBytesRead: (() -> Int64?)?

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

    // MARK: - Scan pass

    private struct Scan {
        /// NFC paths seen (every kind), for duplicates.
        var seen: Set<String> = []
        /// Paths of link members (accepted or not): members below them are refused.
        var links: Set<String> = []
        var members: [String: BundleMember] = [:]
        var directories: Set<String> = []
        var manifestBytes: [UInt8]?
        var rootJSONFiles: [String] = []
    }

    func location(_ member: String?) -> SourceLocation { SourceLocation(file: path, member: member) }

    /// A line of a member (a tag file's line).
    func location(_ member: String, line: Int) -> SourceLocation {
        var location = location(member)
        location.line = line
        return location
    }

    /// Checks a member's path and kind; returns the normalized path when its content may be read.
    private func admit(
        rawPath: String?, displayPath: String, kind: ArchiveEntryKind, permissions: UInt32, linkTarget: String?,
        scan: inout Scan, log: DiagnosticLog
    ) -> String? {
        guard let rawPath else {
            log.report(.error(.invalidEncoding, "member name is not valid UTF-8; not read", at: location(displayPath)))
            return nil
        }
        let normalized: String
        switch MemberPath.check(rawPath) {
        case .root: return nil
        case .tooLong(let length):
            log.report(.error(.tooLarge, "member path is \(length) bytes, longer than the limit of "
                + "\(MemberPath.maximumLength); not read", at: location(String(displayPath.prefix(200)))))
            return nil
        case .unsafe(let reason):
            log.report(.error(.unsafePath, "\(reason); not read", at: location(displayPath)))
            return nil
        case .safe(let path): normalized = path
        }
        if scan.seen.contains(normalized) {
            log.report(.error(.duplicateMember, "a member with this path (or an NFC-equal one) came before; "
                + "this one is not read", at: location(normalized)))
            return nil
        }
        scan.seen.insert(normalized)
        switch kind {
        case .file, .directory:
            break
        case .symbolicLink, .hardLink:
            scan.links.insert(normalized)
            let isHard = kind == .hardLink
            let target = linkTarget ?? ""
            if !MemberPath.linkStaysInside(linkPath: normalized, target: target, isHardLink: isHard) {
                log.report(.error(.unsafePath, "\(isHard ? "hard" : "symbolic") link to '\(target)' leaves the "
                    + "bundle; not followed", at: location(normalized)))
            } else {
                log.report(.note(.assumption, "\(isHard ? "hard" : "symbolic") link to '\(target)' is not "
                    + "followed; bundles hold regular files only", at: location(normalized)))
            }
            return nil
        case .characterDevice, .blockDevice, .fifo, .socket, .unknown:
            log.report(.error(.unsafePath, "\(Self.kindName(kind)) member; not read", at: location(normalized)))
            return nil
        }
        if permissions & 0o6000 != 0 {
            log.report(.error(.unsafePath, "member has the setuid or setgid bit (mode \(String(permissions, radix: 8))); "
                + "not read", at: location(normalized)))
            return nil
        }
        if kind == .directory {
            scan.directories.insert(normalized)
            return nil
        }
        return normalized
    }

    private static func kindName(_ kind: ArchiveEntryKind) -> String {
        switch kind {
        case .characterDevice: return "character device"
        case .blockDevice: return "block device"
        case .fifo: return "fifo"
        case .socket: return "socket"
        default: return "unknown file type"
        }
    }

    /// True for members whose bytes a later pass reads again (spooled from a tar): data, media
    /// and a bag's tag files at the root (read once the scan is over, whatever the member order).
    private static func isKeptPath(_ path: String) -> Bool {
        path.hasPrefix("data/") || path.hasPrefix("media/") || (!path.contains("/") && BagIt.isTagFileName(path))
    }

    private func isMediaPath(_ path: String) -> Bool {
        var path = Substring(path)
        if isBag {
            // A bag's dataset may be any Ferry dataset bagged by another tool, an app Documents
            // folder's layout included.
            guard path.hasPrefix(BagIt.payloadPrefix) else { return false }
            path = path.dropFirst(BagIt.payloadPrefix.count)
            return path.hasPrefix("media/") || Self.isDocumentsMediaPath(path)
        }
        if case .documentsFolder = layout { return Self.isDocumentsMediaPath(path) || path.hasPrefix("media/") }
        return path.hasPrefix("media/")
    }

    private static func isDocumentsMediaPath(_ path: Substring) -> Bool {
        path.hasPrefix("ProfileImages/") || path.hasPrefix("MemberImages/") || path.hasPrefix("Stories/")
    }

    /// Tells a zip from a tar by its first bytes and scans it. A zip is read from a file, as its
    /// list of members (the central directory) lies at its end: the input itself when it is a
    /// regular file, else its bytes spooled to the private folder first (standard input).
    /// - Parameter isFile: true when `source` is the file at `path` itself.
    private func scanArchiveInput(_ source: any ByteSource, isFile: Bool, into scan: inout Scan, log: DiagnosticLog) throws {
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
    private static func regularFileSize(_ path: String) -> Int64? {
        var info = stat()
        guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// - Parameter knownSize: true when `source` is the file at `path` itself, so its size tells a
    ///   truncated archive from a corrupt one.
    private func scanArchive(_ source: any ByteSource, knownSize: Bool, into scan: inout Scan, log: DiagnosticLog) throws {
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
    private func scanMembers(of reader: ArchiveReader, inputSize: Int64?, into scan: inout Scan, log: DiagnosticLog) throws {
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

    private func readArchiveMember(_ member: String, entry: ArchiveEntry, reader: ArchiveReader, scan: inout Scan) throws {
        if member == "manifest.json" {
            var bytes: [UInt8] = []
            _ = try pipeline.copy(limit: Int64(options.maximumManifestSize), read: { try reader.readData(into: $0) }) {
                bytes.append(contentsOf: $0)
            }
            scan.manifestBytes = bytes
            return
        }
        guard Self.isKeptPath(member) else {
            let size: Int64, digest: PendingDigest
            do {
                (size, digest) = try hashArchiveMember(entry: entry, reader: reader, write: nil)
            } catch let cut as MemberDataCut {
                throw cut.error  // nothing of it is kept: the cut is reported where it stands
            }
            scan.members[member] = BundleMember(path: member, size: size, sha256: "")
            pendingDigests[member] = digest
            storage[member] = .notKept
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
    private func hashArchiveMember(
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
        let digest = pipeline.begin()
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

    private func scanFolder(into scan: inout Scan, log: DiagnosticLog) throws {
        var root = path
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        // Without a manifest there is nothing to check digests against: they are computed only when
        // asked for, so packing an app Documents folder reads each file once, hashing it while it
        // is written (issue 7). With a manifest every file is hashed now, for verification.
        var info = stat()
        defersFolderHashing = lstat(root + "/manifest.json", &info) != 0
        try walk(root: root, relative: "", depth: 0, scan: &scan, log: log)
    }

    /// True while scanning a folder without `manifest.json` (see `scanFolder`).
    private var defersFolderHashing = false

    /// Notes a folder file: opened once (so an unreadable file is reported by the scan, as when it
    /// was hashed there), its size checked against the limit, its digest computed later.
    private func noteUnhashedFile(_ member: String, source: FileDescriptorSource, full: String, scan: inout Scan) throws {
        var info = stat()
        guard fstat(source.descriptor, &info) == 0 else {
            throw FerryError(.unreadableInput, "cannot stat: \(String(cString: strerror(errno)))")
        }
        let size = Int64(info.st_size)
        if size > options.maximumMemberSize {
            throw FerryError(.tooLarge, "content is more than \(options.maximumMemberSize) bytes, the limit; not read")
        }
        scan.members[member] = BundleMember(path: member, size: size, sha256: "")
        unhashed.insert(member)
        storage[member] = .inFolder(full)
    }

    /// Computes the digests a folder scan deferred. A file that cannot be read keeps an empty digest.
    func resolveDeferredHashes() {
        guard !unhashed.isEmpty else { return }
        var started: [(index: Int, size: Int64, digest: PendingDigest)] = []
        for member in unhashed.sorted(by: { MemberPath.precedes($0, $1) }) {
            guard let index = fileIndex[member], case .inFolder(let file)? = storage[member],
                  let source = try? FileDescriptorSource(path: file),
                  let (size, digest) = try? pipeline.copy(read: { try source.read(into: $0) }, write: nil)
            else { continue }
            started.append((index, size, digest))
        }
        unhashed = []
        for (index, size, digest) in started {
            guard let sha = try? digest.value() else { continue }
            scannedFiles[index].size = size
            scannedFiles[index].sha256 = sha
        }
    }

    private func walk(root: String, relative: String, depth: Int, scan: inout Scan, log: DiagnosticLog) throws {
        let folder = relative.isEmpty ? root : root + "/" + relative
        guard depth < 256 else {
            log.report(.error(.tooLarge, "folder nesting deeper than 256; not read", at: location(relative)))
            return
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted { MemberPath.precedes($0, $1) }
        } catch {
            if relative.isEmpty {
                throw FerryError(.unreadableInput, "cannot list the folder", at: SourceLocation(file: path))
            }
            log.report(.error(.unreadableInput, "cannot list the folder", at: location(relative)))
            return
        }
        for name in names {
            let rel = relative.isEmpty ? name : relative + "/" + name
            let full = root + "/" + rel
            var info = stat()
            guard lstat(full, &info) == 0 else {
                log.report(.error(.unreadableInput, "cannot stat: \(String(cString: strerror(errno)))", at: location(rel)))
                continue
            }
            let kind: ArchiveEntryKind
            var target: String?
            switch info.st_mode & S_IFMT {
            case S_IFREG: kind = .file
            case S_IFDIR: kind = .directory
            case S_IFLNK:
                kind = .symbolicLink
                target = (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? ""
            case S_IFCHR: kind = .characterDevice
            case S_IFBLK: kind = .blockDevice
            case S_IFIFO: kind = .fifo
            case S_IFSOCK: kind = .socket
            default: kind = .unknown
            }
            guard let member = admit(
                rawPath: rel, displayPath: rel, kind: kind, permissions: UInt32(info.st_mode) & 0o7777,
                linkTarget: target, scan: &scan, log: log)
            else {
                if kind == .directory, case .safe = MemberPath.check(rel) {
                    try walk(root: root, relative: rel, depth: depth + 1, scan: &scan, log: log)
                }
                continue
            }
            if depth == 0, name.lowercased().hasSuffix(".json"), name != "manifest.json" {
                scan.rootJSONFiles.append(member)
            }
            do {
                let source = try FileDescriptorSource(path: full)
                if member == "manifest.json" {
                    scan.manifestBytes = try source.readAll(limit: options.maximumManifestSize)
                    storage[member] = .inFolder(full)
                    continue
                }
                if defersFolderHashing {
                    try noteUnhashedFile(member, source: source, full: full, scan: &scan)
                    continue
                }
                let (size, digest) = try pipeline.copy(limit: options.maximumMemberSize, read: { try source.read(into: $0) },
                                                       write: nil)
                scan.members[member] = BundleMember(path: member, size: size, sha256: "")
                pendingDigests[member] = digest
                storage[member] = .inFolder(full)
            } catch let error as FerryError {
                var diagnostic = error.diagnostic
                diagnostic.location = location(member)
                log.report(diagnostic)
            }
        }
    }

    private func finishScan(_ scan: inout Scan, isFolder: Bool, log: DiagnosticLog) {
        // Once the layout is known: whether the member cut is read as data.
        defer { reportCut(log: log) }
        // Members reached through a link member (`linktoroot/root/.bashrc`) are refused.
        if !scan.links.isEmpty {
            let reached = (Array(scan.members.keys) + Array(scan.directories)).sorted { MemberPath.precedes($0, $1) }
            for member in reached {
                let segments = member.split(separator: "/")
                guard segments.count > 1 else { continue }
                for end in 1..<segments.count {
                    let prefix = segments[0..<end].joined(separator: "/")
                    if scan.links.contains(prefix) {
                        log.report(.error(.unsafePath, "path passes through the link '\(prefix)'; not read",
                                          at: location(member)))
                        if case .spooled(let file)? = storage[member] { unlink(file) }
                        scan.members[member] = nil
                        storage[member] = nil
                        unhashed.remove(member)
                        break
                    }
                }
            }
        }
        // The digests computed on the hashing thread while the scan went on.
        for (member, digest) in pendingDigests where scan.members[member] != nil {
            do {
                scan.members[member]?.sha256 = try digest.value()
            } catch let error as FerryError {
                var diagnostic = error.diagnostic
                diagnostic.location = location(member)
                log.report(diagnostic)
            } catch {
                log.report(.error(.internalError, "SHA-256: \(error)", at: location(member)))
            }
        }
        pendingDigests = [:]
        isCutShort = pendingCut != nil || log.diagnostics.contains { $0.code == .truncatedArchive }
        isDamaged = log.diagnostics.contains { $0.code == .malformedArchive }
        scannedFiles = scan.members.values.sorted { MemberPath.precedes($0.path, $1.path) }
        fileIndex = Dictionary(scannedFiles.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        isBag = fileIndex["bagit.txt"] != nil
        if let bytes = scan.manifestBytes {
            do {
                manifest = try BundleManifest(parsing: bytes, at: location("manifest.json"))
            } catch let error as FerryError {
                log.report(error.diagnostic)
            } catch {
                log.report(.error(.malformedJSON, "manifest: \(error)", at: location("manifest.json")))
            }
            reportCutBetweenMembers(log: log)
            if let manifest, manifest.bundleVersion >= 2, !isBag, !isReadInPart {
                // Its payload still lies under data/: read it as the bag it was written as.
                isBag = true
                log.report(.error(.missingFile, "a version 2 bundle is a BagIt bag, but bagit.txt is missing",
                                  at: location("bagit.txt")))
            }
            // A tag file of the bag, which its tag manifests list.
            if isBag { rootManifestBytes = bytes }
            return
        }
        // The manifest may lie past the cut or in the damage (an archive not read at all has
        // none): its absence is no error of its own.
        if isReadInPart { return }
        if isBag {
            finishBagScan(log: log)
            return
        }
        let hasData = scannedFiles.contains { $0.path.hasPrefix("data/") } || scan.directories.contains("data")
        let rootJSON = scan.rootJSONFiles.sorted { MemberPath.precedes($0, $1) }
        if isFolder, !hasData, ["ProfileImages", "MemberImages", "Stories", "media"].contains(where: { scan.directories.contains($0) }),
           let dataFile = rootJSON.count == 1 ? rootJSON[0] : options.documentsDataFile?(rootJSON)
        {
            layout = .documentsFolder(dataFile: dataFile)
            log.report(.note(.assumption, "no manifest.json: read as the app's Documents folder; \(dataFile) is the "
                + "data and media paths are relative to the folder", at: location(nil)))
            // Root files that are neither the data nor media (settings, caches) are named, not read.
            let ignored = scannedFiles.map(\.path).filter { !$0.contains("/") && $0 != dataFile }
            if !ignored.isEmpty {
                log.report(.note(.assumption, "not part of the dataset, ignored: "
                    + ignored.map { "'\(DiagnosticText.escaped($0))'" }.joined(separator: ", "), at: location(nil)))
            }
            return
        }
        // A bag packed with its folder (`tar -cf bag.tar bag`): say so rather than "not a bundle".
        let tops = Set(scannedFiles.map { $0.path.split(separator: "/", maxSplits: 1)[0] })
        if tops.count == 1, let top = tops.first, fileIndex["\(top)/bagit.txt"] != nil {
            log.report(.error(.missingManifest, "a BagIt bag inside the folder '\(DiagnosticText.escaped(String(top)))/': "
                + "its files must be at the archive's root (tar -C \(top) -cf NAME.tar .), or read the unpacked "
                + "folder", at: location(nil)))
            return
        }
        log.report(.error(.missingManifest, hasData
            ? "the bundle has data/ but no manifest.json"
            : "no manifest.json: this is not a Ferry bundle", at: location(nil)))
    }

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
    private static func format(of member: String, declared: String?, registry: FormatRegistry) -> FormatDescriptor? {
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

    // MARK: - Verification

    /// BagIt-style completeness and fixity (RFC 8493 sections 3 and 4, adapted), reporting every
    /// problem found, not the first; of a bag, first its own manifests and `Payload-Oxum`
    /// (`verifyBag`), then:
    /// - each manifest-listed file is present (`missing-file`) with its size and SHA-256
    ///   (`checksum-mismatch` naming the member);
    /// - each file present is listed (`unlisted-file`);
    /// - each media file is referenced by a record (`orphan-media`, a warning);
    /// - each collection's record count matches the manifest (`count-mismatch`).
    /// Without a manifest only the media references are checked.
    /// - Parameters:
    ///   - referencedMedia: the media paths the records point at (NFC, relative to the bundle root).
    ///   - recordCounts: records read per collection.
    ///   - log: receives the diagnostics.
    public func verify(referencedMedia: Set<String>, recordCounts: [String: Int], log: DiagnosticLog) {
        // What a cut or damaged archive lacks (members, records, manifests, the records media
        // belong to) follows from the cut or the damage, reported once.
        if isReadInPart { return }
        // A bag's own manifests are checked first; a file they found wrong is not reported again
        // from manifest.json.
        let reported = isBag ? verifyBag(log: log) : []
        if let manifest {
            let present = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
            var listed: Set<String> = []
            for file in manifest.files {
                listed.insert(file.path)
                if reported.contains(file.path) { continue }
                guard let found = present[file.path] else {
                    if !reportedMissing.contains(file.path) {
                        reportedMissing.insert(file.path)
                        log.report(.error(.missingFile, "listed in the manifest but not in the bundle",
                                          at: location(file.path)))
                    }
                    continue
                }
                if found.size != file.size {
                    log.report(.error(.checksumMismatch, "size is \(found.size) bytes, the manifest says \(file.size)",
                                      at: location(file.path)))
                } else if found.sha256 != file.sha256 {
                    log.report(.error(.checksumMismatch, "SHA-256 is \(found.sha256), the manifest says \(file.sha256)",
                                      at: location(file.path)))
                }
            }
            for file in files where !listed.contains(file.path) && !reported.contains(file.path) {
                log.report(.error(.unlistedFile, "present in the bundle but not listed in the manifest",
                                  at: location(file.path)))
            }
        }
        let normalizedReferences = Set(referencedMedia.map(MemberPath.nfc))
        for media in mediaPaths where !normalizedReferences.contains(media) {
            log.report(.warning(.orphanMedia, "no record references this media file", at: location(media)))
        }
        if let manifest {
            var known: Set<String> = []
            for collection in manifest.collections {
                known.insert(collection.name)
                let count = recordCounts[collection.name] ?? 0
                if count != collection.count {
                    var where_ = location(collection.path)
                    where_.collection = collection.name
                    log.report(.error(.countMismatch, "\(count) records read, the manifest says \(collection.count)",
                                      at: where_))
                }
            }
            for (name, count) in recordCounts.sorted(by: { $0.key < $1.key }) where !known.contains(name) && count > 0 {
                var where_ = location(nil)
                where_.collection = name
                log.report(.error(.countMismatch, "\(count) records of collection \(name), which the manifest does "
                    + "not list", at: where_))
            }
        }
    }
}
