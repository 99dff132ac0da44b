import FerryCore

/// Where a pet-story V1 record's media live (SCHEMAS.md "Domain pet-story"): the path stems,
/// relative to the dataset root or its `media/` folder, of the files that belong to a record;
/// the extension is whatever the file has (matched case-insensitively by a `MediaCatalog`).
public enum PetStoryMediaLayout {
    /// `ProfileImages/<id>` for a profile, `MemberImages/<id>` for a member,
    /// `Stories/<storyId>/<mediaContentId>` for each of a story's media; empty otherwise.
    public static func stems(collection: String?, value: Value) -> [String] {
        guard let object = value.objectValue, let id = object["id"]?.stringValue, !id.isEmpty else { return [] }
        switch collection {
        case "profiles": return ["ProfileImages/\(id)"]
        case "members": return ["MemberImages/\(id)"]
        case "stories":
            return (object["mediaContentIds"]?.arrayValue ?? []).compactMap { $0.stringValue.map { "Stories/\(id)/\($0)" } }
        default: return []
        }
    }
}
