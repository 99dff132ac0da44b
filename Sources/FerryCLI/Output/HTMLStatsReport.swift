import FerryCore
import FerryPipeline
import FerrySchemas
import Foundation

/// `ferry stats --report html` (Docs/reports.md): one page for every dataset profiled, per
/// collection a table of its fields with inline SVG charts: presence (values, nulls, missing) as
/// a stacked bar, string and list lengths as ranges on the collection's scale (the mean list
/// length ticked), and the most frequent values as bars; media by kind as bars of their bytes.
enum HTMLStatsReport {
    /// Chart widths in CSS pixels.
    static let chartWidth = 120
    static let topWidth = 90

    /// The page for `statistics`, one section per dataset.
    static func render(_ statistics: [DatasetStatistics]) -> String {
        let subtitle = statistics.map { $0.report.input }.joined(separator: ", ")
        var body = ""
        if statistics.count > 1 {
            body += "<nav class=\"toc\">" + statistics.indices.map { "<a href=\"#s\($0 + 1)\">\(HTMLPage.escape(statistics[$0].report.input))</a>" }
                .joined() + "</nav>\n"
        }
        for (index, dataset) in statistics.enumerated() {
            body += section(dataset, number: index + 1)
        }
        return HTMLPage.document(title: "ferry stats", subtitle: subtitle, body: body)
    }

    private static func section(_ statistics: DatasetStatistics, number: Int) -> String {
        let report = statistics.report
        var out = "<section class=\"dataset\" id=\"s\(number)\">\n<h2>\(HTMLPage.escape(report.input))</h2>\n<p class=\"facts\">"
        var facts = [HTMLPage.escape(report.format)]
        if let domain = report.domain {
            facts.append("\(HTMLPage.escape(domain.rawValue)) v\(report.targetVersion ?? report.sourceVersion ?? 0)")
        } else {
            facts.append("schema-free")
        }
        facts.append(HTMLPage.count(report.recordCount, "record") + HTMLPage.ofRecordsRead(report))
        if report.errorCount > 0 {
            facts.append("\(report.errorCount) error\(report.errorCount == 1 ? "" : "s"): invalid records are left out (<code>ferry validate</code> lists them)")
        }
        out += facts.joined(separator: " &#183; ") + "</p>\n"
        if let media = report.media { out += mediaTable(media) }
        for (index, collection) in statistics.collections.enumerated() {
            out += collectionTable(collection, anchor: "s\(number)-c\(index + 1)")
        }
        return out + "</section>\n"
    }

