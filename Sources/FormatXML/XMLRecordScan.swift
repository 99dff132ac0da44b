/// A structural scan of UTF-8 XML that finds where elements and markup end without parsing them,
/// for cutting a document into batches of whole record elements (`XMLRecordReader.nextBatch`).
///
/// It pairs start and end tags and skips comments, CDATA sections, processing instructions and
/// quoted attribute values (a `>` inside quotes does not end a tag). It checks nothing else:
/// libxml2 parses every byte it passes over later, on a worker, and reports what is wrong there
/// exactly as the serial reader would. What the scan does not follow closely enough to cut
/// safely is `unsupported`, and the reader reads the rest of the document serially: `<!` other
/// than a comment or CDATA (a DOCTYPE or declaration in content), and start tags past
/// `XMLStartTagScan`'s limits (the serial reader reports those); a CR shows in `span` (libxml2
/// folds line ends, so line and column counts would need its rules).
enum XMLRecordScan {
    /// Lines and columns passed over, counted as libxml2 counts them.
    struct Advance: Equatable {
        /// LF bytes passed.
        var newlines = 0
        /// Columns since the last LF (or since the start, when there was none).
        var columns = 0
        /// True when a CR was passed.
        var hasCR = false
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

    /// The element whose `<` is at `start`; `unsupported` as well when it spans more than
    /// `limit` bytes.
    static func element(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> Element {
        var depth = 0
        var i = start
        let end = min(bytes.count, start &+ limit)
        let cut: Element = end < bytes.count ? .unsupported : .incomplete
        while true {
            switch token(in: bytes, at: i, end: end) {
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
                return cut
            case .unsupported:
                return .unsupported
            }
            // Text up to the next `<`.
            i = find(0x3C, in: bytes, from: i, to: end)
            if i == end { return cut }
        }
    }

    /// The index of the next `<` from `start` (before `end`); nil when there is none.
    static func nextLessThan(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int? {
        let i = find(0x3C, in: bytes, from: start, to: end)
        return i < end ? i : nil
    }

    /// The index of the first `target` byte in `bytes[start..<end]`, or `end`; eight bytes at a
    /// time.
    @inline(__always)
    static func find(_ target: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var i = start
        if let base = bytes.baseAddress {
            let pattern = UInt64(target) &* 0x0101_0101_0101_0101
            let raw = UnsafeRawPointer(base)
            while i &+ 8 <= end {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let zeros = zeroBytes(word ^ pattern)
                if zeros != 0 { return i &+ zeros.trailingZeroBitCount / 8 }
                i &+= 8
            }
        }
        while i < end, bytes[i] != target { i &+= 1 }
        return i
    }

    /// The high bit of each byte of `word` that is zero, and no other bit.
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080
        return ~(((word & ~high) &+ ~high) | word | ~high)
    }

    /// How far `bytes[range]` moves libxml2's line and column: lines at LF; columns in
    /// characters on the last line, except inside end tags, where libxml2 (2.9.14,
    /// `xmlParseEndTag2`) advances its column by bytes; the last line is read from its start as
    /// text (where an LF between records and fields stands).
    static func span(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Advance {
        var advance = Advance()
        var newlines = 0
        var returns: UInt64 = 0
        var k = range.lowerBound
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while k &+ 8 <= range.upperBound {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k, as: UInt64.self))
                newlines &+= zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A).nonzeroBitCount
                returns |= zeroBytes(word ^ 0x0D0D_0D0D_0D0D_0D0D)
                k &+= 8
            }
        }
        while k < range.upperBound {
            newlines &+= bytes[k] == 0x0A ? 1 : 0
            returns |= bytes[k] == 0x0D ? 1 : 0
            k &+= 1
        }
        advance.newlines = newlines
        advance.hasCR = returns != 0
        k = range.upperBound
        if newlines > 0 {
            while bytes[k - 1] != 0x0A { k -= 1 }
        } else {
            k = range.lowerBound
        }
        var columns = 0
        var inEndTag = false
        while k < range.upperBound {
            let byte = bytes[k]
            if inEndTag {
                columns += 1
                if byte == 0x3E { inEndTag = false }
            } else if byte == 0x3C, k + 1 < range.upperBound, bytes[k + 1] == 0x2F {
                inEndTag = true
                columns += 1
            } else if byte & 0xC0 != 0x80 {
                columns += 1
            }
            k += 1
        }
        advance.columns = columns
        return advance
    }

    /// The markup whose `<` is at `i`.
    static func token(in bytes: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> Token {
        guard i + 1 < end else { return .incomplete }
        switch bytes[i + 1] {
        case 0x2F:  // </
            let j = find(0x3E, in: bytes, from: i + 2, to: end)
            return j < end ? .endTag(end: j + 1) : .incomplete
        case 0x21:  // <!
            guard i + 4 <= end else { return .incomplete }
            if bytes[i + 2] == 0x2D && bytes[i + 3] == 0x2D {
                return closed(by: [0x2D, 0x2D, 0x3E], in: bytes, from: i, skipping: 4, end: end)
            }
            let cdata: [UInt8] = Array("<![CDATA[".utf8)
            guard i + cdata.count <= end else { return .incomplete }
            for k in 0..<cdata.count where bytes[i + k] != cdata[k] { return .unsupported }
            return closed(by: [0x5D, 0x5D, 0x3E], in: bytes, from: i, skipping: cdata.count, end: end)
        case 0x3F:  // <?
            return closed(by: [0x3F, 0x3E], in: bytes, from: i, skipping: 2, end: end)
        default:
            return startTag(in: bytes, at: i, end: end)
        }
    }

    /// A start tag: quoted values may hold `>`; `=` outside them counts an attribute.
    private static func startTag(in bytes: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> Token {
        let limit = min(end, i + XMLStartTagScan.maximumStartTagBytes)
        var attributes = 0
        var j = i + 1
        while j < limit {
            let byte = bytes[j]
            if byte == 0x3E { return .startTag(end: j + 1, empty: bytes[j - 1] == 0x2F) }
            if byte == 0x22 || byte == 0x27 {
                j += 1
                while j < limit, bytes[j] != byte { j &+= 1 }
            } else if byte == 0x3D {
                attributes += 1
                if attributes > XMLStartTagScan.maximumAttributes { return .unsupported }
            }
            j += 1
        }
        return limit < end ? .unsupported : .incomplete
    }

    /// Markup from `i` that ends with `terminator`, whose first `skipping` bytes are its opening.
    private static func closed(by terminator: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from i: Int,
                               skipping: Int, end: Int) -> Token {
        var j = i + skipping + terminator.count - 1
        let last = terminator.count - 1
        while j < end {
            if bytes[j] == terminator[last] {
                var matches = true
                for k in 0..<last where bytes[j - last + k] != terminator[k] { matches = false }
                if matches { return .other(end: j + 1) }
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
