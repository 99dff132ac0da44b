import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// BagIt-style completeness and fixity of what the scan found.
extension BundleReader {
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
