import FerryCore

/// Finds the domain and schema version of an input (DESIGN.md "Detection").
public enum DomainDetector {
    /// Flags, then the input's header, then collection names and field shapes and values (Timestamp
    /// objects, an integer studyState, also written in digits as CSV and XML cells are, `type`,
    /// `mediaContentIds` mean V1). Nil when no domain fits.
    ///
    /// - Parameters:
    ///   - domain, version: `--domain` and `--schema-version`, nil when not given.
    ///   - header: what the input says (envelope, header line, manifest).
    ///   - collections: the collection names seen so far.
    ///   - sample: one record's value (or the whole document), for field shapes.
    /// - Returns: nil when no domain fits or the header names a domain Ferry does not know.
    public static func detect(domain: Domain?, version: Int?, header: DatasetHeader, collections: [String], sample: Value?)
        -> (domain: Domain, version: Int)?
    {
        var found = domain
        if found == nil, let name = header.domain {
            guard let known = Domain(rawValue: name) else { return nil }
            found = known
        }
        if found == nil { found = domainFromCollections(collections) }
        guard let found else { return nil }
        if let version = version ?? header.schemaVersion { return (found, version) }
        return (found, versionFromShapes(found, collections: collections, sample: sample))
    }

    static func domainFromCollections(_ collections: [String]) -> Domain? {
        for name in collections {
            switch name {
            case "wineNotes", "coffeeNotes", "whiskeyNotes", "cocktailNotes", "wineTastingNotes", "coffeeTastingNotes",
                "whiskeyTastingNotes", "cocktailTastingNotes":
                return .notes
            case "profiles", "members", "stories": return .petStory
            case "wordBooks", "words", "__collections__", "subCollection": return .vocabulary
            default:
                if FirestoreLayout.subCollectionParent(name) != nil { return .vocabulary }
            }
        }
        return nil
    }

    static func versionFromShapes(_ domain: Domain, collections: [String], sample: Value?) -> Int {
        switch domain {
        case .notes:
            if collections.contains(where: { $0.hasSuffix("TastingNotes") }) { return 2 }
            if collections.contains(where: { $0.hasSuffix("Notes") }) { return 1 }
            if let object = sample?.objectValue, object["alcoholByVolume"] != nil || object["look"]?.objectValue != nil {
                return 2
            }
            return 1
        case .petStory:
            guard let object = sample?.objectValue else { return 1 }
            for key in ["type", "mediaContentIds", "lat", "lng"] where object[key] != nil { return 1 }
            for key in ["species", "media", "location", "image", "speciesDetail"] where object[key] != nil { return 2 }
            if let since = object["since"]?.stringValue, CalendarDay(since) == nil { return 1 }
            return 1
        case .vocabulary:
            if collections.contains(where: { $0 == "__collections__" || $0 == "subCollection" || $0.contains("/") }) {
                return 1
            }
            guard let object = sample?.objectValue else { return 1 }
            if let first = firstDocument(object) { return versionFromShapes(domain, collections: [], sample: first) }
            if let timestamp = object["timestamp"], FirestoreTimestamp.isTimestampObject(timestamp) { return 1 }
            if object["studyState"]?.isNumber == true { return 1 }
            // CSV and XML cells are text: a studyState written in digits is V1's integer, V2's is a word.
            if let state = object["studyState"]?.stringValue, Self.isIntegerText(state) { return 1 }
            if object["__collections__"] != nil || object["subCollection"] != nil { return 1 }
            if object["createdAt"] != nil || object["studyState"]?.stringValue != nil { return 2 }
            if object["title"] != nil, object["timestamp"] != nil { return 1 }
            return 1
        }
    }

    /// True for an optionally signed run of ASCII digits (`0`, `2`, `-1`): an integer as a CSV cell writes it.
    static func isIntegerText(_ text: String) -> Bool {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// A sample that is a whole document or a collection keyed by document id: its first record.
    private static func firstDocument(_ object: ValueObject) -> Value? {
        for key in ["wordBooks", "words", "__collections__"] {
            if let inner = object[key] {
                switch inner {
                case .array(let items): return items.first
                case .object(let members): return members.first?.value
                default: break
                }
            }
        }
        return nil
    }
}
