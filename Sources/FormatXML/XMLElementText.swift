import FerryCore

/// The bytes of one record's elements as `XMLRecordWriter` lays them out (SCHEMAS.md "Formats",
/// XML): tags, indentation, escaped text, and the `type` marks of empty values. Shared by the
/// writer, which walks a record's `Value`, and by renderers that walk a model's fields
/// (`XMLFieldSink`), so both make the same bytes from one set of rules.
///
/// Each call appends to the caller's buffer. A call that meets what XML cannot hold appends part
/// of it and returns the `Problem`: the caller drops or reports the element.
public struct XMLElementText: Sendable {
    /// What an element's bytes cannot be made for.
    public enum Problem: Error, Equatable {
        /// The element would nest `XMLRecordWriter.maximumDepth` levels or deeper.
        case tooDeep
        /// A character XML 1.0 section 2.2 excludes (its scalar value).
        case unwritable(UInt32)
    }

    /// True for 2-space indentation and a line break after each element.
    public let pretty: Bool

    public init(pretty: Bool) {
        self.pretty = pretty
    }

    /// Two spaces for each of the first 32 levels, appended in one piece.
    private static let spaces = [UInt8](repeating: 0x20, count: 64)

    /// The indentation of an element `depth` levels deep (none when not `pretty`).
    @inline(__always)
    public func indent(_ depth: Int, into buffer: inout ByteBuffer) {
        guard pretty else { return }
        let width = 2 * depth
        if width <= Self.spaces.count {
            Self.spaces.withUnsafeBufferPointer { buffer.append(UnsafeBufferPointer(rebasing: $0[..<width])) }
        } else {
            for _ in 0..<width { buffer.append(0x20) }
        }
    }

    /// The line break after an element (none when not `pretty`).
    @inline(__always)
    public func newline(into buffer: inout ByteBuffer) {
        if pretty { buffer.append(0x0A) }
    }

    /// True for the key `item`, which names list elements and so goes into `<field name="item">`
    /// (the length first: most keys differ from it there, and String's `!=` takes its slow path
    /// whenever two strings differ).
    @inline(__always)
    public static func isItem(_ key: String) -> Bool {
        key.utf8.count == 4 && key == "item"
    }

    /// The element name of `key`: itself for an XML name other than `item`, else `field` (which
    /// carries the key in its `name` attribute).
    public static func elementName(_ key: String) -> String {
        !isItem(key) && XMLName.isNCName(key) ? key : "field"
    }

    /// Appends `<name` for `key` when `literal` (a record or list item element) or an XML-name
    /// key, else `<field name="key"`.
    /// - Returns: the element's name, for its end tag (`endTag(_:into:)`).
    /// - Throws: `.tooDeep` at `XMLRecordWriter.maximumDepth` levels; `.unwritable` for a key
    ///   holding a character XML excludes.
    public func startTag(_ key: String, literal: Bool, depth: Int, into buffer: inout ByteBuffer) throws(Problem) -> String {
        guard depth < XMLRecordWriter.maximumDepth else { throw .tooDeep }
        buffer.append(UInt8(ascii: "<"))
        if literal || (!Self.isItem(key) && XMLName.isNCName(key)) {
            buffer.append(key)
            return key
        }
        buffer.append("field" as StaticString)
        try Self.attribute("name", key, into: &buffer)
        return "field"
    }

    /// Appends `</name>`, `name` as `startTag` returned it.
    @inline(__always)
    public func endTag(_ name: String, into buffer: inout ByteBuffer) {
        buffer.append(UInt8(ascii: "<"))
        buffer.append(UInt8(ascii: "/"))
        buffer.append(name)
        buffer.append(UInt8(ascii: ">"))
    }

