import CLibCrypto
import FerryCore

/// A streaming SHA-256 (FIPS 180-4) over OpenSSL's EVP interface: feed bytes with `update`, then
/// `finalize()` once for the lowercase hexadecimal digest, as bundle manifests list it
/// (SCHEMAS.md "Formats: Bundle", BagIt-style fixity). `init(algorithm:)` gives SHA-512, SHA-1 or
/// MD5 the same way, for BagIt manifests that list them.
public final class SHA256Hasher {
    private let context: OpaquePointer?
    private var finished = false
    private let length: Int

    /// Starts a new SHA-256 digest.
    public convenience init() { self.init(algorithm: .sha256) }

    /// Starts a new digest of `algorithm`.
    init(algorithm: BagIt.Algorithm) {
        context = EVP_MD_CTX_new()
        length = algorithm.hexLength / 2
        let digest = switch algorithm {
        case .sha256: EVP_sha256()
        case .sha512: EVP_sha512()
        case .sha1: EVP_sha1()
        case .md5: EVP_md5()
        }
        if let context { EVP_DigestInit_ex(context, digest, nil) }
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

    /// Ends the digest and returns it as lowercase hexadecimal digits (64 for SHA-256).
    /// - Throws: `FerryError(.internalError)` when OpenSSL could not compute it (no context).
    public func finalize() throws -> String {
        guard let context, !finished else {
            throw FerryError(.internalError, "SHA-256 digest unavailable (OpenSSL context missing or already finalised)")
        }
        finished = true
        var digest = [UInt8](repeating: 0, count: self.length)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, Int(length) == self.length else {
            throw FerryError(.internalError, "OpenSSL failed to finalise a digest")
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
