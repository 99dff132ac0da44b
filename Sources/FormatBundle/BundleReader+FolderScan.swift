import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The scan of a folder bundle or an app Documents folder, read in place.
extension BundleReader {
    func scanFolder(into scan: inout Scan, log: DiagnosticLog) throws {
        var root = path
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        // Without a manifest there is nothing to check digests against: they are computed only when
        // asked for, so packing an app Documents folder reads each file once, hashing it while it
        // is written (issue 7). With a manifest every file is hashed now, for verification.
        var info = stat()
        defersFolderHashing = lstat(root + "/manifest.json", &info) != 0
        try walk(root: root, relative: "", depth: 0, scan: &scan, log: log)
    }

    /// Notes a folder file: opened once (so an unreadable file is reported by the scan, as when it
    /// was hashed there), its size checked against the limit, its digest computed later.
    func noteUnhashedFile(_ member: String, source: FileDescriptorSource, full: String, scan: inout Scan) throws {
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

    func walk(root: String, relative: String, depth: Int, scan: inout Scan, log: DiagnosticLog) throws {
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
}
