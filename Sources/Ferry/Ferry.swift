// The one import for Swift programs: `import Ferry` brings the whole public surface of the
// smaller libraries, which stay available as products of their own for those who want less.
@_exported import FerryCore
@_exported import FerryFilter
@_exported import FerryFormats
@_exported import FerryPipeline
@_exported import FerrySchemas

/// Ferry as a library: its version and the formats it knows.
///
/// The common cases are one line each (Docs/library.md):
///
/// ```swift
/// let notes = try Dataset.read(URL(fileURLWithPath: "notes-v1.json"), as: NotesSchemaV1.self)
/// let favourites = try notes.migrated(to: NotesSchemaV2.self).filter(#Predicate<any Notable> { $0.isFavorite })
/// try favourites.write(to: URL(fileURLWithPath: "favourites.csv"))
/// ```
public enum Ferry {
    /// Ferry's version (semantic versioning), the one `ferry --version` prints and bundle
    /// manifests name (`FerryVersion.current`).
    public static let version = FerryVersion.current

    /// The built-in formats (`json`, `jsonl`, `csv`, `xml`, `tar` and its compressed forms). Add a
    /// `FormatDescriptor` to a copy and pass it to `Dataset.read` / `write` for an in-process
    /// format of your own.
    public static var formats: FormatRegistry { FormatRegistry.builtIn }
}
