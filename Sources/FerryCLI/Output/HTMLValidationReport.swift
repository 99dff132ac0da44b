import FerryCore
import FerryPipeline
import FerrySchemas

/// `--report html` of `validate`, `convert`, `migrate` and `run` (Docs/reports.md): a table of
/// the inputs, then per input its summary, its diagnostics counted by code, and every diagnostic
/// with an anchor (`#f2-d17`: input 2, diagnostic 17), its code, severity, position, JSON Pointer,
/// message and a code frame read back from the input (`CodeFrameReader`).
enum HTMLValidationReport {
    /// Code frames shown per input; later diagnostics are listed without one (and the page says so),
    /// which keeps a page of many thousands of problems light enough to open.
    static let frameLimit = 1_000

    /// The whole page.
    /// - Parameters:
    ///   - reports: one per input, in order.
    ///   - command: the command's name for the title (`validate`, `run`).
    ///   - action: what the run did, for the verdicts' words (valid/invalid, written/failed).
    static func render(_ reports: [DatasetReport], command: String, action: ConversionRequest.Action) -> String {
        let errors = reports.reduce(0) { $0 + $1.errorCount }
        let warnings = reports.reduce(0) { $0 + $1.warningCount }
        let failed = Summary.failures(reports, action: action)
        let (good, bad) = Summary.words(action)
        let subtitle = "\(HTMLPage.count(reports.count, "input")): \(reports.count - failed) \(good), \(failed) \(bad); "
            + "\(HTMLPage.count(errors, "error")), \(HTMLPage.count(warnings, "warning"))"
        var body = "<section class=\"summary\">\n<h2>Inputs</h2>\n" + summaryTable(reports, action: action) + "</section>\n"
        for (index, report) in reports.enumerated() {
            body += fileSection(report, number: index + 1, action: action)
        }
        return HTMLPage.document(title: "ferry \(command)", subtitle: subtitle, body: body)
    }

