import FerryCore

/// A cheap pre-scan of the bytes `XMLSafeParser` feeds to libxml2 that refuses a start tag with
/// too many attributes or too many bytes before libxml2 parses it (Docs/limits.md).
///
/// Why: libxml2 checks each attribute of a start tag against every earlier one, so a tag of
/// 700 000 attributes costs minutes; and a start tag is held whole in memory. libxml2's push parser
/// does not parse a start tag before its `>` has arrived, so a tag refused here while its bytes
/// still stream in never reaches the quadratic check.
///
/// The scan follows just enough of XML to know whether a byte is inside a start tag: comments,
/// CDATA sections, processing instructions, end tags, the DOCTYPE with its internal subset and the
/// quoted strings in tags and declarations. Its state survives chunk boundaries, so a tag may be
/// cut anywhere. An attribute is counted at each `=` outside a quoted value, the one place `=`
/// stands in a well-formed start tag. It reads code units of the width the document's first bytes
/// (or `--encoding`) announce (UTF-8 and 8-bit encodings, UTF-16 and UCS-4 of either byte order);
/// an EBCDIC document is not scanned.
struct XMLStartTagScan {
    /// The most attributes one element may have (default 10 000).
    static let maximumAttributes = 10_000
    /// The most bytes one start tag may span, from its `<` to its `>` (default 1 MiB), in the
    /// input's encoding.
    static let maximumStartTagBytes = 1 << 20

    /// A start tag past a limit.
    struct Violation: Equatable {
        /// The line and column of the tag's `<`.
        var position: TextPosition
        /// The element's name as far as it was read (at most 100 bytes), for the message.
        var name: String
        /// True for too many attributes, false for too many bytes.
        var tooManyAttributes: Bool

        /// `too-large` at the tag's `<`, saying which limit it passed.
        func diagnostic(at base: SourceLocation, maximumAttributes: Int, maximumBytes: Int) -> Diagnostic {
            var location = base
            location.position = position
            let message = tooManyAttributes
                ? "element <\(name)> has more than \(maximumAttributes) attributes, the limit per element; not parsed"
                : "the start tag of <\(name)> is longer than \(maximumBytes) bytes, the limit per start tag; not parsed"
            return .error(.tooLarge, message, at: location)
        }
    }

    private enum State {
        case text, lessThan, bang, bangDash, comment, cdata, processingInstruction, endTag
        case startTag, startTagQuoted, declaration, declarationQuoted, subset
    }

    let maximumAttributes: Int
    let maximumBytes: Int
    /// True to read one-byte units through `step` one by one as wider ones are (the reference
    /// the tests hold `scanBytes` to).
    var unitByUnit = false
    /// Bytes per code unit (1, 2 or 4); 0 turns the scan off.
    private var unitWidth = 1
    private var bigEndian = false
    private var decided = false
    private let forcedEncoding: String?
    private var pendingBytes: UInt32 = 0
    private var pendingCount = 0
    /// The first bytes, held until there are four to tell the encoding by.
    private var head: [UInt8] = []

    private var state = State.text
    private var quote: UInt32 = 0
    /// Consecutive `-` (comment), `]` (CDATA) or a `?` just seen (PI), for the closing sequence.
    private var run = 0
    private var inSubset = false
    private var line = 1
    private var column = 1
    private var tagPosition = TextPosition(line: 1, column: 1)
    private var tagUnits = 0
    private var attributes = 0
    private var name: [UInt8] = []
    private var readingName = false

    /// - Parameters:
    ///   - encoding: the encoding forced by `--encoding`, nil to go by the document's first bytes.
    init(encoding: String?, maximumAttributes: Int = Self.maximumAttributes,
         maximumBytes: Int = Self.maximumStartTagBytes) {
        self.forcedEncoding = encoding?.lowercased()
        self.maximumAttributes = maximumAttributes
        self.maximumBytes = maximumBytes
    }

