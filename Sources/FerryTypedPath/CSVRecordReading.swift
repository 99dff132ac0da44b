import FerryCore
import FerrySchemas
import Foundation

/// Reads CSV rows of one header as models of one type, straight from their cells (issue 7's typed
/// path): no `Value`, no dictionary, no allocation per cell beyond the strings the model holds.
/// Built once per (type, header) and shared by threads.
///
/// `decode` gives exactly the model the general path gives (the CSV reader's `Value` through
/// `CSVFlattening`, then `T(value:at:diagnostics:)` with `scalarsAsText`), or nil: whenever the
/// general path would append any diagnostic (error, warning or note), and wherever this reader
/// does not mirror the general path exactly (see `CSVFieldSource` for the rules). The general path
/// then reads the row and reports its problems.
public final class CSVRecordReading<T: FieldCodable>: @unchecked Sendable {
    // @unchecked: the plan's buffers are written once, in `init`, and only read after.
    /// The number of cells a row must have.
    private let columnCount: Int
    /// `CSVColumnPlan`'s arrays copied into buffers of their own (`copying`, freed in `deinit`).
    private let nodes: UnsafeBufferPointer<CSVColumnPlan.Node>
    private let names: UnsafeBufferPointer<String>
    private let columnLists: UnsafeBufferPointer<Int>
    private let enumerations: UnsafeBufferPointer<[String]>
    /// `options.timeZone`, for the models' calendar-day checks.
    private let timeZone: UnsafeMutablePointer<TimeZone>

    /// Plans the header `columns` (the reader's header fields, as `RawCSVRow.columns` gives them)
    /// for `T`. Columns under keys that are not fields of `T` are allowed: a row with any of them
    /// present is given up on (the general path reports an `unknown-field`).
    ///
    /// `options` must be the general path's (`--date-strategy`, `--time-zone`) with
    /// `scalarsAsText` set. Nil when the header does not fit `T` plainly (two columns on one
    /// path, a column that is both a value and a level) or `scalarsAsText` is not set.
    public init?(columns: [String], options: DecodingOptions) {
        guard options.scalarsAsText, let plan = CSVColumnPlan(columns: columns, type: T.recordType) else { return nil }
        columnCount = plan.columnCount
        nodes = .copying(plan.nodes)
        names = .copying(plan.names)
        columnLists = .copying(plan.columnLists)
        enumerations = .copying(plan.enumerations)
        timeZone = UnsafeMutablePointer<TimeZone>.allocate(capacity: 1)
        timeZone.initialize(to: options.timeZone)
    }

    deinit {
        nodes.freeCopy()
        columnLists.freeCopy()
        names.freeCopy()
        enumerations.freeCopy()
        timeZone.deinitialize(count: 1)
        timeZone.deallocate()
    }

    /// The row read as `T`, or nil when anything is off: exactly when the general path would
    /// append any diagnostic, or when this reader does not handle something (a cell that is not
    /// UTF-8 included: the general path stops reading there). The row must have this header's
    /// columns (nil when its cell count differs).
    public func decode(_ row: RawCSVRow) -> T? {
        guard row.cells.count == columnCount, let root = nodes.first else { return nil }
        let planned = CSVPlannedRow(nodes: nodes, names: names, columnLists: columnLists, enumerations: enumerations,
                                    timeZone: timeZone, cells: row.cells)
        var source = CSVFieldSource(planned, object: root)
        let model = T(from: &source)
        source.finish()
        return source.failed ? nil : model
    }
}
