/// A compression filter around one file or a tar archive, chosen from the file name's ending.
public enum Compression: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case none, gzip, zstd, xz

    public var description: String { rawValue }

    /// The file name ending (with its dot) that marks the compression: `.gz`, `.zst`, `.xz`, or "".
    public var fileExtension: String {
        switch self {
        case .none: return ""
        case .gzip: return ".gz"
        case .zstd: return ".zst"
        case .xz: return ".xz"
        }
    }

    /// Splits a path into its compression and the path without the compression ending, so the
    /// inner format can be found from what is left: `notes.json.gz` is `(.gzip, "notes.json")`,
    /// `x.tgz` is `(.gzip, "x.tar")`, `x.tar.zst` is `(.zstd, "x.tar")`, `x.csv` is `(.none, "x.csv")`.
    /// Endings match case-insensitively.
    public static func forPath(_ path: String) -> (compression: Compression, innerPath: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".tgz") { return (.gzip, String(path.dropLast(4)) + ".tar") }
        for compression in [Compression.gzip, .zstd, .xz] where lower.hasSuffix(compression.fileExtension) {
            return (compression, String(path.dropLast(compression.fileExtension.count)))
        }
        return (.none, path)
    }
}
