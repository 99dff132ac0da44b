import FerryCore
import FerrySchemas
import Foundation

/// How an app Documents folder's data file is told from other JSON files beside it
/// (`settings.json`): by content, as a domain is detected.
enum DocumentsFolder {
    /// The bytes of each candidate read to find its collections.
    static let headSize = 64 << 10

    /// Picks the data file of the folder at `folder` among `candidates` (root JSON files): the one
    /// whose first bytes name a collection of `domain` (`--domain`), or of any domain, as a key;
    /// when several do, the one named after the domain (`pet-story.json`). Nil when none does.
    static func dataFile(in folder: String, domain: String?) -> @Sendable ([String]) -> String? {
        let domains = Domain.allCases.filter { domain == nil || $0.rawValue == domain }
        return { candidates in
            let matching = candidates.filter { name in
                guard let handle = FileHandle(forReadingAtPath: folder + "/" + name) else { return false }
                defer { try? handle.close() }
                let head = String(decoding: (try? handle.read(upToCount: headSize)) ?? Data(), as: UTF8.self)
                return domains.contains { domain in
                    [1, 2].compactMap { DatasetSchema.schema(for: domain, version: $0) }.flatMap(\.collectionNames)
                        .contains { head.contains("\"\($0)\"") }
                }
            }
            if matching.count == 1 { return matching[0] }
            return matching.first { name in domains.contains { name == $0.rawValue + ".json" } }
        }
    }
}
