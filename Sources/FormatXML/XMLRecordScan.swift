#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A structural scan of UTF-8 XML that finds where elements and markup end without parsing them,
/// for cutting a document into batches of whole record elements (`XMLRecordReader.nextBatch`).
///
/// It pairs start and end tags and skips comments, CDATA sections, processing instructions and
/// quoted attribute values (a `>` inside quotes does not end a tag). It checks nothing else:
/// libxml2 parses every byte it passes over later, on a worker, and reports what is wrong there
/// exactly as the serial reader would. What the scan does not follow closely enough to cut
/// safely is `unsupported`, and the reader reads the rest of the document serially: a CR (libxml2
/// folds line ends, so line and column counts would need its rules), `<!` other than a comment or
/// CDATA (a DOCTYPE or declaration in content), a `<` inside an attribute value, and start tags
/// past `XMLStartTagScan`'s limits (the serial reader reports those).
///
/// Positions: lines count LF; columns count characters, except inside end tags, where libxml2
/// (2.9.14, `xmlParseEndTag2`) advances its column by bytes; the scan does as libxml2 does, so that
/// the position it computes after an element is the one libxml2 reaches.
enum XMLRecordScan {
    /// Lines and columns passed over, counted as libxml2 counts them.
    struct Advance {
        /// LF bytes passed.
        var newlines = 0
        /// Columns since the last LF (or since the start, when there was none).
        var columns = 0
    }

    /// What one piece of markup at a `<` is.
    enum Token: Equatable {
        /// A start tag ending at `end` (one past its `>`); `empty` for `<x/>`.
        case startTag(end: Int, empty: Bool)
        case endTag(end: Int)
        /// A comment, CDATA section or processing instruction ending at `end`.
        case other(end: Int)
        /// The bytes end before the token does.
        case incomplete
        case unsupported
    }

    /// What a whole element is.
    enum Element: Equatable {
        /// The element ends at `end` (one past the `>` of its end tag, or of `<x/>`).
        case complete(end: Int)
        case incomplete
        case unsupported
    }

    /// The element whose `<` is at `start`, with what it advances the position by added to
    /// `advance`; `unsupported` as well when it spans more than `limit` bytes.
    static func element(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int,
                        advance: inout Advance) -> Element {
        var depth = 0
        var i = start
        let end = min(bytes.count, start &+ limit)
        while true {
            switch token(in: bytes, at: i, end: end, advance: &advance) {
            case .startTag(let next, let empty):
                i = next
                if !empty { depth += 1 } else if depth == 0 { return .complete(end: i) }
            case .endTag(let next):
                i = next
                depth -= 1
                if depth == 0 { return .complete(end: i) }
            case .other(let next):
                i = next
            case .incomplete:
                return end < bytes.count ? .unsupported : .incomplete
            case .unsupported:
                return .unsupported
            }
            // Text up to the next `<`.
            guard let next = text(in: bytes, from: i, end: end, advance: &advance) else {
                return end < bytes.count ? .unsupported : .incomplete
            }
            guard next >= 0 else { return .unsupported }
            i = next
        }
    }

