import FerryCore
import FerryPipeline
import FerrySchemas

/// `ferry diff --report json` (Docs/diff.md "JSON report"): the two sides, the collections that
/// differ with one line per record, the media that differ, and the counts. Written as found.
final class DiffJSONReporter: DiffReporter {
    private let sink: any ByteSink
    private var pendingCollection: String?
    private var collectionsOpen = false
    private var recordsWritten = 0
    private var mediaWritten = 0

    init(sink: any ByteSink) {
        self.sink = sink
    }

    func begin(old: DiffSide, new: DiffSide) throws {
        try sink.write("{\n  \"old\": \(Self.side(old)),\n  \"new\": \(Self.side(new)),\n  \"collections\": [")
    }

    func beginCollection(_ collection: String?, keyedBy key: DiffKey) throws {
        let name = collection.map(ReportFormat.quote) ?? "null"
        pendingCollection = "{\"name\": \(name), \"keyedBy\": \"\(key.rawValue)\", \"records\": ["
        recordsWritten = 0
    }

    func record(_ difference: RecordDifference) throws {
        guard difference.kind != .moved else { return }
        if let opening = pendingCollection {
            try sink.write((collectionsOpen ? ",\n    " : "\n    ") + opening)
            collectionsOpen = true
            pendingCollection = nil
        }
        var fields = ["\"status\": \"\(difference.kind.rawValue)\"", "\"id\": \(difference.id.map(ReportFormat.quote) ?? "null")"]
        fields.append("\"oldPointer\": \(difference.oldPointer.map { ReportFormat.quote($0.description) } ?? "null")")
        fields.append("\"pointer\": \(difference.newPointer.map { ReportFormat.quote($0.description) } ?? "null")")
        if let value = difference.value { fields.append("\"value\": " + JSONValueText.compact(value)) }
        if difference.kind == .changed, let pointer = difference.newPointer {
            let changes = difference.changes.map { change in
                var members = ["\"field\": \(ReportFormat.quote(change.field.description))",
                               "\"pointer\": \(ReportFormat.quote(pointer.appending(change.field).description))"]
                if let old = change.old { members.append("\"old\": " + JSONValueText.compact(old)) }
                if let new = change.new { members.append("\"new\": " + JSONValueText.compact(new)) }
                return "{" + members.joined(separator: ", ") + "}"
            }
            fields.append("\"changes\": [" + changes.joined(separator: ", ") + "]")
        }
        try sink.write((recordsWritten > 0 ? "," : "") + "\n      {" + fields.joined(separator: ", ") + "}")
        recordsWritten += 1
    }

    func endCollection(_ collection: String?) throws {
        if pendingCollection == nil, recordsWritten > 0 { try sink.write("\n    ]}") }
        pendingCollection = nil
        recordsWritten = 0
    }

    func media(_ difference: MediaDifference) throws {
        if mediaWritten == 0 { try sink.write((collectionsOpen ? "\n  ]" : "]") + ",\n  \"media\": [") }
        var fields = ["\"status\": \"\(difference.kind.rawValue)\"", "\"path\": \(ReportFormat.quote(difference.path))"]
        if let old = difference.oldPath { fields.append("\"oldPath\": \(ReportFormat.quote(old))") }
        fields.append("\"oldSha256\": \(difference.oldSHA256.map(ReportFormat.quote) ?? "null")")
        fields.append("\"newSha256\": \(difference.newSHA256.map(ReportFormat.quote) ?? "null")")
        try sink.write((mediaWritten > 0 ? "," : "") + "\n    {" + fields.joined(separator: ", ") + "}")
        mediaWritten += 1
    }

    func finish(_ summary: DiffSummary) throws {
        if mediaWritten == 0 {
            try sink.write((collectionsOpen ? "\n  ]" : "]") + ",\n  \"media\": [],\n")
        } else {
            try sink.write("\n  ],\n")
        }
        let counts: [(String, Int)] = [
            ("recordsAdded", summary.recordsAdded), ("recordsRemoved", summary.recordsRemoved), ("recordsChanged", summary.recordsChanged),
            ("mediaAdded", summary.mediaAdded), ("mediaRemoved", summary.mediaRemoved), ("mediaChanged", summary.mediaChanged),
            ("mediaRenamed", summary.mediaRenamed),
        ]
        try sink.write("  \"same\": \(!summary.differs),\n  \"summary\": {"
            + counts.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}\n}\n")
        try sink.flush()
    }

    private static func side(_ side: DiffSide) -> String {
        "{\"input\": \(ReportFormat.quote(side.input)), \"format\": \(ReportFormat.quote(side.format)), "
            + "\"domain\": \(side.domain.map { ReportFormat.quote($0.rawValue) } ?? "null"), "
            + "\"schemaVersion\": \(side.version.map(String.init) ?? "null"), "
            + "\"comparedVersion\": \(side.comparedVersion.map(String.init) ?? "null")}"
    }
}
