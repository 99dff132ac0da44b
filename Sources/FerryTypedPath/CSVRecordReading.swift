import FerryCore
import FerrySchemas

/// Reads CSV rows of one header as models of one type, straight from their cells (issue 7's typed
/// path): no `Value`, no dictionary, no allocation per cell beyond the strings the model holds.
/// Built once per (type, header) and shared by threads.
///
/// `decode` gives exactly the model the general path gives (the CSV reader's `Value` through
/// `CSVFlattening`, then `T(value:at:diagnostics:)` with `scalarsAsText`), or nil: whenever the
/// general path would append any diagnostic (error, warning or note), and wherever this reader
/// does not mirror the general path exactly (see `CSVFieldSource` for the rules). The general path
/// then reads the row and reports its problems.
public final class CSVRecordReading<T: FieldCodable>: Sendable {
    private let plan: CSVColumnPlan

    /// Plans the header `columns` (the reader's header fields, as `RawCSVRow.columns` gives them)
    /// for `T`. Columns under keys that are not fields of `T` are allowed: a row with any of them
    /// present is given up on (the general path reports an `unknown-field`).
    ///
    /// Nil when the header does not fit `T` plainly: two columns on one path, a column that is
    /// both a value and a level, or `options` other than CSV's (`scalarsAsText` must be set).
    public init?(columns: [String], options: DecodingOptions) {
        guard options.scalarsAsText, let plan = CSVColumnPlan(columns: columns, type: T.recordType) else { return nil }
        self.plan = plan
    }

    /// The row read as `T`, or nil when anything is off: exactly when the general path would
    /// append any diagnostic, or when this reader does not handle something (a cell that is not
    /// UTF-8 included: the general path stops reading there). The row must have this header's
    /// columns (nil when its cell count differs).
    public func decode(_ row: RawCSVRow) -> T? {
        guard row.cells.count == plan.columnCount else { return nil }
        return plan.nodes.withUnsafeBufferPointer { nodes in
            plan.names.withUnsafeBufferPointer { names in
                plan.columnLists.withUnsafeBufferPointer { columnLists in
                    plan.enumerations.withUnsafeBufferPointer { enumerations in
                        let planned = CSVPlannedRow(
                            nodes: nodes, names: names, columnLists: columnLists, enumerations: enumerations, cells: row.cells)
                        var source = CSVFieldSource(planned, object: nodes[0])
                        let model = T(from: &source)
                        source.finish()
                        return source.failed ? nil : model
                    }
                }
            }
        }
    }
}
