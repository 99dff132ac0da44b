import FerryCore
import FerryPipeline
import Foundation

/// The frame of every `--report html` page (Docs/reports.md): one self-contained HTML5 document
/// with its style sheet inline, no script, font or image from elsewhere (charts are inline SVG),
/// and the same bytes for the same run: no clock time unless `SOURCE_DATE_EPOCH` gives one.
enum HTMLPage {
    /// `text` safe inside an element or a quoted attribute: `&`, `<`, `>`, `"` and `'` as
    /// references, and the characters HTML forbids or that would disguise the text shown as
    /// visible stand-ins: C0 controls other than tab and line feed as their Control Pictures
    /// (U+2400...U+241F, CR as `␍`), DEL as `␡`, C1 controls as `\u0085`. Invalid UTF-8 in the
    /// input was already U+FFFD when it became a Swift string.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || "&<>\"'".utf8.contains($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;"
            case 0x3C: out += "&lt;"
            case 0x3E: out += "&gt;"
            case 0x22: out += "&quot;"
            case 0x27: out += "&#39;"
            case 0x09, 0x0A: out.unicodeScalars.append(scalar)
            case 0x00..<0x20: out.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out += "\u{2421}"
            case 0x80...0x9F: out += "\\u00" + String(scalar.value, radix: 16, uppercase: true)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The page from `<!DOCTYPE html>` to `</html>` around `body`.
    /// - Parameters:
    ///   - title: the document's title and main heading (`ferry validate`).
    ///   - subtitle: a line under the heading (the inputs), escaped here.
    ///   - body: the page's content, HTML.
    static func document(title: String, subtitle: String, body: String) -> String {
        head(title: title, subtitle: subtitle) + body + tail
    }

    /// The page up to the start of its content (a reporter that streams writes this first).
    static func head(title: String, subtitle: String) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<meta name=\"generator\" content=\"ferry \(FerryVersion.current)\">\n"
        out += "<title>\(escape(title))</title>\n<style>\n\(styleSheet)</style>\n</head>\n<body>\n"
        out += "<header>\n<h1>\(escape(title))</h1>\n<p class=\"subtitle\">\(escape(subtitle))</p>\n</header>\n<main>\n"
        return out
    }

    /// The page from the end of its content on.
    static var tail: String {
        "</main>\n<footer>Written by ferry \(FerryVersion.current)\(generatedAt.map { " on " + $0 } ?? "").</footer>\n</body>\n</html>\n"
    }

    /// `SOURCE_DATE_EPOCH` as an RFC 3339 UTC instant, when set; nil otherwise (the page then
    /// names no time, so two runs on the same inputs write the same bytes). A command that writes
    /// a page refuses a malformed value before it starts (`FerryCommand.sourceDateEpochStamps`).
    static var generatedAt: String? {
        guard let seconds = try? SourceDateEpoch.seconds() else { return nil }
        return RFC3339Fields.timestamp(seconds: seconds, milliseconds: 0)
    }

    /// `1 error`, `2 errors`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// ` of 8 read` when fewer records passed than were read (the others had errors or were left
    /// out), else nothing: as the summary line says `2 of 8 records`. Records read can also be
    /// fewer than those counted (a Firestore document holds its sub-collections).
    static func ofRecordsRead(_ report: DatasetReport) -> String {
        report.recordsRead > report.recordCount ? " of \(report.recordsRead) read" : ""
    }

    /// The records of a table cell: `2 of 8` when some of those read did not pass, else `8`.
    static func recordsPassed(_ report: DatasetReport) -> String {
        report.recordsRead > report.recordCount ? "\(report.recordCount) of \(report.recordsRead)" : "\(report.recordCount)"
    }

    /// The style sheet: system fonts only, light and dark colour schemes, print-friendly.
    static let styleSheet = """
        :root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa;
          --line: #d1d9e0; --error: #cf222e; --warning: #9a6700; --note: #0969da; --ok: #1a7f37;
          --mark: #fff8c5; --old: #ffebe9; --new: #dafbe1; --bar: #0969da; }
        @media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117;
          --panel: #151b23; --line: #3d444d; --error: #ff7b72; --warning: #d29922; --note: #4493f8; --ok: #3fb950;
          --mark: #5a4a00; --old: #4b1113; --new: #0f3d1e; --bar: #4493f8; } }
        body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
        header, main, footer { max-width: 1200px; margin: 0 auto; padding: 0 16px; }
        header { padding-top: 16px; } h1 { font-size: 22px; margin: 0; }
        .subtitle, footer { color: var(--muted); } footer { padding: 24px 16px; font-size: 12px; }
        h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
        h3 { font-size: 15px; margin: 18px 0 6px; }
        code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
        table { border-collapse: collapse; margin: 6px 0 12px; }
        th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
        th { background: var(--panel); font-weight: 600; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
        .verdict-ok { color: var(--ok); font-weight: 600; } .verdict-bad { color: var(--error); font-weight: 600; }
        .error .severity { color: var(--error); } .warning .severity { color: var(--warning); } .note .severity { color: var(--note); }
        .severity { font-weight: 700; text-transform: uppercase; font-size: 11px; letter-spacing: .04em; }
        ol.diagnostics { list-style: none; padding: 0; margin: 0; }
        li.diagnostic { border: 1px solid var(--line); border-left-width: 4px; border-radius: 4px; margin: 8px 0; padding: 6px 10px; }
        li.diagnostic.error { border-left-color: var(--error); } li.diagnostic.warning { border-left-color: var(--warning); }
        li.diagnostic.note { border-left-color: var(--note); } li.diagnostic:target { outline: 2px solid var(--note); }
        .head a.anchor { color: var(--muted); text-decoration: none; margin-right: 6px; }
        .head .code { background: var(--panel); border-radius: 3px; padding: 0 4px; } .where { color: var(--muted); margin-left: 6px; }
        p.message { margin: 4px 0; overflow-wrap: anywhere; } .pointer { font-weight: 600; } .id { color: var(--muted); }
        pre.frame, pre.excerpt { background: var(--panel); border-radius: 4px; padding: 6px 0; margin: 4px 0 2px; overflow-x: auto; }
        pre.frame .line.focus { background: rgba(255, 200, 0, .12); }
        pre.frame .ln { display: inline-block; min-width: 4.5em; padding-right: 10px; text-align: right; color: var(--muted); user-select: none; }
        pre.frame .clip { color: var(--muted); } mark { background: var(--mark); color: inherit; outline: 1px solid var(--warning); border-radius: 2px; }
        pre.excerpt { padding: 6px 10px; }
        .noframe, .capped, .empty { color: var(--muted); font-style: italic; }
        td.old { background: var(--old); } td.new { background: var(--new); } td.old, td.new { overflow-wrap: anywhere; max-width: 420px; }
        .added { color: var(--ok); } .removed { color: var(--error); } .changed { color: var(--warning); }
        svg { vertical-align: middle; } svg .bar { fill: var(--bar); } svg .track { fill: var(--panel); stroke: var(--line); }
        svg .present { fill: var(--ok); } svg .null { fill: var(--warning); } svg .missing { fill: var(--error); }
        svg text { font: 11px system-ui, sans-serif; fill: var(--fg); }
        nav.toc a { margin-right: 10px; } section.dataset { overflow-x: auto; } table.fields td { white-space: nowrap; }

        """
}
