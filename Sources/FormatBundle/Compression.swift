/// A compression filter around one file or a tar archive, chosen from the file name's ending or,
/// when the name says nothing, from the stream's first bytes.
public enum Compression: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case none, gzip, zstd, xz, bzip2

    public var description: String { rawValue }

    /// The file name ending (with its dot) that marks the compression: `.gz`, `.zst`, `.xz`, `.bz2`, or "".
    public var fileExtension: String {
        switch self {
        case .none: return ""
        case .gzip: return ".gz"
        case .zstd: return ".zst"
        case .xz: return ".xz"
        case .bzip2: return ".bz2"
        }
    }

    /// Splits a path into its compression and the path without the compression ending, so the
    /// inner format can be found from what is left: `notes.json.gz` is `(.gzip, "notes.json")`,
    /// `x.tgz` is `(.gzip, "x.tar")`, `x.tar.zst` is `(.zstd, "x.tar")`, `x.csv` is `(.none, "x.csv")`.
    /// Endings match case-insensitively. A format name with an ending (`--from json.gz`) splits the same way.
    public static func forPath(_ path: String) -> (compression: Compression, innerPath: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".tgz") { return (.gzip, String(path.dropLast(4)) + ".tar") }
        for compression in Compression.allCases where compression != .none && lower.hasSuffix(compression.fileExtension) {
            return (compression, String(path.dropLast(compression.fileExtension.count)))
        }
        return (.none, path)
    }

    /// The compression whose magic number starts `head` (RFC 1952 gzip `1F 8B`, zstd frame
    /// `28 B5 2F FD`, xz `FD 37 7A 58 5A 00`, bzip2 `BZh` and a block size digit), else `.none`.
    public static func forContent(_ head: some Collection<UInt8>) -> Compression {
        let bytes = Array(head.prefix(6))
        if bytes.starts(with: [0x1F, 0x8B]) { return .gzip }
        if bytes.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
        if bytes.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
        if bytes.count >= 4, bytes.starts(with: [0x42, 0x5A, 0x68]), (0x31...0x39).contains(bytes[3]) { return .bzip2 }
        return .none
    }
}
