/// An input's first bytes, as formats recognise themselves in them when neither `--from` nor the
/// file name tells the format (DESIGN.md "Detection"; `FormatRegistry.format(forHead:)`).
public struct InputHead: Sendable {
    /// The bytes read from the start (the first few KiB, all of a shorter input).
    public let bytes: [UInt8]
    /// The bytes after a UTF-8 byte order mark, if there is one.
    public let text: ArraySlice<UInt8>
    /// True when the bytes start with a UTF-16 byte order mark (either byte order).
    public let isUTF16: Bool
    /// The first byte of `text` that is not blank (space, tab, CR, LF); nil for blank text.
    public let firstNonBlank: UInt8?
    /// Where `firstNonBlank` stands in `text`.
    public let start: Int

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        self.text = text
        isUTF16 = text.starts(with: [0xFF, 0xFE]) || text.starts(with: [0xFE, 0xFF])
        start = text.firstIndex { !Self.isBlank($0) } ?? text.endIndex
        firstNonBlank = start < text.endIndex ? text[start] : nil
    }

    /// Space, tab, CR or LF: what may stand before a document's first character.
    public static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}

/// How surely an input's first bytes are a format's own (`FormatDescriptor.recognize`): the
/// surest format wins, the first registered among equals.
public enum HeadMatch: Int, Comparable, Sendable {
    /// Any text: the format taken when no other recognises the bytes (CSV).
    case fallback = 1
    /// A start the format shares with a surer one (`{` begins a JSON document and a JSON Lines line).
    case plausible = 2
    /// A start only this format's text has (`<`; a first line that is a whole object, then another).
    case distinctive = 3
    /// A magic number at a fixed offset (`ustar` at 257, `PK\x03\x04`), which outranks any text.
    case signature = 4

    public static func < (lhs: HeadMatch, rhs: HeadMatch) -> Bool { lhs.rawValue < rhs.rawValue }
}
