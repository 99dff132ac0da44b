import FerryCore
import FerrySchemas
import FormatCSV

/// The typed path's output for a CSV writer (`LaneOutput.csvLeaves`): each taken record's leaf
/// stream (`CSVLeafStream`), rendered from its model into the batch's buffer with cells encoded for
/// `format`, which the calling thread hands to the writer with the lane's key table
/// (`TypedLaneBatch.leafTable`) once the record is committed.
public struct CSVLeafOutput: Sendable {
    /// The cell format of the writer the streams are for (`CSVWriter.cellFormat`).
    public let format: CSVCellFormat
    /// The lane's key table; set by the lane (`TypedLane.init`).
    var layout: CSVLeafLayout?
    /// The encoder of the batch rendering (borrowed by `TypedLaneBatch` from the layout).
    var encoder: CSVLeafEncoder?

    public init(format: CSVCellFormat) {
        self.format = format
    }

    /// Appends the leaf stream of a record holding `model`.
    /// - Returns: false, with `buffer` as it was, when the model writes a key its descriptor does
    ///   not have where it has it (the record is then given up), for a model the lane has no
    ///   route to, or without a layout and an encoder.
    func render<M: FieldCodable>(_ model: M, into buffer: inout ByteBuffer) -> Bool {
        guard let layout, let encoder, let block = layout.block(of: M.self) else { return false }
        let mark = buffer.count
        let rendered = withUnsafeMutablePointer(to: &buffer) { pointer in
            var sink = CSVLeafFieldSink(buffer: pointer, encoder: encoder, layout: layout, block: block)
            sink.appendRecord(model)
            return !sink.failed
        }
        if !rendered { buffer.truncate(to: mark) }
        return rendered
    }
}
