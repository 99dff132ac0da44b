/// The media files that stand beside a dataset (a bundle's `media/`, or the app's Documents
/// folder layout), as the pet-story migration looks them up (SCHEMAS.md "Domain pet-story").
public protocol MediaCatalog: Sendable {
    /// Relative paths (with "/" separators, relative to the dataset root, e.g. "media/Stories/s1/m1.JPG")
    /// of the files whose path without extension equals `stem` (e.g. "Stories/s1/m1", matched under the root or its media/ folder), case-insensitive extension.
    func files(withStem stem: String) -> [String]
    /// True when any story media file was exported (`Stories/...`, under the root or `media/`).
    /// A bundle made from a lone JSON export holds none: its media were never exported.
    var holdsStoryMedia: Bool { get }
}

extension MediaCatalog {
    public var holdsStoryMedia: Bool { true }
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
            var stem = path
            if let slash = path.lastIndex(of: "/"), let dot = path.lastIndex(of: "."), dot > slash {
                stem = String(path[..<dot])
            } else if !path.contains("/"), let dot = path.lastIndex(of: ".") {
                stem = String(path[..<dot])
            }
            if stem.hasPrefix("media/") { stem.removeFirst(6) }
            byStem[stem, default: []].append(path)
        }
        self.byStem = byStem
    }

    public func files(withStem stem: String) -> [String] { byStem[stem] ?? [] }

    public var holdsStoryMedia: Bool { paths.contains { $0.hasPrefix("Stories/") || $0.hasPrefix("media/Stories/") } }
}
