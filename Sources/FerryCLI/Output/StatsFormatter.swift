import FerryCore
import FerryPipeline
import Foundation
import FerrySchemas

/// Renders `ferry stats` (Docs/stats.md): an aligned table per collection, or JSON.
enum StatsFormatter {
    /// A Boolean among the most frequent values, written bare (`true`), not as a string.
    static func booleanText(_ value: Value) -> String { value.boolValue == true ? "true" : "false" }

    /// Cells of text tables are cut to this many characters (the JSON report has them whole).
    static let cellWidth = 32

    // MARK: Text

    /// The text form: a heading per dataset, its media, then a table per collection.
    static func text(_ statistics: DatasetStatistics) -> String {
        let report = statistics.report
        var out = "input: \(DiagnosticText.escaped(report.input)) (\(report.format)"
        if let domain = report.domain {
            out += ", \(domain.rawValue) v\(report.targetVersion ?? report.sourceVersion ?? 0)"
        } else {
            out += ", schema-free"
        }
        out += "): \(report.recordCount) record\(report.recordCount == 1 ? "" : "s")"
        // As the summary line says it: the records read when some did not pass.
        if report.recordsRead > report.recordCount { out += " of \(report.recordsRead) read" }
        // Errors, not records: one record can have several, and a bundle's errors need not be a record's.
        if report.errorCount > 0 {
            out += " (\(report.errorCount) error\(report.errorCount == 1 ? "" : "s"): invalid records are left out; `ferry validate` lists them)"
        }
        out += "\n"
        if let media = report.media {
            let kinds = zip(media.byKind, media.bytesByKind).map { "\($0.kind) \($0.count) (\($1.bytes) bytes)" }.joined(separator: ", ")
            out += "media: \(media.count) file\(media.count == 1 ? "" : "s"), \(media.bytes) bytes: \(kinds)\n"
        }
        for collection in statistics.collections {
            out += "\n" + table(collection)
        }
        return out
    }

