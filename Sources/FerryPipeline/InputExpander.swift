import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Turns a pipeline's input patterns into input paths: globs expanded with `glob(3)`, folders into
/// the datasets they hold, every path relative to a base folder, sorted and without duplicates.
public enum InputExpander {
    /// File endings of data inputs found in folders.
    static let dataExtensions: Set<String> = ["json", "jsonl", "ndjson", "csv", "tsv", "xml", "tar", "tgz", "gz", "zst", "xz"]
    /// Names that make a folder a dataset of its own (a bundle folder or an app's Documents folder).
    static let bundleMarkers: Set<String> = ["manifest.json", "ProfileImages", "MemberImages", "Stories"]

    /// - Returns: absolute paths of the inputs, in byte order.
    /// - Throws: `FerryError(.unreadableInput)` for a pattern that matches nothing.
    public static func expand(_ patterns: [String], relativeTo base: String) throws -> [String] {
        var found: Set<String> = []
        for pattern in patterns {
            let absolute = pattern.hasPrefix("/") ? pattern : base + "/" + pattern
            let matches = globMatches(absolute)
            guard !matches.isEmpty else {
                throw FerryError(.unreadableInput, "the input pattern '\(pattern)' matches nothing", at: SourceLocation(file: pattern))
            }
            for match in matches { datasets(at: match, into: &found) }
        }
        return found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    private static func globMatches(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        let trimmed = pattern.count > 1 && pattern.hasSuffix("/") ? String(pattern.dropLast()) : pattern
        guard glob(trimmed, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { index in result.gl_pathv[index].map { String(cString: $0) } }
    }

    private static func datasets(at path: String, into found: inout Set<String>) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else {
            found.insert(path)
            return
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        if names.contains(where: bundleMarkers.contains) {
            found.insert(path)
            return
        }
        for name in names where !name.hasPrefix(".") {
            let child = path + "/" + name
            var childIsFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: child, isDirectory: &childIsFolder) else { continue }
            if childIsFolder.boolValue {
                datasets(at: child, into: &found)
            } else if dataExtensions.contains((name as NSString).pathExtension.lowercased()) {
                found.insert(child)
            }
        }
    }
}
