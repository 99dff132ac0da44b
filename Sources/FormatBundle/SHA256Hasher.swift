import CLibCrypto
import FerryCore

/// A streaming SHA-256 (FIPS 180-4) over OpenSSL's EVP interface: feed bytes with `update`, then
/// `finalize()` once for the lowercase hexadecimal digest, as bundle manifests list it
/// (SCHEMAS.md "Formats: Bundle", BagIt-style fixity).
public final class SHA256Hasher {
    private let context: OpaquePointer?
    private var finished = false

    /// Starts a new digest.
    public init() {
        context = EVP_MD_CTX_new()
        if let context { EVP_DigestInit_ex(context, EVP_sha256(), nil) }
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes to the digest. Calls after `finalize()` are ignored.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard !finished, let context, let base = bytes.baseAddress, bytes.count > 0 else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// Adds an array of bytes.
    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Ends the digest and returns it as 64 lowercase hexadecimal digits.
    /// - Throws: `FerryError(.internalError)` when OpenSSL could not compute it (no context).
    public func finalize() throws -> String {
        guard let context, !finished else {
            throw FerryError(.internalError, "SHA-256 digest unavailable (OpenSSL context missing or already finalised)")
        }
        finished = true
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else {
            throw FerryError(.internalError, "OpenSSL failed to finalise a SHA-256 digest")
        }
        return Self.hex(digest)
    }

    /// The SHA-256 of `bytes` as lowercase hexadecimal.
    public static func hex(of bytes: [UInt8]) throws -> String {
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        return try hasher.finalize()
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
