import Foundation

/// Byte-level string comparisons for evaluation: equality, order, prefix, suffix, substring and
/// `LIKE` globs over UTF-8, with an optional ASCII lower-casing of the record's side.
///
/// The literal side arrives already folded (`[c]`, `[d]`: `String.folding(options:locale:)`, done
/// once at compile time). The record's side is folded per value: an ASCII value folds to its ASCII
/// lower-case form, which is done on the fly with no allocation; other values go through Foundation.
/// Without modifiers strings compare by UTF-8 bytes (Unicode scalar order, no normalization, like
/// NSString's literal comparison).
enum TextMatcher {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    @inline(__always) static func lower(_ b: UInt8, _ on: Bool) -> UInt8 {
        on && b &- 0x41 < 26 ? b | 0x20 : b
    }

    /// Calls `body` with the UTF-8 of `text` folded as `options` ask, and whether the bytes still
    /// need ASCII lower-casing.
    static func withFolded<R>(
        _ text: String, _ options: FilterComparison.Options, _ body: (Bytes, Bool) -> R
    ) -> R {
        var text = text
        if options.isEmpty { return text.withUTF8 { body($0, false) } }
        let isASCII = text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } }
        if isASCII { return text.withUTF8 { body($0, options.contains(.caseInsensitive)) } }
        var folded = fold(text, options)
        return folded.withUTF8 { body($0, false) }
    }

    /// Foundation's folding for the options (`[c]` case, `[d]` diacritics).
    static func fold(_ text: String, _ options: FilterComparison.Options) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? text : text.folding(options: folding, locale: nil)
    }

    static func equal(_ a: Bytes, _ b: Bytes, lower on: Bool) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where lower(a[i], on) != b[i] { return false }
        return true
    }

    /// -1, 0 or 1 in byte order.
    static func compare(_ a: Bytes, _ b: Bytes, lower on: Bool) -> Int {
        let n = min(a.count, b.count)
        for i in 0..<n {
            let x = lower(a[i], on)
            if x != b[i] { return x < b[i] ? -1 : 1 }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    static func hasPrefix(_ a: Bytes, _ b: Bytes, lower on: Bool) -> Bool {
        guard a.count >= b.count else { return false }
        for i in 0..<b.count where lower(a[i], on) != b[i] { return false }
        return true
    }

    static func hasSuffix(_ a: Bytes, _ b: Bytes, lower on: Bool) -> Bool {
        guard a.count >= b.count else { return false }
        let offset = a.count - b.count
        for i in 0..<b.count where lower(a[offset + i], on) != b[i] { return false }
        return true
    }

    static func contains(_ a: Bytes, _ b: Bytes, lower on: Bool) -> Bool {
        guard b.count > 0 else { return true }
        guard a.count >= b.count else { return false }
        let first = b[0]
        var i = 0
        while i <= a.count - b.count {
            if lower(a[i], on) == first {
                var j = 1
                while j < b.count, lower(a[i + j], on) == b[j] { j += 1 }
                if j == b.count { return true }
            }
            i += 1
        }
        return false
    }

    /// The length of the UTF-8 sequence starting with `lead` (1 for continuation bytes, so a
    /// malformed sequence still advances).
    @inline(__always) private static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    /// `LIKE`: `pattern` matches the whole of `a`; `*` matches any run (also empty), `?` one
    /// Unicode scalar, `\*` `\?` `\\` the character itself. Iterative with one backtrack point, so
    /// linear-ish and never recursive.
    static func like(_ a: Bytes, _ pattern: Bytes, lower on: Bool) -> Bool {
        var v = 0
        var p = 0
        var starP = -1
        var starV = 0
        let backslash = UInt8(ascii: "\\")
        while v < a.count {
            if p < pattern.count {
                let c = pattern[p]
                if c == UInt8(ascii: "*") {
                    starP = p
                    starV = v
                    p += 1
                    continue
                }
                if c == UInt8(ascii: "?") {
                    v += scalarLength(a[v])
                    p += 1
                    continue
                }
                let escaped = c == backslash && p + 1 < pattern.count
                let literal = escaped ? pattern[p + 1] : c
                if lower(a[v], on) == literal {
                    v += 1
                    p += escaped ? 2 : 1
                    continue
                }
            }
            guard starP >= 0 else { return false }
            starV += scalarLength(a[starV])
            v = starV
            p = starP + 1
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count && v <= a.count
    }
}