    private static func mediaTable(_ media: MediaSummary) -> String {
        var out = "<h3>Media: \(HTMLPage.count(media.count, "file")), \(media.bytes) bytes</h3>\n<table class=\"media\">\n"
        out += "<thead><tr><th>Kind</th><th class=\"num\">Files</th><th class=\"num\">Bytes</th><th>Share of bytes</th></tr></thead>\n<tbody>\n"
        for (kind, bytes) in zip(media.byKind, media.bytesByKind) {
            out += "<tr><td>\(HTMLPage.escape(kind.kind))</td><td class=\"num\">\(kind.count)</td><td class=\"num\">\(bytes.bytes)</td>"
            out += "<td>\(bar(Int(clamping: bytes.bytes), of: Int(clamping: media.bytes), title: "\(bytes.bytes) of \(media.bytes) bytes"))</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    private static func collectionTable(_ collection: CollectionStatistics, anchor: String) -> String {
        let name = collection.name.isEmpty ? "(records)" : collection.name
        var out = "<h3 id=\"\(anchor)\">\(HTMLPage.escape(name)): \(HTMLPage.count(collection.records, "record"))</h3>\n"
        let fields = collection.fields
        let longestString = fields.compactMap { $0.stringLengths?.upperBound }.max() ?? 0
        let longestList = fields.compactMap { $0.listLengths?.upperBound }.max() ?? 0
        out += "<table class=\"fields\">\n<thead><tr><th>Field</th><th>Kinds</th><th>Present / null / missing</th>"
        out += "<th class=\"num\">Count</th><th class=\"num\">Null</th><th class=\"num\">Missing</th><th class=\"num\">Distinct</th>"
        out += "<th>Min</th><th>Max</th><th>String length</th><th>List length</th><th>Most frequent</th></tr></thead>\n<tbody>\n"
        for field in fields {
            let kinds = StatsFormatter.kinds(field)
            let (min, max) = StatsFormatter.range(field)
            out += "<tr><td><code>\(HTMLPage.escape(field.pointer))</code></td><td>\(kinds)</td>"
            out += "<td>\(presence(field))</td><td class=\"num\">\(field.count)</td><td class=\"num\">\(field.nulls)</td>"
            out += "<td class=\"num\">\(field.missing)</td><td class=\"num\">\(field.isDistinctExact ? "" : "~")\(field.distinct)</td>"
            out += "<td class=\"mono\">\(HTMLPage.escape(min ?? ""))</td><td class=\"mono\">\(HTMLPage.escape(max ?? ""))</td>"
            out += "<td>\(field.stringLengths.map { rangeBar($0, scale: longestString, mean: nil) } ?? "")</td>"
            out += "<td>\(field.listLengths.map { rangeBar($0, scale: longestList, mean: field.meanListLength) } ?? "")</td>"
            out += "<td>\(topValues(field))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n"
        if collection.fieldsLeftOut > 0 {
            out += "<p class=\"capped\">\(collection.fieldsLeftOut) more fields past the first \(CollectionStatistics.fieldLimit) were not followed.</p>\n"
        }
        return out
    }

    /// A stacked bar of the values present, null and missing, each part titled with its count.
    static func presence(_ field: FieldStatistics) -> String {
        let total = field.count + field.nulls + field.missing
        guard total > 0 else { return "" }
        var out = "<svg width=\"\(chartWidth)\" height=\"12\" role=\"img\" aria-label=\"\(field.count) present, \(field.nulls) null, \(field.missing) missing\">"
        var x = 0
        for (kind, value) in [("present", field.count), ("null", field.nulls), ("missing", field.missing)] where value > 0 {
            let width = value * chartWidth / total
            out += "<rect class=\"\(kind)\" x=\"\(x)\" y=\"0\" width=\"\(Swift.max(width, 1))\" height=\"12\"><title>\(value) \(kind)</title></rect>"
            x += width
        }
        return out + "</svg>"
    }

    /// `range` drawn on a track from 0 to `scale`, the mean ticked, the figures beside it.
    static func rangeBar(_ range: ClosedRange<Int>, scale: Int, mean: Double?) -> String {
        let width = chartWidth
        let from = scale == 0 ? 0 : range.lowerBound * width / scale
        let to = scale == 0 ? width : range.upperBound * width / scale
        var label = "\(range.lowerBound)..\(range.upperBound)"
        if let mean { label += " mean " + String(format: "%.2f", mean) }
        var out = "<svg width=\"\(width + 2)\" height=\"12\" role=\"img\" aria-label=\"\(label)\"><rect class=\"track\" x=\"0.5\" y=\"3.5\" width=\"\(width)\" height=\"5\"/>"
        out += "<rect class=\"bar\" x=\"\(from)\" y=\"2\" width=\"\(Swift.max(to - from, 2))\" height=\"8\"><title>\(label)</title></rect>"
        if let mean, scale > 0 {
            let x = Int(mean * Double(width) / Double(scale))
            out += "<rect class=\"null\" x=\"\(x)\" y=\"0\" width=\"2\" height=\"12\"><title>mean \(String(format: "%.2f", mean))</title></rect>"
        }
        return out + "</svg> <span class=\"mono\">\(label)</span>"
    }

    /// The most frequent values as bars scaled to the first, each labelled with its value and count.
    static func topValues(_ field: FieldStatistics) -> String {
        let top = field.topValues
        guard let most = top.first?.count, most > 0 else { return "" }
        let row = 16
        var out = "<svg width=\"\(topWidth + 200)\" height=\"\(top.count * row)\" role=\"img\" aria-label=\"most frequent values\">"
        for (index, entry) in top.enumerated() {
            let text = entry.value.stringValue.map(DiagnosticText.quoted) ?? StatsFormatter.booleanText(entry.value)
            let shown = text.count > 28 ? String(text.prefix(27)) + "\u{2026}" : text
            let y = index * row
            out += "<rect class=\"bar\" x=\"0\" y=\"\(y + 2)\" width=\"\(Swift.max(entry.count * topWidth / most, 1))\" height=\"\(row - 4)\">"
            out += "<title>\(HTMLPage.escape(text)): \(entry.count)</title></rect>"
            out += "<text x=\"\(topWidth + 6)\" y=\"\(y + row - 4)\">\(HTMLPage.escape(shown)) \(entry.count)</text>"
        }
        return out + "</svg>"
    }

    /// A bar of `value` out of `total`, titled.
    private static func bar(_ value: Int, of total: Int, title: String) -> String {
        let width = total == 0 ? 0 : value * chartWidth / total
        return "<svg width=\"\(chartWidth + 2)\" height=\"12\" role=\"img\" aria-label=\"\(HTMLPage.escape(title))\"><rect class=\"track\" x=\"0.5\" y=\"0.5\" width=\"\(chartWidth)\" height=\"11\"/>"
            + "<rect class=\"bar\" x=\"0\" y=\"0\" width=\"\(Swift.max(width, 1))\" height=\"12\"><title>\(HTMLPage.escape(title))</title></rect></svg>"
    }
}
