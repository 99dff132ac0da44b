/// The media files that stand beside a dataset (a bundle's `media/`, or the app's Documents
/// folder layout), as the pet-story migration looks them up (SCHEMAS.md "Domain pet-story").
public protocol MediaCatalog: Sendable {
    /// Relative paths (with "/" separators, relative to the dataset root, e.g. "media/Stories/s1/m1.JPG")
    /// of the files whose path without extension equals `stem` (e.g. "Stories/s1/m1", matched under the root or its media/ folder), case-insensitive extension.
    func files(withStem stem: String) -> [String]
}

/// A media catalog over a fixed list of relative paths (tests, and callers that already listed a folder).
public struct ListedMediaCatalog: MediaCatalog {
    /// The files, relative to the dataset root with "/" separators.
    public let paths: [String]
    private let byStem: [String: [String]]

    public init(paths: [String]) {
        self.paths = paths
        var byStem: [String: [String]] = [:]
        for path in paths {
            // The path without its extension (after the last `.` of its last segment) and without
            // a leading `media/`. Found on the UTF-8 bytes (`/` and `.` are ASCII, so their
            // indices are the string's): a catalog of 50,000 photos is made per run.
            let utf8 = path.utf8
            var end = utf8.endIndex
            if let dot = utf8.lastIndex(of: UInt8(ascii: ".")) {
                let slash = utf8.lastIndex(of: UInt8(ascii: "/"))
                if slash.map({ dot > $0 }) ?? true { end = dot }
            }
            var start = utf8.startIndex
            if path.hasPrefix("media/") { start = utf8.index(start, offsetBy: 6) }
            let stem = start <= end ? String(path[start..<end]) : ""
            byStem[stem, default: []].append(path)
        }
        self.byStem = byStem
    }

    public func files(withStem stem: String) -> [String] { byStem[stem] ?? [] }
}
