/// How media files extracted from records are named (SCHEMAS.md "Formats: Bundle": notes
/// `media/notes/<collection>/<id>.<ext>`, the extension from the bytes' signature, the id
/// percent-encoded where it holds `/` or other unsafe characters).
public enum MediaNaming {
    /// The file extension for image bytes from their signature: `jpg` (FF D8 FF), `png`
    /// (89 50 4E 47 0D 0A 1A 0A), `gif` (`GIF87a` / `GIF89a`), `heic` (an ISO BMFF `ftyp` box with a
    /// HEIF brand: heic, heix, hevc, hevx, heim, heis, mif1, msf1), else `bin`.
    public static func fileExtension(for bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return "gif" }
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains(brand) { return "heic" }
        }
        return "bin"
    }

    /// `id` made safe as one path segment: every byte outside RFC 3986's unreserved set
    /// (`A-Z a-z 0-9 - . _ ~`) becomes `%XX` (upper-case hex of its UTF-8 bytes); an id of `.` or
    /// `..` has its dots encoded too, so it can never name a folder.
    public static func percentEncoded(_ id: String) -> String {
        if id == "." || id == ".." { return String(repeating: "%2E", count: id.count) }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
