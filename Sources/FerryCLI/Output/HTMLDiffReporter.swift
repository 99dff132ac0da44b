import FerryCore
import FerryPipeline
import FerrySchemas

/// `ferry diff --report html` (Docs/reports.md): one self-contained page, written as the diff is
/// found (memory stays bounded like the other reporters'): the two sides, then per collection
/// that differs its removed and added records as lists and its changed records as a side-by-side
/// table (field pointer, old value, new value), then media, then the counts.
final class HTMLDiffReporter: DiffReporter {
    /// Values longer than this many characters are shortened (the JSON report has them whole).
    static let longValue = 400

    private let sink: any ByteSink
    private var collection: (name: String?, key: DiffKey)?
    private var collectionOpen = false
    private var section: Section?
    private var mediaOpen = false
    private var collections = 0

    /// The part of a collection's section being written.
    private enum Section {
        case removed, added, changed
    }

    init(sink: any ByteSink) {
        self.sink = sink
    }

    func begin(old: DiffSide, new: DiffSide) throws {
        var out = HTMLPage.head(title: "ferry diff", subtitle: DiffTextReporter.describe(old) + " \u{2192} " + DiffTextReporter.describe(new))
        out += "<section class=\"sides\">\n<h2>Inputs</h2>\n<table>\n<thead><tr><th></th><th>Input</th><th>Format</th><th>Domain</th><th>Version read</th><th>Compared at</th></tr></thead>\n<tbody>\n"
        out += side("old", old) + side("new", new) + "</tbody>\n</table>\n</section>\n"
        try sink.write(out)
    }

    private func side(_ name: String, _ side: DiffSide) -> String {
        "<tr><th>\(name)</th><td>\(HTMLPage.escape(side.input))</td><td>\(HTMLPage.escape(side.format))</td>"
            + "<td>\(HTMLPage.escape(side.domain?.rawValue ?? "schema-free"))</td><td>\(side.version.map(String.init) ?? "")</td>"
            + "<td>\(side.comparedVersion.map(String.init) ?? "")</td></tr>\n"
    }

    func beginCollection(_ collection: String?, keyedBy key: DiffKey) throws {
        self.collection = (collection, key)
        collectionOpen = false
        section = nil
    }

    func record(_ difference: RecordDifference) throws {
        guard difference.kind != .moved, let collection else { return }
        if !collectionOpen {
            collections += 1
            let name = collection.name ?? "records"
            try sink.write("<section class=\"collection\" id=\"c\(collections)\">\n<h2>\(HTMLPage.escape(name))"
                + (collection.key == .position ? " <small>(by position)</small>" : "") + "</h2>\n")
            collectionOpen = true
        }
        let id = difference.id.map { " <span class=\"id\">\(HTMLPage.escape(DiagnosticText.quoted($0)))</span>" } ?? ""
        switch difference.kind {
        case .removed:
            try open(.removed)
            try sink.write("<li><code>\(HTMLPage.escape(difference.oldPointer?.description ?? ""))</code>\(id)</li>\n")
        case .added:
            try open(.added)
            try sink.write("<li><code>\(HTMLPage.escape(difference.newPointer?.description ?? ""))</code>\(id)</li>\n")
        case .changed:
            try open(.changed)
            var head = "<code>\(HTMLPage.escape(difference.newPointer?.description ?? ""))</code>\(id)"
            if difference.oldIndex != difference.newIndex, let old = difference.oldPointer {
                head += " (was <code>\(HTMLPage.escape(old.description))</code>)"
            }
            var out = "<tbody class=\"record\">\n<tr><th colspan=\"3\">\(head)</th></tr>\n"
            for change in difference.changes {
                out += "<tr><td><code>\(HTMLPage.escape(change.field.description))</code></td>"
                out += "<td class=\"old mono\">\(Self.show(change.old))</td><td class=\"new mono\">\(Self.show(change.new))</td></tr>\n"
            }
            try sink.write(out + "</tbody>\n")
        case .moved:
            break
        }
    }

    /// Closes the current part of the section and opens `next` when it differs.
    private func open(_ next: Section) throws {
        guard section != next else { return }
        try close()
        switch next {
        case .removed: try sink.write("<h3 class=\"removed\">Removed</h3>\n<ul class=\"removed\">\n")
        case .added: try sink.write("<h3 class=\"added\">Added</h3>\n<ul class=\"added\">\n")
        case .changed:
            try sink.write("<h3 class=\"changed\">Changed</h3>\n<table class=\"changes\">\n"
                + "<thead><tr><th>Field</th><th>Old</th><th>New</th></tr></thead>\n")
        }
        section = next
    }

    private func close() throws {
        switch section {
        case .removed?, .added?: try sink.write("</ul>\n")
        case .changed?: try sink.write("</table>\n")
        case nil: break
        }
        section = nil
    }

    func endCollection(_ collection: String?) throws {
        try close()
        if collectionOpen { try sink.write("</section>\n") }
        collectionOpen = false
        self.collection = nil
    }

    func media(_ difference: MediaDifference) throws {
        if !mediaOpen {
            try sink.write("<section class=\"media\" id=\"media\">\n<h2>Media</h2>\n<table>\n"
                + "<thead><tr><th>Change</th><th>Path</th><th>Old SHA-256</th><th>New SHA-256</th></tr></thead>\n<tbody>\n")
            mediaOpen = true
        }
        var path = HTMLPage.escape(difference.path)
        if difference.kind == .renamed, let old = difference.oldPath { path += " (from \(HTMLPage.escape(old)))" }
        try sink.write("<tr><td class=\"\(difference.kind == .renamed ? "changed" : difference.kind.rawValue)\">\(difference.kind.rawValue)</td>"
            + "<td class=\"mono\">\(path)</td><td class=\"mono\">\(HTMLPage.escape(difference.oldSHA256 ?? ""))</td>"
            + "<td class=\"mono\">\(HTMLPage.escape(difference.newSHA256 ?? ""))</td></tr>\n")
    }

    func finish(_ summary: DiffSummary) throws {
        if mediaOpen { try sink.write("</tbody>\n</table>\n</section>\n") }
        var out = "<section class=\"totals\">\n<h2>Summary</h2>\n<p>\(HTMLPage.escape(DiffTextReporter.summaryLine(summary)))</p>\n"
        if summary.recordsMoved > 0 { out += "<p>\(HTMLPage.count(summary.recordsMoved, "record")) only moved.</p>\n" }
        try sink.write(out + "</section>\n" + HTMLPage.tail)
        try sink.flush()
    }

    /// A value as compact JSON, escaped; `(absent)` for a side that lacks the field.
    private static func show(_ value: Value?) -> String {
        guard let value else { return "<span class=\"empty\">(absent)</span>" }
        let text = JSONValueText.compact(value)
        guard text.count > longValue else { return HTMLPage.escape(text) }
        return HTMLPage.escape(String(text.prefix(longValue - 20))) + "&#8230; <span class=\"empty\">(\(text.utf8.count) bytes)</span>"
    }
}
