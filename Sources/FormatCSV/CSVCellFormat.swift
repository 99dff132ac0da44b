import FerryCore

/// What decides a CSV cell's bytes besides its value: the delimiter, which makes a string that
/// holds it quoted (RFC 4180 section 2.6), and safe mode (`WriteOptions.csvSafe`: the `'` before
/// a string starting with `=`, `+`, `-`, `@`, tab or CR). Cells encoded for one format are the
/// bytes a `CSVWriter` of the same format writes (`CSVLeafEncoder`, `CSVWriter.cellFormat`).
public struct CSVCellFormat: Sendable, Hashable {
    public var delimiter: UInt8
    public var csvSafe: Bool

    public init(delimiter: UInt8 = UInt8(ascii: ","), csvSafe: Bool = false) {
        self.delimiter = delimiter
        self.csvSafe = csvSafe
    }

    /// The format of a writer made with `options`.
    public init(options: WriteOptions) {
        self.init(delimiter: options.delimiter, csvSafe: options.csvSafe)
    }
}
