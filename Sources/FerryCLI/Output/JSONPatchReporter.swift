import FerryCore
import FerryPipeline

/// `ferry diff --as json-patch`: an RFC 6902 patch that turns OLD's canonical JSON (at the
/// compared version) into NEW's. Per collection, removals first from the highest index down (so
/// each index still holds), then NEW's records in order: moves, additions and field operations
/// at the index each record takes in NEW. Media files are no part of a JSON document: none here.
final class JSONPatchReporter: DiffReporter {
    private let sink: any ByteSink
    private var removals: [JSONPointer] = []
    private var written = 0

    init(sink: any ByteSink) {
        self.sink = sink
    }

    func begin(old: DiffSide, new: DiffSide) throws {
        try sink.write("[")
    }

    func beginCollection(_ collection: String?, keyedBy key: DiffKey) throws {
        removals = []
    }

    func record(_ difference: RecordDifference) throws {
        if difference.kind == .removed, let pointer = difference.oldPointer {
            removals.append(pointer)
            return
        }
        try flushRemovals()
        guard let pointer = difference.newPointer else { return }
        if difference.kind == .added, let value = difference.value {
            return try operation("\"op\": \"add\", \"path\": \(Self.quote(pointer)), \"value\": " + JSONValueText.compact(value))
        }
        if let from = difference.moveFrom {
            try operation("\"op\": \"move\", \"from\": \(Self.quote(RecordDifference.pointer(difference.collection, from))), \"path\": \(Self.quote(pointer))")
        }
        for change in difference.changes {
            let path = Self.quote(pointer.appending(change.field))
            switch (change.old, change.new) {
            case (nil, let new?): try operation("\"op\": \"add\", \"path\": \(path), \"value\": " + JSONValueText.compact(new))
            case (_?, nil): try operation("\"op\": \"remove\", \"path\": \(path)")
            case (_, let new?): try operation("\"op\": \"replace\", \"path\": \(path), \"value\": " + JSONValueText.compact(new))
            case (nil, nil): break
            }
        }
    }

    func endCollection(_ collection: String?) throws {
        try flushRemovals()
    }

    func media(_ difference: MediaDifference) throws {}

    func finish(_ summary: DiffSummary) throws {
        try sink.write(written > 0 ? "\n]\n" : "]\n")
        try sink.flush()
    }

    private func flushRemovals() throws {
        for pointer in removals.reversed() { try operation("\"op\": \"remove\", \"path\": \(Self.quote(pointer))") }
        removals = []
    }

    private func operation(_ members: String) throws {
        try sink.write((written > 0 ? ",\n  {" : "\n  {") + members + "}")
        written += 1
    }

    private static func quote(_ pointer: JSONPointer) -> String { ReportFormat.quote(pointer.description) }
}
