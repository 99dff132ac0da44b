/// A regular file found in a bundle: its NFC-normalized path relative to the bundle root, its size
/// in bytes and its SHA-256 as 64 lowercase hex digits, computed while its bytes passed.
public struct BundleMember: Sendable, Hashable {
    public var path: String
    public var size: Int64
    public var sha256: String

    public init(path: String, size: Int64, sha256: String) {
        self.path = path
        self.size = size
        self.sha256 = sha256
    }
}