    /// One row per input: domain, version, format, records, errors, warnings, notes, verdict.
    static func summaryTable(_ reports: [DatasetReport], action: ConversionRequest.Action) -> String {
        var out = "<table class=\"inputs\">\n<thead><tr><th>Input</th><th>Domain</th><th>Version</th><th>Format</th>"
        out += "<th class=\"num\">Records</th><th class=\"num\">Errors</th><th class=\"num\">Warnings</th><th class=\"num\">Notes</th><th>Verdict</th></tr></thead>\n<tbody>\n"
        for (index, report) in reports.enumerated() {
            out += "<tr><td><a href=\"#f\(index + 1)\">\(HTMLPage.escape(report.input))</a></td>"
            out += "<td>\(HTMLPage.escape(report.domain?.rawValue ?? "schema-free"))</td><td>\(version(report))</td>"
            out += "<td>\(HTMLPage.escape(report.format))</td><td class=\"num\">\(HTMLPage.recordsPassed(report))</td>"
            out += "<td class=\"num\">\(report.errorCount)</td><td class=\"num\">\(report.warningCount)</td>"
            out += "<td class=\"num\">\(notes(report))</td><td>\(verdict(report, action: action))</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    private static func version(_ report: DatasetReport) -> String {
        guard report.domain != nil else { return "" }
        var text = report.sourceVersion.map(String.init) ?? "?"
        if let target = report.targetVersion, target != report.sourceVersion { text += " &#8594; \(target)" }
        return text
    }

    private static func notes(_ report: DatasetReport) -> Int {
        report.diagnostics.reduce(0) { $0 + ($1.severity == .note ? 1 : 0) }
    }

    private static func verdict(_ report: DatasetReport, action: ConversionRequest.Action) -> String {
        let (good, bad) = Summary.words(action)
        if report.status == .success { return "<span class=\"verdict-ok\">\(good)</span>" }
        // --lenient wrote the valid records of an invalid input.
        if Summary.failures([report], action: action) == 0 { return "<span class=\"verdict-bad\">\(good) (exit \(report.status.rawValue))</span>" }
        return "<span class=\"verdict-bad\">\(bad) (exit \(report.status.rawValue))</span>"
    }

    /// An input's section: summary, counts by code, diagnostics.
    static func fileSection(_ report: DatasetReport, number: Int, action: ConversionRequest.Action) -> String {
        var out = "<section class=\"file\" id=\"f\(number)\">\n<h2>\(HTMLPage.escape(report.input))</h2>\n"
        var facts = [report.domain.map { "\($0.rawValue) v\(version(report))" } ?? "schema-free", HTMLPage.escape(report.format)]
        facts.append(HTMLPage.count(report.recordCount, "record") + HTMLPage.ofRecordsRead(report))
        if !report.collections.isEmpty {
            facts.append(report.collections.map { HTMLPage.escape($0.name.isEmpty ? "records" : $0.name) + " \($0.count)" }.joined(separator: ", "))
        }
        if let output = report.output { facts.append("written to " + (output == "-" ? "standard output" : HTMLPage.escape(output))) }
        out += "<p class=\"facts\">\(facts.joined(separator: " &#183; ")) &#183; \(verdict(report, action: action))</p>\n"
        guard !report.diagnostics.isEmpty else { return out + "<p class=\"empty\">No diagnostics.</p>\n</section>\n" }
        out += codeTable(report.diagnostics, number: number)
        let framed = report.diagnostics.indices.filter { report.diagnostics[$0].location.line != nil }.prefix(frameLimit)
        let wanted = Set(framed)
        let frames = CodeFrameReader().frames(for: framed.map { report.diagnostics[$0].location })
        var frameOf: [Int: CodeFrame] = [:]
        for (slot, index) in framed.enumerated() { frameOf[index] = frames[slot] }
        let withLine = report.diagnostics.reduce(0) { $0 + ($1.location.line != nil ? 1 : 0) }
        if withLine > frameLimit {
            out += "<p class=\"capped\">Code frames are shown for the first \(frameLimit) diagnostics with a line; "
                + "the other \(withLine - frameLimit) are listed without one.</p>\n"
        }
        out += "<ol class=\"diagnostics\">\n"
        for (index, diagnostic) in report.diagnostics.enumerated() {
            out += item(diagnostic, anchor: "f\(number)-d\(index + 1)", number: index + 1, frame: frameOf[index],
                        framed: wanted.contains(index))
        }
        return out + "</ol>\n</section>\n"
    }

    /// The diagnostics counted by code, most first (ties by code), each linking to its first one.
    private static func codeTable(_ diagnostics: [Diagnostic], number: Int) -> String {
        var counts: [String: (severity: Diagnostic.Severity, count: Int, first: Int)] = [:]
        for (index, diagnostic) in diagnostics.enumerated() {
            let code = diagnostic.code.rawValue
            if let seen = counts[code] {
                counts[code] = (max(seen.severity, diagnostic.severity), seen.count + 1, seen.first)
            } else {
                counts[code] = (diagnostic.severity, 1, index)
            }
        }
        let rows = counts.sorted { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }
        var out = "<table class=\"codes\">\n<thead><tr><th>Code</th><th>Severity</th><th class=\"num\">Count</th><th>First</th></tr></thead>\n<tbody>\n"
        for (code, entry) in rows {
            out += "<tr class=\"\(entry.severity.rawValue)\"><td><code>\(HTMLPage.escape(code))</code></td>"
            out += "<td><span class=\"severity\">\(entry.severity.rawValue)</span></td><td class=\"num\">\(entry.count)</td>"
            out += "<td><a href=\"#f\(number)-d\(entry.first + 1)\">#\(entry.first + 1)</a></td></tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    /// One diagnostic: head line (anchor, severity, code, position), message, then its code frame
    /// or excerpt.
    static func item(_ diagnostic: Diagnostic, anchor: String, number: Int, frame: CodeFrame?, framed: Bool) -> String {
        let severity = diagnostic.severity.rawValue
        var out = "<li class=\"diagnostic \(severity)\" id=\"\(anchor)\" data-code=\"\(HTMLPage.escape(diagnostic.code.rawValue))\">\n"
        out += "<div class=\"head\"><a class=\"anchor\" href=\"#\(anchor)\">#\(number)</a><span class=\"severity\">\(severity)</span> "
        out += "<code class=\"code\">\(HTMLPage.escape(diagnostic.code.rawValue))</code>"
        out += "<span class=\"where mono\">\(HTMLPage.escape(position(diagnostic.location)))</span></div>\n"
        out += "<p class=\"message\">"
        if let field = diagnostic.location.field, !field.tokens.isEmpty {
            out += "<code class=\"pointer\">\(HTMLPage.escape(field.description))</code> "
        }
        out += HTMLPage.escape(diagnostic.message)
        if let id = diagnostic.location.recordID {
            out += " <span class=\"id\">(id \(HTMLPage.escape(DiagnosticText.quoted(id))))</span>"
        }
        out += "</p>\n"
        if let excerpt = diagnostic.excerpt {
            out += "<pre class=\"excerpt\">\(HTMLPage.escape(excerpt))</pre>\n"
        }
        if let frame {
            out += frameHTML(frame)
        } else if framed {
            let reason = diagnostic.location.file == "-" ? "standard input is read once" : "the source lines could not be read back"
            out += "<p class=\"noframe\">No code frame: \(reason).</p>\n"
        }
        return out + "</li>\n"
    }

    /// `FILE[:MEMBER][:LINE[:COL]]`, then the collection and record index when known.
    private static func position(_ location: SourceLocation) -> String {
        var text = location.description
        if let collection = location.collection, let index = location.recordIndex {
            text += (text.isEmpty ? "" : " ") + "(record \(index) of \(DiagnosticText.escaped(collection)))"
        }
        return text
    }

    /// The frame as a `<pre>`: one line per source line, numbered, cut lines marked `…`, the
    /// token at the diagnostic's column in a `<mark>`.
    static func frameHTML(_ frame: CodeFrame) -> String {
        var out = "<pre class=\"frame\">"
        for line in frame.lines {
            let focus = line.number == frame.line
            out += "<span class=\"line\(focus ? " focus" : "")\"><span class=\"ln\">\(line.number)</span>"
            if line.clippedBefore { out += "<span class=\"clip\">&#8230;</span>" }
            if focus, let highlight = frame.highlight {
                let scalars = Array(line.text.unicodeScalars)
                out += HTMLPage.escape(text(scalars[..<highlight.lowerBound]))
                out += "<mark>" + HTMLPage.escape(text(scalars[highlight])) + "</mark>"
                out += HTMLPage.escape(text(scalars[highlight.upperBound...]))
            } else {
                out += HTMLPage.escape(line.text)
            }
            if line.clippedAfter { out += "<span class=\"clip\">&#8230;</span>" }
            out += "</span>\n"
        }
        return out + "</pre>\n"
    }

    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var out = ""
        out.unicodeScalars.append(contentsOf: scalars)
        return out
    }
}