    private static func table(_ collection: CollectionStatistics) -> String {
        let name = collection.name.isEmpty ? "(records)" : DiagnosticText.escaped(collection.name)
        var out = "\(name): \(collection.records) record\(collection.records == 1 ? "" : "s")\n"
        var rows = [["FIELD", "KINDS", "COUNT", "NULL", "MISSING", "DISTINCT", "MIN", "MAX", "LENGTH", "ITEMS", "TOP"]]
        for field in collection.fields {
            let (min, max) = range(field)
            rows.append([
                DiagnosticText.escaped(field.pointer),
                kinds(field),
                String(field.count), String(field.nulls), String(field.missing),
                (field.isDistinctExact ? "" : "~") + String(field.distinct),
                min.map(cut) ?? "", max.map(cut) ?? "",
                field.stringLengths.map { "\($0.lowerBound)..\($0.upperBound)" } ?? "",
                field.listLengths.map { "\($0.lowerBound)..\($0.upperBound) mean \(String(format: "%.2f", field.meanListLength ?? 0))" } ?? "",
                field.topValues.map { ($0.value.stringValue.map { cut(DiagnosticText.quoted($0)) } ?? Self.booleanText($0.value)) + " \($0.count)" }.joined(separator: ", "),
            ])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            var line = ""
            for (column, cell) in row.enumerated() {
                line += cell
                if column < row.count - 1 { line += String(repeating: " ", count: widths[column] - cell.count + 2) }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += "  " + line + "\n"
        }
        if collection.fieldsLeftOut > 0 {
            out += "  (\(collection.fieldsLeftOut) more fields past the first \(CollectionStatistics.fieldLimit) not followed)\n"
        }
        return out
    }

    /// The kinds a field held, in a fixed order: `string|number`.
    static func kinds(_ field: FieldStatistics) -> String {
        ["string", "number", "bool", "object", "list", "null"].filter { field.kinds[$0] != nil }.joined(separator: "|")
    }

    /// The field's smallest and largest value as text: numbers when it holds any, else instants.
    static func range(_ field: FieldStatistics) -> (String?, String?) {
        if let min = field.minNumber, let max = field.maxNumber { return (min.text, max.text) }
        return (field.minInstant?.text, field.maxInstant?.text)
    }

    private static func cut(_ text: String) -> String {
        let escaped = DiagnosticText.escaped(text)
        return escaped.count <= cellWidth ? escaped : String(escaped.prefix(cellWidth - 3)) + "..."
    }

    // MARK: JSON

    /// The JSON form of one dataset (Docs/stats.md "JSON report").
    static func json(_ statistics: DatasetStatistics) -> String {
        let report = statistics.report
        var out = "{\n  \"input\": \(ReportFormat.quote(report.input)),\n  \"format\": \(ReportFormat.quote(report.format)),\n"
        out += "  \"domain\": \(report.domain.map { ReportFormat.quote($0.rawValue) } ?? "null"),\n"
        out += "  \"schemaVersion\": \((report.domain == nil ? nil : report.targetVersion ?? report.sourceVersion).map(String.init) ?? "null"),\n"
        out += "  \"records\": \(report.recordCount),\n  \"recordsRead\": \(report.recordsRead),\n  \"errors\": \(report.errorCount),\n  \"warnings\": \(report.warningCount),\n"
        if let media = report.media {
            out += "  \"media\": {\"files\": \(media.count), \"bytes\": \(media.bytes), \"byKind\": {"
            out += zip(media.byKind, media.bytesByKind).map { "\(ReportFormat.quote($0.kind)): {\"files\": \($0.count), \"bytes\": \($1.bytes)}" }
                .joined(separator: ", ")
            out += "}},\n"
        } else {
            out += "  \"media\": null,\n"
        }
        out += "  \"collections\": ["
        out += statistics.collections.map(collectionJSON).joined(separator: ",")
        out += statistics.collections.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    private static func collectionJSON(_ collection: CollectionStatistics) -> String {
        var out = "\n    {\n      \"name\": \(ReportFormat.quote(collection.name)),\n      \"records\": \(collection.records),\n"
        out += "      \"fieldsLeftOut\": \(collection.fieldsLeftOut),\n      \"fields\": ["
        out += collection.fields.map { "\n        " + fieldJSON($0) }.joined(separator: ",")
        out += collection.fields.isEmpty ? "]\n    }" : "\n      ]\n    }"
        return out
    }

    private static func fieldJSON(_ field: FieldStatistics) -> String {
        var members: [String] = []
        members.append("\"field\": \(ReportFormat.quote(field.pointer))")
        let kinds = ["string", "number", "bool", "object", "list", "null"].compactMap { kind in
            field.kinds[kind].map { "\(ReportFormat.quote(kind)): \($0)" }
        }
        members.append("\"kinds\": {\(kinds.joined(separator: ", "))}")
        members.append("\"count\": \(field.count)")
        members.append("\"nulls\": \(field.nulls)")
        members.append("\"missing\": \(field.missing)")
        members.append("\"distinct\": \(field.distinct)")
        members.append("\"distinctExact\": \(field.isDistinctExact)")
        if let min = field.minNumber, let max = field.maxNumber {
            members.append("\"min\": \(number(min.text, min.value))")
            members.append("\"max\": \(number(max.text, max.value))")
        } else {
            members.append("\"min\": \(field.minInstant.map { ReportFormat.quote($0.text) } ?? "null")")
            members.append("\"max\": \(field.maxInstant.map { ReportFormat.quote($0.text) } ?? "null")")
        }
        members.append("\"length\": " + (field.stringLengths.map { "{\"min\": \($0.lowerBound), \"max\": \($0.upperBound)}" } ?? "null"))
        if let lengths = field.listLengths, let mean = field.meanListLength {
            members.append("\"items\": {\"min\": \(lengths.lowerBound), \"max\": \(lengths.upperBound), \"mean\": \(NumberText.ecmaScript(mean) ?? "0")}")
        } else {
            members.append("\"items\": null")
        }
        let top = field.topValues.map { "{\"value\": \($0.value.stringValue.map(ReportFormat.quote) ?? Self.booleanText($0.value)), \"count\": \($0.count)}" }
        members.append("\"top\": [\(top.joined(separator: ", "))]")
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A number as JSON: its text when that is JSON's grammar (RFC 8259 section 6), else the
    /// shortest text of its double (CSV cells such as `+5` or `.5`).
    private static func number(_ text: String, _ value: Double) -> String {
        if isJSONNumber(text) { return text }
        return NumberText.ecmaScript(value) ?? "null"
    }

    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        let first = bytes.first
        let whole = digits()
        guard whole > 0, first != UInt8(ascii: "0") || whole == 1 else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
