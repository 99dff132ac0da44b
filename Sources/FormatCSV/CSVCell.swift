/// One cell of a scanned row: its content's byte range (inside the quotes for a quoted cell), in
/// offsets from the row's first byte (`CSVRowScanner.rowStart`), and how it was written. Where it
/// starts on which line is asked of the scanner (`CSVRowScanner.position(of:in:base:)`), which
/// keeps the row's line breaks.
struct CSVCell {
    var start: Int
    var end: Int
    var flags: UInt8

    /// The cell is quoted (RFC 4180 section 2.5).
    static let quoted: UInt8 = 1
    /// The quoted cell holds doubled quotes (section 2.7): its text is not its bytes as they stand.
    static let escaped: UInt8 = 2
    /// The cell's first byte is an opening quote, right before `start` (set for every quoted cell,
    /// and for an unquoted one that follows its closing quote with text, a syntax error).
    static let opened: UInt8 = 4

    var isQuoted: Bool { flags & CSVCell.quoted != 0 }

    /// The offset (from the row's first byte) of the cell's first byte: its opening quote when quoted.
    var origin: Int { flags & CSVCell.opened != 0 ? start - 1 : start }
}
