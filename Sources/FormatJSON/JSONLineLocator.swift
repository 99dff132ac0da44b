import FerryCore

/// Finds the line and column of a field inside one JSON Lines line on demand, as
/// `JSONFieldLocator` does, but over the line's bytes where they already stand (a batch's
/// buffer, `JSONLinesBatch`) instead of a copy of them, and knowing that the record stands on its
/// one line (the reader cut it at line feeds) without scanning it.
///
/// Three words, so that it fits an existential's inline buffer (`Record.locator`) without a box.
struct JSONLineLocator: FieldLocating {
    /// The buffer holding the line.
    private let buffer: [UInt8]
    /// Where the line stands in `buffer`.
    private let start: Int32
    private let end: Int32
    /// The line's number (1-based); its first byte is at column 1.
    private let line: Int

    /// A locator of the line at `range` in `buffer` (a line no longer than `Int32.max` bytes, in a
    /// buffer no longer than that); nil for a range beyond that.
    init?(buffer: [UInt8], range: Range<Int>, line: Int) {
        guard let start = Int32(exactly: range.lowerBound), let end = Int32(exactly: range.upperBound),
              range.upperBound <= buffer.count
        else { return nil }
        self.buffer = buffer
        self.start = start
        self.end = end
        self.line = line
    }

    /// The line's number: a JSON Lines line holds no line feed.
    var singleLine: Int? { line }

    /// As `JSONFieldLocator.childLocators(of:)`, windows on the batch's buffer.
    func childLocators(of field: JSONPointer) -> [String: any FieldLocating]? {
        JSONFieldLocator(bytes: buffer, window: Int(start)..<Int(end), start: TextPosition(line: line, column: 1))
            .childLocators(of: field)
    }

    /// As `JSONFieldLocator.childLocatorsInOrder(of:)`, windows on the batch's buffer.
    func childLocatorsInOrder(of field: JSONPointer) -> [(token: String, locator: any FieldLocating)]? {
        JSONFieldLocator(bytes: buffer, window: Int(start)..<Int(end), start: TextPosition(line: line, column: 1))
            .childLocatorsInOrder(of: field)
    }

    func position(of field: JSONPointer) -> TextPosition? {
        buffer.withUnsafeBufferPointer { all -> TextPosition? in
            let p = UnsafeBufferPointer(rebasing: all[Int(start)..<Int(end)])
            guard let offset = JSONFieldLocator.offset(of: field, in: p) else { return nil }
            return JSONSyntax.position(in: p, from: 0, at: TextPosition(line: line, column: 1), to: offset)
        }
    }
}
