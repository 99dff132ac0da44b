import FerrySchemas
import Foundation

/// How an app Documents folder's data file is told from other JSON files beside it
/// (`settings.json`): by content, as a domain is detected.
enum DocumentsFolder {
    /// The bytes of each candidate read to find its collections.
    static let headSize = 64 << 10

    /// Picks the data file of the folder at `folder` among `candidates` (root JSON files): the one
    /// whose first bytes name a collection of `domain` (`--domain`), or of any domain, as a key;
    /// when several do, the one that names the folder's media files (a record id or path that is a
    /// media file's name: the media belong to that data), else the one named after the domain
    /// (`pet-story.json`). Nil when none does.
    static func dataFile(in folder: String, domain: String?) -> @Sendable ([String]) -> String? {
        let domains = Domain.allCases.filter { domain == nil || $0.rawValue == domain }
        return { candidates in
            var heads: [String: String] = [:]
            let matching = candidates.filter { name in
                guard let handle = FileHandle(forReadingAtPath: folder + "/" + name) else { return false }
                defer { try? handle.close() }
                let head = String(decoding: (try? handle.read(upToCount: headSize)) ?? Data(), as: UTF8.self)
                heads[name] = head
                return domains.contains { domain in
                    [1, 2].compactMap { DatasetSchema.schema(for: domain, version: $0) }.flatMap(\.collectionNames)
                        .contains { head.contains("\"\($0)\"") }
                }
            }
            if matching.count <= 1 { return matching.first }
            let stems = mediaStems(in: folder)
            let naming = matching.filter { name in
                let head = heads[name] ?? ""
                return stems.contains { head.contains("\"\($0)\"") || head.contains("/\($0).") }
            }
            if naming.count == 1 { return naming[0] }
            return (naming.isEmpty ? matching : naming).first { name in domains.contains { name == $0.rawValue + ".json" } }
        }
    }

    /// The most media file names (without extension) looked for in a candidate's first bytes.
    static let stemLimit = 256

    /// The names without extension of the files in the folder's subfolders (its media), at most
    /// `stemLimit`, in the order the file system lists them.
    private static func mediaStems(in folder: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: folder) else { return [] }
        var stems: [String] = []
        while stems.count < stemLimit, let path = walk.nextObject() as? String {
            guard path.contains("/"), walk.fileAttributes?[.type] as? FileAttributeType != .typeDirectory else { continue }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let stem = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
            if !stem.isEmpty { stems.append(stem) }
        }
        return stems
    }
}
