/// Bytes in standard base64 with padding (RFC 4648 section 4; SCHEMAS.md "Data"), kept as the
/// validated text so a round trip copies it unchanged.
public struct Base64Data: Sendable, Hashable {
    /// The base64 text.
    public let base64: String

    /// Validates standard base64 with padding; nil for other text (URL-safe alphabet, missing
    /// padding, whitespace).
    public init?(base64: String) {
        guard Base64Data.isValid(base64) else { return nil }
        self.base64 = base64
    }

    /// Encodes bytes.
    public init(bytes: [UInt8]) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i])
            let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let n = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(i + 1 < bytes.count ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[Int(n & 63)] : UInt8(ascii: "="))
            i += 3
        }
        base64 = String(decoding: out, as: UTF8.self)
    }

    /// The decoded bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in base64.utf8 {
            guard let v = Base64Data.sextet(byte) else { continue }
            buffer = buffer << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return out
    }

    static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }

    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count % 4 == 0 else { return false }
        var padding = 0
        for (i, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "=") {
                guard i >= bytes.count - 2 else { return false }
                padding += 1
            } else {
                guard padding == 0, sextet(byte) != nil else { return false }
            }
        }
        return true
    }
}
