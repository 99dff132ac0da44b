import FerryCore
import FerrySchemas

/// The processor that rechecks references among the records a filter kept.
struct ReferenceRecheck {
    let processor: DatasetProcessor
    let log: DiagnosticLog
    /// What dropped the records, as the warnings say it: `filtering (--where)`.
    let reason: String

    /// Counts `record` kept: its id read, its references held until the last record. With
    /// `typed`, the typed path's reading of the record as read, they are taken from there.
    func keep(_ record: Record, typed: TypedPreparation?) {
        if let typed {
            _ = processor.commit(typed: typed, record: record)
        } else {
            _ = processor.process(record)
        }
    }

    /// Reports each reference left dangling by the filter, as a warning. `reader`: the processor
    /// of every record read. Only references to records it read, which the filter or selection
    /// then dropped, are reported: one naming a record the input lacks dangled before anything
    /// was dropped, and has its error already; one naming a record never read (an input read in
    /// part: the selection was full) may not dangle at all.
    func report(into target: DiagnosticLog, readBy reader: DatasetProcessor) {
        processor.finish(checking: { reader.isRead($0) })
        for diagnostic in log.diagnostics where diagnostic.code == .danglingReference {
            var warning = diagnostic
            warning.severity = .warning
            warning.message += " after " + reason
            target.report(warning)
        }
    }
}
