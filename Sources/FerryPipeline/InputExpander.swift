import FerryCore
import FerryFormats
import FerrySchemas
import FormatBundle
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Turns a pipeline's input patterns into input paths: globs expanded with `glob(3)`, folders into
/// the datasets they hold, every path relative to a base folder, sorted and without duplicates.
public enum InputExpander {
    /// File endings of data inputs found in folders: the last part of each built-in format's
    /// endings (`gz` of `tar.gz`) and each compression's (`notes.json.zst`).
    static let dataExtensions: Set<String> = {
        let formats: [String] = FormatRegistry.builtIn.formats.flatMap(\.extensions).compactMap { $0.split(separator: ".").last.map(String.init) }
        let compressions: [String] = Compression.allCases.map { String($0.fileExtension.dropFirst()) }
        return Set(formats + compressions.filter { !$0.isEmpty })
    }()

    /// `dataExtensions` and the endings of the formats `registry` reads besides the built-in ones
    /// (an external adapter's `.toml`): a file a command could read, named as it is, is also a
    /// dataset when found in a folder.
    static func dataExtensions(of registry: FormatRegistry) -> Set<String> {
        let readable = registry.formats.filter { $0.reader != nil }.flatMap(\.extensions)
        return dataExtensions.union(readable.compactMap { $0.split(separator: ".").last.map { $0.lowercased() } })
    }
    /// Names that make a folder a dataset of its own (a bundle folder or an app's Documents folder).
    static let bundleMarkers: Set<String> = ["manifest.json", "data", "ProfileImages", "MemberImages", "Stories", "media"]
    /// Endings of the files of a folder of one dataset in a one-collection format.
    static let collectionFileExtensions: Set<String> = Set(FormatRegistry.builtIn.formats.filter(\.isSingleCollection).flatMap(\.extensions))

    /// - Parameters:
    ///   - ignoring: standardized paths of files that are no data (a pipeline's own file): they
    ///     neither make a folder a set of datasets nor are found in one.
    ///   - skipped: receives each file under a folder of datasets that is none (`notes.txt`: an
    ///     ending of no data format), as the folder matched and the file's path inside it.
    /// - Returns: absolute paths of the inputs, in byte order.
    /// - Throws: `FerryError(.unreadableInput)` for a pattern that matches nothing.
    public static func expand(
        _ patterns: [String], relativeTo base: String, ignoring: Set<String> = [], registry: FormatRegistry = .builtIn,
        skipped: ((_ folder: String, _ file: String) -> Void)? = nil
    ) throws -> [String] {
        var found: Set<String> = []
        for pattern in patterns {
            let absolute = pattern.hasPrefix("/") ? pattern : base + "/" + pattern
            let matches = globMatches(absolute)
            guard !matches.isEmpty else {
                throw FerryError(.unreadableInput, "the input pattern '\(pattern)' matches nothing", at: SourceLocation(file: pattern))
            }
            // `./` matches `BASE/.`: named without the `.`, the folder's `{name}` is its own.
            for match in matches {
                let path = match.hasSuffix("/.") ? String(match.dropLast(2)) : match
                var passed: [String] = []
                datasets(at: path, into: &found, skipped: &passed, ignoring: ignoring, registry: registry)
                for file in passed.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
                    skipped?(path, String(file.dropFirst(path.count + 1)))
                }
            }
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

    /// True when the folder at `path` is one dataset, decided by what it holds: a bundle folder
    /// (`manifest.json`, `data/`), an app Documents folder, or a folder whose data files are all
    /// CSV (or TSV) files named after collections of one domain (`wineNotes.csv`, `tags.csv`).
    /// Any other folder is a set of datasets, one per data file under it.
    /// `ignoring`: standardized paths of files left out of the decision (`expand`); `registry`:
    /// the formats whose files are data (an adapter's too).
    public static func isOneDataset(_ path: String, ignoring: Set<String> = [], registry: FormatRegistry = .builtIn) -> Bool {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { name in
            !name.hasPrefix(".") && (ignoring.isEmpty || !ignoring.contains(standardized(path + "/" + name)))
        }
        if names.contains(where: bundleMarkers.contains) { return true }
        var stems: Set<String> = []
        let dataExtensions = dataExtensions(of: registry)
        for name in names {
            let ext = (name as NSString).pathExtension.lowercased()
            guard dataExtensions.contains(ext) else { continue }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            guard collectionFileExtensions.contains(ext) else { return false }
            stems.insert(String(name.prefix { $0 != "." }))
        }
        guard !stems.isEmpty else { return false }
        return Domain.allCases.contains { domain in
            let collections = Set([1, 2].compactMap { DatasetSchema.schema(for: domain, version: $0) }.flatMap(\.collectionNames))
            return stems.isSubset(of: collections)
        }
    }

    /// Adds the datasets at `path`: the file itself, a folder of one dataset, or the data files
    /// under a folder of several, recursively; adds to `skipped` every file under a folder of
    /// several that is no dataset: not hidden, not in `ignoring`, of an ending that is no data input.
    static func datasets(at path: String, into found: inout Set<String>, skipped: inout [String], ignoring: Set<String> = [],
                         registry: FormatRegistry = .builtIn) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else {
            found.insert(path)
            return
        }
        if isOneDataset(path, ignoring: ignoring, registry: registry) {
            found.insert(path)
            return
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let dataExtensions = dataExtensions(of: registry)
        for name in names where !name.hasPrefix(".") {
            let child = path + "/" + name
            var childIsFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: child, isDirectory: &childIsFolder) else { continue }
            if childIsFolder.boolValue {
                datasets(at: child, into: &found, skipped: &skipped, ignoring: ignoring, registry: registry)
            } else if ignoring.isEmpty || !ignoring.contains(standardized(child)) {
                if dataExtensions.contains((name as NSString).pathExtension.lowercased()) {
                    found.insert(child)
                } else {
                    skipped.append(child)
                }
            }
        }
    }

    /// `path` absolute (from the working folder), without `.`, `..` or a final `/`, to compare.
    public static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
