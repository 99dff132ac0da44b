import FerryCore
import FerryPipeline
import Foundation

/// Machine-readable reports of a validation or conversion for CI (`--report`).
enum ReportFormat: String, CaseIterable {
    /// Compiler-style lines (the default, printed as found).
    case text
    /// `{"valid", "errors", "warnings", ["written", "failed",] ["ignored": [...],] "files": [{"path", "diagnostics": [...]}]}`
    /// (`written` and `failed` for a conversion, counted as the text total counts them).
    case json
    /// JUnit XML: one test case per input, failing when it has errors.
    case junit
    /// GitHub Actions workflow commands: `::error file=..,line=..,col=..::message`.
    case github
    /// One self-contained HTML page: a summary per input, every diagnostic with a code frame
    /// (`HTMLValidationReport`, Docs/reports.md).
    case html

    /// Renders the whole report.
    /// - Parameters:
    ///   - command: the command's name, for the HTML page's title.
    ///   - action: what the run did, for the HTML page's verdict words.
    ///   - ignored: files under folders of datasets that are none (`backups/README.txt`), for the
    ///     JSON report (the text one has their notes on standard error).
    func render(_ reports: [DatasetReport], command: String = "validate", action: ConversionRequest.Action = .validate,
                ignored: [String] = []) -> String {
        switch self {
        case .text: return reports.flatMap(\.diagnostics).map { $0.description + "\n" }.joined()
        case .json: return Self.json(reports, action: action, ignored: ignored)
        case .junit: return Self.junit(reports)
        case .github: return Self.github(reports)
        case .html: return HTMLValidationReport.render(reports, command: command, action: action)
        }
    }

    private static func json(_ reports: [DatasetReport], action: ConversionRequest.Action, ignored: [String]) -> String {
        let errors = reports.reduce(0) { $0 + $1.errorCount }
        let warnings = reports.reduce(0) { $0 + $1.warningCount }
        var out = "{\n  \"valid\": \(errors == 0),\n  \"errors\": \(errors),\n  \"warnings\": \(warnings),\n"
        if action == .convert {
            // As the text total counts them: an input --lenient wrote despite errors is written.
            let failed = Summary.failures(reports, action: action)
            out += "  \"written\": \(reports.count - failed),\n  \"failed\": \(failed),\n"
        }
        if !ignored.isEmpty { out += "  \"ignored\": [" + ignored.map(quote).joined(separator: ", ") + "],\n" }
        out += "  \"files\": ["
        for (i, report) in reports.enumerated() {
            out += (i == 0 ? "\n" : ",\n") + "    {\n      \"path\": \(quote(report.input)),\n"
            out += "      \"valid\": \(report.errorCount == 0),\n      \"records\": \(report.recordCount),\n      \"recordsRead\": \(report.recordsRead),\n      \"diagnostics\": ["
            for (j, d) in report.diagnostics.enumerated() {
                out += (j == 0 ? "\n" : ",\n") + "        {\"severity\": \(quote(d.severity.rawValue)), \"code\": \(quote(d.code.rawValue)), "
                out += "\"message\": \(quote(d.message)), \"location\": \(location(d.location))}"
            }
            out += report.diagnostics.isEmpty ? "]\n    }" : "\n      ]\n    }"
        }
        out += reports.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    private static func location(_ l: SourceLocation) -> String {
        var parts: [String] = []
        if let file = l.file { parts.append("\"file\": \(quote(file))") }
        if let member = l.member { parts.append("\"member\": \(quote(member))") }
        if let line = l.line { parts.append("\"line\": \(line)") }
        if let column = l.column { parts.append("\"column\": \(column)") }
        if let collection = l.collection { parts.append("\"collection\": \(quote(collection))") }
        if let index = l.recordIndex { parts.append("\"record\": \(index)") }
        if let field = l.field { parts.append("\"field\": \(quote(field.description))") }
        if let id = l.recordID { parts.append("\"id\": \(quote(id))") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    private static func junit(_ reports: [DatasetReport]) -> String {
        let failures = reports.filter { $0.errorCount > 0 }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites tests=\"\(reports.count)\" failures=\"\(failures)\">\n"
        out += "  <testsuite name=\"ferry\" tests=\"\(reports.count)\" failures=\"\(failures)\">\n"
        for report in reports {
            out += "    <testcase classname=\"ferry\" name=\(xmlQuote(DiagnosticText.escaped(report.input)))"
            let errors = report.diagnostics.filter { $0.severity == .error }
            if errors.isEmpty {
                out += "/>\n"
                continue
            }
            out += ">\n      <failure message=\(xmlQuote("\(errors.count) error\(errors.count == 1 ? "" : "s")"))>"
            out += xmlEscape(errors.map(\.description).joined(separator: "\n"))
            out += "</failure>\n    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    private static func github(_ reports: [DatasetReport]) -> String {
        var out = ""
        for d in reports.flatMap(\.diagnostics) where d.severity != .note {
            var properties: [String] = []
            var title = d.code.rawValue
            // The message is the text line's body (pointer, message, id), escaped, so data cannot
            // end the command or start another.
            var message = d.body
            if let member = d.location.member {
                // A member's line is not a line of the bundle: GitHub gets the file it can show
                // (the member itself inside a folder bundle, else the archive, with no line), and
                // the title and message name the bundle and the member.
                let bundle = d.location.file ?? "-"
                var place = DiagnosticText.escaped(bundle) + ":" + DiagnosticText.escaped(member)
                title += " in \(place)"
                if let line = d.location.line {
                    place += ":\(line)"
                    if let column = d.location.column { place += ":\(column)" }
                }
                message = "\(place): \(message)"
                if isFolder(bundle) {
                    properties.append("file=\(githubEscape(DiagnosticText.escaped(bundle + "/" + member), property: true))")
                    if let line = d.location.line { properties.append("line=\(line)") }
                    if let column = d.location.column { properties.append("col=\(column)") }
                } else {
                    properties.append("file=\(githubEscape(DiagnosticText.escaped(bundle), property: true))")
                }
            } else {
                if let file = d.location.file { properties.append("file=\(githubEscape(DiagnosticText.escaped(file), property: true))") }
                if let line = d.location.line { properties.append("line=\(line)") }
                if let column = d.location.column { properties.append("col=\(column)") }
            }
            properties.append("title=\(githubEscape(title, property: true))")
            out += "::\(d.severity == .error ? "error" : "warning") \(properties.joined(separator: ","))::\(githubEscape(message, property: false))\n"
        }
        return out
    }

    /// True when `path` is a folder (a folder bundle, whose members are files GitHub can show; a
    /// `--report-file` that names no file).
    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// A JSON string literal.
    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20: out += String(format: "\\u%04x", s.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func xmlEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static func xmlQuote(_ text: String) -> String { "\"" + xmlEscape(text) + "\"" }

    /// GitHub's workflow command escaping: `%`, CR, LF always; `:` and `,` in properties.
    private static func githubEscape(_ text: String, property: Bool) -> String {
        var out = text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
        if property { out = out.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C") }
        return out
    }
}
