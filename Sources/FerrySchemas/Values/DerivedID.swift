import CLibCrypto
import Foundation

/// The ids Ferry derives for V1 notes that have none (SCHEMAS.md "Derived ids"): a UUID version 5
/// (RFC 9562 section 5.5), SHA-1 over the URL namespace `6ba7b811-9dad-11d1-80b4-00c04fd430c8` and
/// the name `ferry:<collection>/<0-based index>/<canonical createdAt>/<title in NFC>`, lower-case.
public enum DerivedID {
    /// The RFC 9562 URL namespace (`6ba7b811-9dad-11d1-80b4-00c04fd430c8`).
    public static let urlNamespace: [UInt8] = [
        0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
    ]

    /// The derived id of a note: `collection` is the V1 collection (`wineNotes`), `index` the
    /// record's 0-based index in it, `createdAt` its instant (written in canonical form), `title`
    /// its title (NFC-normalized here).
    public static func forNote(collection: String, index: Int, createdAt: Instant, title: String) -> String {
        let name = "ferry:\(collection)/\(index)/\(createdAt.truncatedToMilliseconds().instant)/"
            + title.precomposedStringWithCanonicalMapping
        return uuidV5(namespace: urlNamespace, name: name)
    }

    /// A lower-case UUID version 5 string of `name` (UTF-8) in `namespace` (16 bytes).
    public static func uuidV5(namespace: [UInt8], name: String) -> String {
        var input = namespace
        input.append(contentsOf: name.utf8)
        var digest = sha1(input)
        digest[6] = (digest[6] & 0x0f) | 0x50  // version 5
        digest[8] = (digest[8] & 0x3f) | 0x80  // variant 10
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for i in 0..<16 {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(hex[Int(digest[i] >> 4)])
            out.append(hex[Int(digest[i] & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// SHA-1 through OpenSSL's EVP interface (20 bytes).
    static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha1(), nil)
            }
        }
        // EVP_Digest fails only when libcrypto cannot allocate; the zero digest is then still a
        // well-formed (if useless) UUID rather than a trap.
        return Array(digest.prefix(ok == 1 ? Int(length) : 20))
    }
}
