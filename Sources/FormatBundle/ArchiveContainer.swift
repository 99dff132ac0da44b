/// The archive format a bundle is packed in: tar (with any compression around it) or zip.
public enum ArchiveContainer: String, Sendable, Hashable, CustomStringConvertible {
    case tar, zip

    public var description: String { rawValue }

    /// The zip signatures a zip file starts with (APPNOTE.TXT 4.3.7 and 4.3.16): a local file
    /// header `PK\x03\x04`, or for an archive without members the end of central directory
    /// `PK\x05\x06`.
    static let zipSignatures: [[UInt8]] = [[0x50, 0x4B, 0x03, 0x04], [0x50, 0x4B, 0x05, 0x06]]

    /// The container whose signature starts `head`: `.zip` for a zip signature, else nil (a tar
    /// is told by `ustar` at offset 257, or by libarchive itself once a compression is peeled).
    public static func forContent(_ head: some Collection<UInt8>) -> ArchiveContainer? {
        let bytes = Array(head.prefix(4))
        return zipSignatures.contains(bytes) ? .zip : nil
    }

    /// `.zip` for a path ending in `.zip` (any case), else `.tar`.
    public static func forPath(_ path: String) -> ArchiveContainer {
        path.lowercased().hasSuffix(".zip") ? .zip : .tar
    }
}