    /// Scans the next bytes of the document; returns the first start tag past a limit, if any.
    /// Once a violation was returned the scan is not to be fed again.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Violation? {
        guard !bytes.isEmpty else { return nil }
        if !decided {
            // The encoding shows in the first four bytes, which may come in several pieces.
            head.append(contentsOf: bytes)
            guard head.count >= 4 || forcedEncoding != nil else { return nil }
            let first = head
            head = []
            return first.withUnsafeBytes { first in
                decide(first)
                return scanDecided(first)
            }
        }
        return scanDecided(bytes)
    }

    private mutating func scanDecided(_ bytes: UnsafeRawBufferPointer) -> Violation? {
        switch unitWidth {
        case 0:
            return nil
        case 1 where !unitByUnit:
            return scanBytes(bytes)
        default:
            for byte in bytes {
                pendingBytes = bigEndian ? pendingBytes << 8 | UInt32(byte) : pendingBytes | UInt32(byte) << (8 * pendingCount)
                pendingCount += 1
                guard pendingCount == unitWidth else { continue }
                let unit = pendingBytes
                pendingBytes = 0
                pendingCount = 0
                if let violation = step(unit) { return violation }
            }
        }
        return nil
    }

    /// One-byte code units, without moving the position byte by byte: the states most bytes are
    /// in (text, end tags, start tags and their quoted values) jump to the next byte that can
    /// change the state, eight bytes at a time, and every other byte goes through `transition`.
    /// The line and column are worked out once a call, over the whole chunk, and at the `<` of
    /// the last tag opened in it (a violation's position). Same results as `step` on every byte
    /// (`XMLStartTagScanTests` compares them).
    private mutating func scanBytes(_ raw: UnsafeRawBufferPointer) -> Violation? {
        let bytes = raw.bindMemory(to: UInt8.self)
        let count = bytes.count
        // The position at `bytes[0]`, and the `<` of the last tag opened in this chunk (-1: none).
        let startPosition = TextPosition(line: line, column: column)
        var tagIndex = -1
        // Where the name of a start tag opened in this chunk begins, until the name is read.
        var nameStart = -1
        var i = 0
        var violation: Violation?
        scanning: while i < count {
            switch state {
            case .text:
                let k = XMLRecordScan.find(0x3C, in: bytes, from: i, to: count)
                guard k < count else { break scanning }
                tagIndex = k
                tagUnits = 1
                i = k + 1
                // What `transition` would make of the byte after the `<`, taken here for the two
                // usual cases: an end tag, and the first byte of a start tag's name (which the
                // name's loop below reads as `startTagUnit` would).
                if i < count, bytes[i] == 0x2F {
                    state = .endTag
                    i += 1
                } else if i < count, bytes[i] != 0x21, bytes[i] != 0x3F {
                    state = .startTag
                    attributes = 0
                    if !name.isEmpty { name.removeAll(keepingCapacity: true) }
                    readingName = true
                    nameStart = i
                } else {
                    state = .lessThan
                }
                continue scanning
            case .endTag:
                let k = XMLRecordScan.find(0x3E, in: bytes, from: i, to: count)
                guard k < count else { break scanning }
                state = inSubset ? .subset : .text
                i = k + 1
                continue scanning
            case .startTag, .startTagQuoted:
                // No further than the byte that passes the limit, where `step` would stop too.
                let start = i
                let end = min(count, start + (maximumBytes - tagUnits + 1))
                if state == .startTagQuoted {
                    i = XMLRecordScan.find(UInt8(truncatingIfNeeded: quote), in: bytes, from: i, to: end)
                } else if readingName {
                    // The element's name, copied once (at most 100 bytes, for the message).
                    while i < end {
                        let byte = bytes[i]
                        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x2F
                            || byte == 0x3E || byte == 0x3D || byte == 0x22 || byte == 0x27 { break }
                        i += 1
                    }
                    // A name that began in this chunk is copied only when it may be needed: not
                    // when a `>` within the limit closes the tag right after it.
                    let closes = i < count && bytes[i] == 0x3E && tagUnits + (i - start) + 1 <= maximumBytes
                    if nameStart >= 0 {
                        if !closes {
                            let room = min(100, i - nameStart)
                            name.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[nameStart..<(nameStart + room)]))
                        }
                        nameStart = -1
                    } else {
                        let room = min(100 - name.count, i - start)
                        if room > 0 { name.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<(start + room)])) }
                    }
                } else {
                    // Between attributes only quotes, `=` and `>` change anything.
                    while i < end {
                        let byte = bytes[i]
                        if byte == 0x22 || byte == 0x27 || byte == 0x3D || byte == 0x3E { break }
                        i += 1
                    }
                }
                tagUnits += i - start
                if tagUnits > maximumBytes {
                    violation = Violation(position: tagPosition, name: String(decoding: name, as: UTF8.self), tooManyAttributes: false)
                    break scanning
                }
                guard i < count else { break scanning }
            default:
                break
            }
            if let found = transition(UInt32(bytes[i])) {
                violation = found
                break scanning
            }
            i += 1
        }
        // Positions: at the last tag's `<`, then at the end of the chunk.
        var position = startPosition
        var from = 0
        if tagIndex >= 0 {
            position = Self.advance(position, over: bytes, from: 0, to: tagIndex)
            tagPosition = position
            from = tagIndex
        }
        if var found = violation {
            found.position = tagPosition
            return found
        }
        position = Self.advance(position, over: bytes, from: from, to: count)
        (line, column) = (position.line, position.column)
        return nil
    }

    /// The position after `bytes[from..<to]` when `bytes[from]` is at `position`: lines at LF,
    /// columns in characters (UTF-8 continuation bytes add none); eight bytes at a time.
    @inline(__always)
    private static func advance(_ position: TextPosition, over bytes: UnsafeBufferPointer<UInt8>,
                                from: Int, to end: Int) -> TextPosition {
        guard from < end, let base = bytes.baseAddress else { return position }
        let raw = UnsafeRawPointer(base)
        var newlines = 0
        var k = from
        while k &+ 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            newlines &+= XMLRecordScan.zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A).nonzeroBitCount
            k &+= 8
        }
        while k < end {
            if bytes[k] == 0x0A { newlines &+= 1 }
            k &+= 1
        }
        // The characters after the last LF (or after `from`, when there is none).
        var lineStart = from
        if newlines > 0 {
            lineStart = end
            while bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
        }
        var characters = 0
        k = lineStart
        while k < end {
            if bytes[k] & 0xC0 != 0x80 { characters &+= 1 }
            k &+= 1
        }
        return newlines > 0
            ? TextPosition(line: position.line + newlines, column: 1 + characters)
            : TextPosition(line: position.line, column: position.column + characters)
    }

    /// The code unit width, from `--encoding` or the first bytes (XML 1.0 appendix F).
    private mutating func decide(_ bytes: UnsafeRawBufferPointer) {
        decided = true
        if let forced = forcedEncoding {
            if forced.contains("16") {
                unitWidth = 2
                bigEndian = forced.hasSuffix("be") || (bytes.count >= 2 && bytes[0] == 0xFE && bytes[1] == 0xFF)
                return
            }
            if forced.contains("32") || forced.contains("ucs-4") || forced.contains("ucs4") {
                unitWidth = 4
                bigEndian = forced.hasSuffix("be") || (bytes.count >= 4 && bytes[0] == 0 && bytes[1] == 0)
                return
            }
            if forced.contains("ebcdic") || forced.hasPrefix("ibm") || forced.hasPrefix("cp0") { unitWidth = 0 }
            return
        }
        guard bytes.count >= 4 else { return }
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0x00, 0x00, 0x00, 0x3C), (0x00, 0x00, 0xFE, 0xFF): (unitWidth, bigEndian) = (4, true)
        case (0x3C, 0x00, 0x00, 0x00), (0xFF, 0xFE, 0x00, 0x00): (unitWidth, bigEndian) = (4, false)
        case (0xFE, 0xFF, _, _), (0x00, 0x3C, 0x00, 0x3F): (unitWidth, bigEndian) = (2, true)
        case (0xFF, 0xFE, _, _), (0x3C, 0x00, 0x3F, 0x00): (unitWidth, bigEndian) = (2, false)
        case (0x4C, 0x6F, 0xA7, 0x94): unitWidth = 0
        default: break
        }
    }

    /// One code unit. Positions count lines at LF and columns in characters, as libxml2 does: a
    /// UTF-8 continuation byte or a UTF-16 low surrogate adds no column.
    @inline(__always)
    private mutating func step(_ unit: UInt32) -> Violation? {
        if unit == 0x0A {
            line += 1
            column = 1
        } else if !isContinuation(unit) {
            column += 1
        }
        return transition(unit)
    }

    /// What one code unit does to the state, the position aside (one-byte units keep the
    /// position apart, `scanBytes`; a `<` in text is taken there too).
    @inline(__always)
    private mutating func transition(_ unit: UInt32) -> Violation? {
        switch state {
        case .text:
            if unit == 0x3C { openTag() }
        case .lessThan:
            switch unit {
            case 0x2F: state = .endTag
            case 0x21: state = .bang
            case 0x3F: state = .processingInstruction; run = 0
            default:
                if inSubset { state = .declaration; break }
                state = .startTag
                attributes = 0
                name.removeAll(keepingCapacity: true)
                readingName = true
                return startTagUnit(unit)
            }
        case .bang:
            switch unit {
            case 0x2D: state = .bangDash
            case 0x5B where !inSubset: state = .cdata; run = 0
            default: state = .declaration
            }
        case .bangDash:
            state = unit == 0x2D ? .comment : .declaration
            run = 0
        case .comment:
            if unit == 0x2D {
                run += 1
            } else {
                if unit == 0x3E && run >= 2 { state = inSubset ? .subset : .text }
                run = 0
            }
        case .cdata:
            if unit == 0x5D {
                run += 1
            } else {
                if unit == 0x3E && run >= 2 { state = .text }
                run = 0
            }
        case .processingInstruction:
            if unit == 0x3E && run == 1 { state = inSubset ? .subset : .text }
            run = unit == 0x3F ? 1 : 0
        case .endTag:
            if unit == 0x3E { state = inSubset ? .subset : .text }
        case .startTag, .startTagQuoted:
            return startTagUnit(unit)
        case .declaration:
            switch unit {
            case 0x22, 0x27: quote = unit; state = .declarationQuoted
            case 0x5B where !inSubset: inSubset = true; state = .subset
            case 0x3E: state = inSubset ? .subset : .text
            default: break
            }
        case .declarationQuoted:
            if unit == quote { state = .declaration }
        case .subset:
            switch unit {
            case 0x3C: state = .lessThan
            case 0x5D: inSubset = false; state = .declaration
            default: break
            }
        }
        return nil
    }

    @inline(__always)
    private func isContinuation(_ unit: UInt32) -> Bool {
        switch unitWidth {
        case 1: return unit & 0xC0 == 0x80
        case 2: return unit & 0xFC00 == 0xDC00
        default: return false
        }
    }

    /// A `<` in text: remember where it stands (the column was already advanced past it).
    @inline(__always)
    private mutating func openTag() {
        state = .lessThan
        tagPosition = TextPosition(line: line, column: column - 1)
        tagUnits = 1
    }

    /// A unit of a start tag after its `<`: quotes, `=` and `>` outside them, and the limits.
    @inline(__always)
    private mutating func startTagUnit(_ unit: UInt32) -> Violation? {
        tagUnits += 1
        if state == .startTagQuoted {
            if unit == quote { state = .startTag }
        } else {
            switch unit {
            case 0x22, 0x27:
                quote = unit
                state = .startTagQuoted
                readingName = false
            case 0x3D:
                attributes += 1
                readingName = false
            case 0x3E:
                // The `>` counts: a tag of exactly the limit passes, one byte more does not.
                if tagUnits * max(unitWidth, 1) <= maximumBytes {
                    state = .text
                    return nil
                }
            case 0x20, 0x09, 0x0A, 0x0D, 0x2F:
                readingName = false
            default:
                if readingName && name.count < 100 { appendNameUnit(unit) }
            }
        }
        if attributes > maximumAttributes {
            return Violation(position: tagPosition, name: String(decoding: name, as: UTF8.self), tooManyAttributes: true)
        }
        if tagUnits * max(unitWidth, 1) > maximumBytes {
            return Violation(position: tagPosition, name: String(decoding: name, as: UTF8.self), tooManyAttributes: false)
        }
        return nil
    }

    private mutating func appendNameUnit(_ unit: UInt32) {
        if unitWidth == 1 {
            name.append(UInt8(truncatingIfNeeded: unit))
        } else if let scalar = Unicode.Scalar(unit) {
            name.append(contentsOf: String(Character(scalar)).utf8)
        }
    }
}