    /// The index of the next `<` from `start` (before `end`), moving `advance` over the text;
    /// nil when there is none, -1 at a CR.
    static func text(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int, advance: inout Advance) -> Int? {
        guard start < end, let base = bytes.baseAddress else { return nil }
        let found = memchr(base + start, 0x3C, end - start)
        let stop = found.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) - base } ?? end
        if memchr(base + start, 0x0D, stop - start) != nil { return -1 }
        move(&advance, over: base + start, count: stop - start)
        return found == nil ? nil : stop
    }

    /// Moves `advance` over `count` bytes at `p` in which columns are characters.
    @inline(__always)
    static func move(_ advance: inout Advance, over p: UnsafePointer<UInt8>, count: Int) {
        var newlines = 0
        for k in 0..<count { newlines &+= p[k] == 0x0A ? 1 : 0 }
        var from = 0
        if newlines > 0 {
            advance.newlines += newlines
            advance.columns = 0
            from = count
            while p[from - 1] != 0x0A { from -= 1 }
        }
        var columns = 0
        for k in from..<count { columns &+= p[k] & 0xC0 != 0x80 ? 1 : 0 }
        advance.columns += columns
    }

    /// The markup whose `<` is at `i`, moving `advance` over it.
    static func token(in bytes: UnsafeBufferPointer<UInt8>, at i: Int, end: Int, advance: inout Advance) -> Token {
        guard i + 1 < end else { return .incomplete }
        switch bytes[i + 1] {
        case 0x2F:  // </
            // libxml2 counts an end tag's columns in bytes.
            guard let base = bytes.baseAddress, let found = memchr(base + i, 0x3E, end - i) else { return .incomplete }
            let j = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            if memchr(base + i, 0x0A, j - i) != nil || memchr(base + i, 0x0D, j - i) != nil { return .unsupported }
            advance.columns += j + 1 - i
            return .endTag(end: j + 1)
        case 0x21:  // <!
            guard i + 4 <= end else { return .incomplete }
            if bytes[i + 2] == 0x2D && bytes[i + 3] == 0x2D {
                return closed(by: [0x2D, 0x2D, 0x3E], in: bytes, from: i, skipping: 4, end: end, advance: &advance)
            }
            let cdata: [UInt8] = Array("<![CDATA[".utf8)
            guard i + cdata.count <= end else { return .incomplete }
            for k in 0..<cdata.count where bytes[i + k] != cdata[k] { return .unsupported }
            return closed(by: [0x5D, 0x5D, 0x3E], in: bytes, from: i, skipping: cdata.count, end: end, advance: &advance)
        case 0x3F:  // <?
            return closed(by: [0x3F, 0x3E], in: bytes, from: i, skipping: 2, end: end, advance: &advance)
        default:
            return startTag(in: bytes, at: i, end: end, advance: &advance)
        }
    }

    /// A start tag: quoted values may hold `>`; `=` outside them counts an attribute.
    private static func startTag(in bytes: UnsafeBufferPointer<UInt8>, at i: Int, end: Int, advance: inout Advance) -> Token {
        let limit = min(end, i + XMLStartTagScan.maximumStartTagBytes)
        // Most tags have no quoted value (no `>` to skip) and no CR: their `>` is the first.
        if let base = bytes.baseAddress, let found = memchr(base + i, 0x3E, limit - i) {
            let gt = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            let count = gt + 1 - i
            if memchr(base + i, 0x22, count) == nil, memchr(base + i, 0x27, count) == nil,
               memchr(base + i, 0x0D, count) == nil, memchr(base + i + 1, 0x3C, count - 1) == nil {
                move(&advance, over: base + i, count: count)
                return .startTag(end: gt + 1, empty: bytes[gt - 1] == 0x2F)
            }
        }
        var quote: UInt8 = 0
        var attributes = 0
        var j = i + 1
        var local = advance
        local.columns += 1
        while j < limit {
            let byte = bytes[j]
            if byte == 0x0A {
                local.newlines += 1
                local.columns = 0
            } else if byte == 0x0D {
                return .unsupported
            } else if byte & 0xC0 != 0x80 {
                local.columns += 1
            }
            if quote != 0 {
                if byte == quote { quote = 0 } else if byte == 0x3C { return .unsupported }
            } else {
                switch byte {
                case 0x22, 0x27: quote = byte
                case 0x3D:
                    attributes += 1
                    if attributes > XMLStartTagScan.maximumAttributes { return .unsupported }
                case 0x3C: return .unsupported
                case 0x3E:
                    advance = local
                    return .startTag(end: j + 1, empty: bytes[j - 1] == 0x2F)
                default: break
                }
            }
            j += 1
        }
        return limit < end ? .unsupported : .incomplete
    }

    /// Markup from `i` that ends with `terminator`, whose first `skipping` bytes are its opening.
    private static func closed(by terminator: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from i: Int,
                               skipping: Int, end: Int, advance: inout Advance) -> Token {
        var local = advance
        local.columns += skipping
        var j = i + skipping
        let last = terminator.count - 1
        while j < end {
            let byte = bytes[j]
            if byte == 0x0A {
                local.newlines += 1
                local.columns = 0
            } else if byte == 0x0D {
                return .unsupported
            } else if byte & 0xC0 != 0x80 {
                local.columns += 1
            }
            if byte == terminator[last], j - i >= skipping + last {
                var matches = true
                for k in 0..<last where bytes[j - last + k] != terminator[k] { matches = false }
                if matches {
                    advance = local
                    return .other(end: j + 1)
                }
            }
            j += 1
        }
        return .incomplete
    }

    /// True when the byte after the `<` at `i` starts an element name (not `/`, `!` or `?`).
    static func startsElement(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i + 1 < bytes.count, bytes[i] == 0x3C else { return false }
        let next = bytes[i + 1]
        return next != 0x2F && next != 0x21 && next != 0x3F && next != 0x20 && next != 0x0A && next != 0x09
    }
}
