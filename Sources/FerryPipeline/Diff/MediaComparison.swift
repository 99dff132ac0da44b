/// Compares two sides' media files by SHA-256: same path and digest is the same file; same path,
/// other digest is changed; a file gone from one path whose digest turns up at a new path is
/// renamed; the rest are removed or added.
enum MediaComparison {
    /// - Parameters: `old`, `new`: dataset-root path (`media/Stories/s1/photo1.jpg`) to hex digest.
    /// - Returns: the differences in byte order of path (a renamed file at its new path).
    static func differences(old: [String: String], new: [String: String]) -> [MediaDifference] {
        var found: [MediaDifference] = []
        var gone: [String] = []
        var arrived: [String] = []
        for (path, digest) in old {
            if let other = new[path] {
                if other != digest {
                    found.append(MediaDifference(kind: .changed, path: path, oldSHA256: digest, newSHA256: other))
                }
            } else {
                gone.append(path)
            }
        }
        for path in new.keys where old[path] == nil { arrived.append(path) }
        gone.sort(by: byteOrder)
        arrived.sort(by: byteOrder)
        // Each arrived file can be the new place of one gone file only (first by path).
        var arrivedByDigest: [String: [String]] = [:]
        for path in arrived { arrivedByDigest[new[path]!, default: []].append(path) }
        var renamed: Set<String> = []
        for path in gone {
            let digest = old[path]!
            if var candidates = arrivedByDigest[digest], !candidates.isEmpty {
                let target = candidates.removeFirst()
                arrivedByDigest[digest] = candidates
                renamed.insert(target)
                found.append(MediaDifference(kind: .renamed, path: target, oldPath: path, oldSHA256: digest, newSHA256: digest))
            } else {
                found.append(MediaDifference(kind: .removed, path: path, oldSHA256: digest))
            }
        }
        for path in arrived where !renamed.contains(path) {
            found.append(MediaDifference(kind: .added, path: path, newSHA256: new[path]))
        }
        return found.sorted { byteOrder($0.path, $1.path) }
    }

    static func byteOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}