    /// Appends ` name="value"`, the value escaped for a double-quoted attribute.
    public static func attribute(_ name: String, _ value: String, into buffer: inout ByteBuffer) throws(Problem) {
        buffer.append(0x20)
        buffer.append(name)
        buffer.append("=\"" as StaticString)
        try escape(value, inAttribute: true, into: &buffer)
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends a whole element holding `text` (`<key>text</key>`, `<key/>` for `""`) at `depth`,
    /// with its indentation and line break; `isItem` for a list element (`<item>`).
    public func leaf(_ text: String, key: String, isItem: Bool, depth: Int, into buffer: inout ByteBuffer) throws(Problem) {
        guard text.isEmpty else {
            return try leaf(key: key, isItem: isItem, depth: depth, into: &buffer) { (buffer) throws(Problem) in
                try Self.escape(text, inAttribute: false, into: &buffer)
            }
        }
        indent(depth, into: &buffer)
        _ = try startTag(key, literal: isItem, depth: depth, into: &buffer)
        buffer.append("/>" as StaticString)
        newline(into: &buffer)
    }

    /// `leaf` for a text that is never empty and that `content` appends as it goes out (escaped,
    /// or a number's digits and an RFC 3339 instant written in place, with no `String` made).
    @inline(__always)
    public func leaf(key: String, isItem: Bool, depth: Int, into buffer: inout ByteBuffer,
        content: (inout ByteBuffer) throws(Problem) -> Void) throws(Problem)
    {
        indent(depth, into: &buffer)
        let name = try startTag(key, literal: isItem, depth: depth, into: &buffer)
        buffer.append(UInt8(ascii: ">"))
        try content(&buffer)
        endTag(name, into: &buffer)
        newline(into: &buffer)
    }

    /// Appends `<key type="..."/>` at `depth` (`null`, `list` or `object`: an empty value).
    public func marked(_ key: String, isItem: Bool, depth: Int, type: StaticString, into buffer: inout ByteBuffer) throws(Problem) {
        indent(depth, into: &buffer)
        _ = try startTag(key, literal: isItem, depth: depth, into: &buffer)
        buffer.append(" type=\"" as StaticString)
        buffer.append(type)
        buffer.append("\"/>" as StaticString)
        newline(into: &buffer)
    }

    /// Appends the start of an element with members or elements: `<key>` and its line break.
    /// - Returns: the element's name, for `close(_:depth:into:)`.
    public func open(_ key: String, isItem: Bool, depth: Int, into buffer: inout ByteBuffer) throws(Problem) -> String {
        indent(depth, into: &buffer)
        let name = try startTag(key, literal: isItem, depth: depth, into: &buffer)
        buffer.append(UInt8(ascii: ">"))
        newline(into: &buffer)
        return name
    }

    /// Appends the end of an element `open` began.
    public func close(_ name: String, depth: Int, into buffer: inout ByteBuffer) {
        indent(depth, into: &buffer)
        endTag(name, into: &buffer)
        newline(into: &buffer)
    }

    /// Appends `text` escaped for element content or a double-quoted attribute value.
    /// - Throws: `.unwritable` at the first character XML 1.0 section 2.2 excludes (appending
    ///   stops there).
    public static func escape(_ text: String, inAttribute: Bool, into buffer: inout ByteBuffer) throws(Problem) {
        var text = text
        if let bad = text.withUTF8({ escape($0, inAttribute: inAttribute, into: &buffer) }) { throw .unwritable(bad) }
    }

    /// What each byte value is written as itself in: bit `plainInContent` in element content, bit
    /// `plainInAttribute` in a double-quoted attribute value. Not plain: the control characters,
    /// `&`, `<`, `>`, `"` in an attribute, and 0xEF (which may begin U+FFFE or U+FFFF).
    private static let plainBytes: [UInt8] = (0...255).map { byte -> UInt8 in
        guard byte >= 0x20, byte != 0xEF, byte != UInt8(ascii: "&"), byte != UInt8(ascii: "<"), byte != UInt8(ascii: ">")
        else { return 0 }
        return byte == UInt8(ascii: "\"") ? plainInContent : plainInContent | plainInAttribute
    }
    private static let plainInContent: UInt8 = 1
    private static let plainInAttribute: UInt8 = 2

    /// Appends `bytes` escaped; the first character XML 1.0 excludes, if any (appending stops there).
    public static func escape(_ bytes: UnsafeBufferPointer<UInt8>, inAttribute: Bool, into buffer: inout ByteBuffer) -> UInt32? {
        // The byte classes are read from a table, one load a byte.
        Self.plainBytes.withUnsafeBufferPointer { plain in
            let mask = inAttribute ? plainInAttribute : plainInContent
            var i = 0
            var run = 0
            let n = bytes.count
            while i < n {
                let b = bytes[i]
                // Bytes written as they are go out in runs, one append each.
                if plain[Int(b)] & mask != 0 {
                    i += 1
                    continue
                }
                if run < i { buffer.append(UnsafeBufferPointer(rebasing: bytes[run..<i])) }
                run = i + 1
                switch b {
                case UInt8(ascii: "&"): buffer.append("&amp;" as StaticString)
                case UInt8(ascii: "<"): buffer.append("&lt;" as StaticString)
                case UInt8(ascii: ">"): buffer.append("&gt;" as StaticString)
                case 0x0D: buffer.append("&#13;" as StaticString)
                case UInt8(ascii: "\"") where inAttribute: buffer.append("&quot;" as StaticString)
                case 0x09 where inAttribute: buffer.append("&#9;" as StaticString)
                case 0x0A where inAttribute: buffer.append("&#10;" as StaticString)
                case 0x09, 0x0A: buffer.append(b)
                case 0x00..<0x20:
                    return UInt32(b)
                case 0xEF where i + 2 < n && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF):
                    return bytes[i + 2] == 0xBE ? 0xFFFE : 0xFFFF
                default: buffer.append(b)
                }
                i += 1
            }
            if run < n { buffer.append(UnsafeBufferPointer(rebasing: bytes[run..<n])) }
            return nil
        }
    }
}
