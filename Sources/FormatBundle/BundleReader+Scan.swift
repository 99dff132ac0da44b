import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The scan pass: what is admitted of each member, and what the scan concludes at its end.
extension BundleReader {
    // MARK: - Scan pass

    struct Scan {
        /// NFC paths seen (every kind), for duplicates.
        var seen: Set<String> = []
        /// Paths of link members (accepted or not): members below them are refused.
        var links: Set<String> = []
        var members: [String: BundleMember] = [:]
        var directories: Set<String> = []
        var manifestBytes: [UInt8]?
        var rootJSONFiles: [String] = []
        /// `Options.keepsMedia`'s answer, once asked.
        var keepsMedia: Bool?
    }

    /// Whether the media members of this archive are kept (`Options.keepsMedia`, asked once).
    func keepsMedia(_ scan: inout Scan) -> Bool {
        guard let decide = options.keepsMedia else { return true }
        if let decided = scan.keepsMedia { return decided }
        let domain = scan.manifestBytes.flatMap { try? BundleManifest(parsing: $0) }?.domain
        let decided = decide(domain)
        scan.keepsMedia = decided
        return decided
    }

    func location(_ member: String?) -> SourceLocation { SourceLocation(file: path, member: member) }

    /// A line of a member (a tag file's line).
    func location(_ member: String, line: Int) -> SourceLocation {
        var location = location(member)
        location.line = line
        return location
    }

    /// Checks a member's path and kind; returns the normalized path when its content may be read.
    func admit(
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

    static func kindName(_ kind: ArchiveEntryKind) -> String {
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
    static func isKeptPath(_ path: String) -> Bool {
        path.hasPrefix("data/") || path.hasPrefix("media/") || (!path.contains("/") && BagIt.isTagFileName(path))
    }

    func isMediaPath(_ path: String) -> Bool { isMediaPath(path, inBag: isBag) }

    /// `isMediaPath(_:)` with the bag known or not (`inBag`): during the scan, a bag is one whose
    /// `bagit.txt` came before.
    func isMediaPath(_ path: String, inBag: Bool) -> Bool {
        var path = Substring(path)
        if inBag {
            // A bag's dataset may be any Ferry dataset bagged by another tool, an app Documents
            // folder's layout included.
            guard path.hasPrefix(BagIt.payloadPrefix) else { return false }
            path = path.dropFirst(BagIt.payloadPrefix.count)
            return path.hasPrefix("media/") || Self.isDocumentsMediaPath(path)
        }
        if case .documentsFolder = layout { return Self.isDocumentsMediaPath(path) || path.hasPrefix("media/") }
        return path.hasPrefix("media/")
    }

    static func isDocumentsMediaPath(_ path: Substring) -> Bool {
        path.hasPrefix("ProfileImages/") || path.hasPrefix("MemberImages/") || path.hasPrefix("Stories/")
    }

    /// Tells a zip from a tar by its first bytes and scans it. A zip is read from a file, as its
    /// list of members (the central directory) lies at its end: the input itself when it is a
    /// regular file, else its bytes spooled to the private folder first (standard input).
    /// - Parameter isFile: true when `source` is the file at `path` itself.

    func finishScan(_ scan: inout Scan, isFolder: Bool, log: DiagnosticLog) {
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
}
