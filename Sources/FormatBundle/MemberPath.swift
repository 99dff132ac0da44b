import Foundation

/// The rules for member paths inside a bundle (SCHEMAS.md "Formats: Bundle": member paths are
/// NFC-normalized UTF-8; `..`, absolute paths and links that leave the bundle are refused).
public enum MemberPath {
    /// The longest member path accepted, in UTF-8 bytes (Linux `PATH_MAX`); longer is `too-large`.
    public static let maximumLength = 4096

    /// What `check` decided about a path.
    public enum Verdict: Sendable, Hashable {
        /// A safe path, NFC-normalized, with `.` and empty segments and a trailing `/` removed.
        case safe(String)
        /// The bundle's root itself (`./`, `.`): nothing to read.
        case root
        /// A path that must not be read, with the reason for the message.
        case unsafe(String)
        /// A path longer than `maximumLength` bytes.
        case tooLong(Int)
    }

    /// Checks and normalizes a member path: refuses absolute paths (`/x`, `\x`, `C:x`) and any `..`
    /// segment, whether segments are separated by `/` or `\` (the Windows zip-slip form).
    public static func check(_ path: String) -> Verdict {
        let length = path.utf8.count
        if length > maximumLength { return .tooLong(length) }
        if path.isEmpty { return .unsafe("the member has an empty path") }
        if isPlain(path) { return .safe(path) }
        return checkEveryRule(path)
    }

    /// `check` for a path that is not plain (`isPlain`): every rule, in order.
    static func checkEveryRule(_ path: String) -> Verdict {
        let length = path.utf8.count
        if length > maximumLength { return .tooLong(length) }
        if path.isEmpty { return .unsafe("the member has an empty path") }
        let bytes = Array(path.utf8)
        if bytes.contains(0) { return .unsafe("the path holds a NUL byte") }
        if bytes[0] == UInt8(ascii: "/") || bytes[0] == UInt8(ascii: "\\") {
            return .unsafe("the path is absolute")
        }
        if bytes.count >= 2, bytes[1] == UInt8(ascii: ":"), isASCIILetter(bytes[0]) {
            return .unsafe("the path starts with a drive letter")
        }
        for segment in path.split(whereSeparator: { $0 == "/" || $0 == "\\" }) where segment == ".." {
            return .unsafe("the path has a '..' segment")
        }
        let kept = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if kept.isEmpty { return .root }
        return .safe(nfc(kept.joined(separator: "/")))
    }

    /// True for the usual path (`media/Stories/s1/p.jpg`), which `check` keeps as it is: ASCII
    /// without NUL or `\`, not absolute, no `:` second (a drive letter), and no empty, `.` or `..`
    /// segment (so no trailing `/`). One pass over the bytes, where `check` splits the path into
    /// characters twice (a bundle of 50,000 photos checks 50,000 paths).
    static func isPlain(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            guard let first = bytes.first, first != UInt8(ascii: "/"), bytes.count < 2 || bytes[1] != UInt8(ascii: ":") else {
                return false
            }
            var segmentStart = 0
            var dots = 0  // the segment's bytes while all are `.`
            for index in 0...bytes.count {
                let byte = index < bytes.count ? bytes[index] : UInt8(ascii: "/")
                if byte == UInt8(ascii: "/") {
                    let length = index - segmentStart
                    if length == 0 || dots == length { return false }
                    segmentStart = index + 1
                    dots = 0
                    continue
                }
                if byte == 0 || byte >= 0x80 || byte == UInt8(ascii: "\\") { return false }
                if byte == UInt8(ascii: ".") { dots += 1 } else { dots = -bytes.count }
            }
            return true
        }
    }

    /// True when a link at `linkPath` (a safe, normalized path) pointing at `target` stays inside
    /// the bundle. Symbolic link targets resolve from the link's folder, hard link targets from the
    /// bundle's root (tar semantics); an absolute or empty target leaves.
    public static func linkStaysInside(linkPath: String, target: String, isHardLink: Bool) -> Bool {
        guard let first = target.utf8.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "\\") else {
            return false
        }
        var stack: [Substring] = isHardLink ? [] : Array(linkPath.split(separator: "/").dropLast())
        for segment in target.split(whereSeparator: { $0 == "/" || $0 == "\\" }) {
            if segment == "." { continue }
            if segment == ".." {
                if stack.isEmpty { return false }
                stack.removeLast()
            } else {
                stack.append(segment)
            }
        }
        return true
    }

    /// The NFC (Unicode canonical composition) form of `text`.
    public static func nfc(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        return text.precomposedStringWithCanonicalMapping
    }

    /// True when `path` sorts before `other` in byte order of their UTF-8 (the bundle's member order).
    public static func precedes(_ path: String, _ other: String) -> Bool {
        // `memcmp` over the bytes where they lie (a bundle's members are sorted with this: the
        // generic comparison of two UTF-8 views was most of sorting 50,000 paths).
        var path = path
        var other = other
        return path.withUTF8 { a in
            other.withUTF8 { b in
                let common = min(a.count, b.count)
                if common > 0, let pa = a.baseAddress, let pb = b.baseAddress {
                    let order = memcmp(pa, pb, common)
                    if order != 0 { return order < 0 }
                }
                return a.count < b.count
            }
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
