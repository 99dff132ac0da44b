import FerryCore
import FerryPipeline
import FerrySchemas

/// `ferry diff`'s readable form (Docs/diff.md "Text"): the two sides, then per collection that
/// differs its removed (`-`), added (`+`) and changed (`~`) records by dataset pointer and id,
/// each change as `FIELD: OLD -> NEW`; then media; then one line of counts. Coloured on a
/// terminal unless `NO_COLOR` is set.
final class DiffTextReporter: DiffReporter {
    /// Values longer than this many characters are shortened (the JSON report has them whole).
    static let longValue = 120

    private let sink: any ByteSink
    private let color: Bool
    private var headerPending: String?
    private var mediaHeaderDone = false

    init(sink: any ByteSink, color: Bool) {
        self.sink = sink
        self.color = color
    }

    func begin(old: DiffSide, new: DiffSide) throws {
        try sink.write(paint("--- ", "1") + Self.describe(old) + "\n" + paint("+++ ", "1") + Self.describe(new) + "\n")
    }

    func beginCollection(_ collection: String?, keyedBy key: DiffKey) throws {
        headerPending = (collection ?? "records") + (key == .position ? " (by position)" : "")
    }

    func record(_ difference: RecordDifference) throws {
        guard difference.kind != .moved else { return }
        if let header = headerPending {
            try sink.write(paint(header, "1;36") + "\n")
            headerPending = nil
        }
        let id = difference.id.map { " " + DiagnosticText.escaped($0) } ?? ""
        switch difference.kind {
        case .removed:
            try sink.write(paint("- " + (difference.oldPointer?.description ?? "") + id, "31") + "\n")
        case .added:
            try sink.write(paint("+ " + (difference.newPointer?.description ?? "") + id, "32") + "\n")
        case .changed:
            var line = "~ " + (difference.newPointer?.description ?? "") + id
            if difference.oldIndex != difference.newIndex, let old = difference.oldPointer { line += " (was \(old))" }
            try sink.write(paint(line, "33") + "\n")
            for change in difference.changes {
                try sink.write("    \(DiagnosticText.escaped(change.field.description)): \(Self.show(change.old)) -> \(Self.show(change.new))\n")
            }
        case .moved:
            break
        }
    }

    func endCollection(_ collection: String?) throws {
        headerPending = nil
    }

    func media(_ difference: MediaDifference) throws {
        if !mediaHeaderDone {
            try sink.write(paint("media", "1;36") + "\n")
            mediaHeaderDone = true
        }
        let path = DiagnosticText.escaped(difference.path)
        switch difference.kind {
        case .added: try sink.write(paint("+ " + path, "32") + " sha256 \(Self.short(difference.newSHA256))\n")
        case .removed: try sink.write(paint("- " + path, "31") + " sha256 \(Self.short(difference.oldSHA256))\n")
        case .changed:
            try sink.write(paint("~ " + path, "33") + " sha256 \(Self.short(difference.oldSHA256)) -> \(Self.short(difference.newSHA256))\n")
        case .renamed:
            try sink.write(paint("~ " + path, "33") + " renamed from \(DiagnosticText.escaped(difference.oldPath ?? "")) (sha256 \(Self.short(difference.newSHA256)))\n")
        }
    }

    func finish(_ summary: DiffSummary) throws {
        try sink.write(Self.summaryLine(summary) + "\n")
        try sink.flush()
    }

    /// `records: 3 changed, 1 removed; media: 1 changed`, or `no differences`.
    static func summaryLine(_ summary: DiffSummary) -> String {
        guard summary.differs else { return "no differences" }
        func counts(_ items: [(Int, String)]) -> String {
            items.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        }
        let records = counts([(summary.recordsChanged, "changed"), (summary.recordsAdded, "added"), (summary.recordsRemoved, "removed")])
        let media = counts([(summary.mediaChanged, "changed"), (summary.mediaRenamed, "renamed"), (summary.mediaAdded, "added"),
                            (summary.mediaRemoved, "removed")])
        return [records.isEmpty ? nil : "records: " + records, media.isEmpty ? nil : "media: " + media]
            .compactMap { $0 }.joined(separator: "; ")
    }

    /// `docs (app Documents folder, pet-story v1 -> v2)`.
    static func describe(_ side: DiffSide) -> String {
        var text = DiagnosticText.escaped(side.input) + " (" + side.format
        if let domain = side.domain {
            text += ", \(domain.rawValue) v\(side.version.map(String.init) ?? "?")"
            if let compared = side.comparedVersion, compared != side.version { text += " -> v\(compared)" }
        } else {
            text += ", schema-free"
        }
        return text + ")"
    }

    private static func show(_ value: Value?) -> String {
        guard let value else { return "(absent)" }
        let text = JSONValueText.compact(value)
        guard text.count > longValue else { return text }
        return String(text.prefix(longValue - 20)) + "… (\(text.utf8.count) bytes)"
    }

    private static func short(_ digest: String?) -> String {
        String((digest ?? "").prefix(12))
    }

    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }
}
