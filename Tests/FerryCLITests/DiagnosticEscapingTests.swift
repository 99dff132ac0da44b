import FerryTestSupport
import Foundation
import Testing

/// Data cannot forge diagnostics: every C0 control, DEL, the C1 controls, U+2028/2029, quotes,
/// backslashes and a whole forged diagnostic, put in values and in a file name, come out escaped,
/// one line per diagnostic, through the real binary, from JSON, JSON Lines, CSV and XML.
@Suite struct DiagnosticEscapingTests {
    /// The hostile texts, each short enough to be quoted whole (messages cut values at 40 characters).
    static let payloads: [String] = [
        String(String.UnicodeScalarView((0x00...0x13).map { Unicode.Scalar($0)! })),
        String(String.UnicodeScalarView((0x14...0x1F).map { Unicode.Scalar($0)! })) + "\u{7F}",
        String(String.UnicodeScalarView((0x80...0x9F).map { Unicode.Scalar($0)! })),
        "\u{2028}\u{2029}\"q\"\\",
        "\nf.json:1:1: error: forged [type-error]",
        "\n::error::forged\r\u{1B}[2K",
    ]

    /// XML 1.0 has no other C0 control than tab, line feed and carriage return, even as a
    /// character reference: the XML input carries those and the rest of the payloads.
    static let xmlPayloads: [String] = payloads.map { text in
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 || [0x09, 0x0A, 0x0D].contains($0.value) }))
    }

    /// The escaping the diagnostics promise, written out independently of the product.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029: out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x00..<0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static let columns = ["id", "title", "category", "createdAt", "alcoholByVolume", "look.tint", "look.note",
                          "grape.variety", "think", "rating", "isFavorite"]

    static func cells(_ index: Int, createdAt: String) -> [String] {
        ["n-\(index)", "T", "red", createdAt, "14", "ruby", "", "x", "", "3", "false"]
    }

    static func jsonRecord(_ index: Int, createdAt: String) -> String {
        #"{"id":"n-\#(index)","title":"T","category":"red","createdAt":\#(jsonString(createdAt)),"alcoholByVolume":14,"#
            + #""look":{"tint":"ruby","note":""},"smells":[],"tastes":[],"grape":{"variety":"x"},"think":"","rating":3,"isFavorite":false}"#
    }

    /// Writes the input of `format` holding one wine note per payload; returns its name.
    static func write(_ format: String, in box: Sandbox, name: String = "in") throws -> String {
        switch format {
        case "json":
            let records = payloads.enumerated().map { jsonRecord($0.offset, createdAt: $0.element) }
            try box.write(name + ".json", #"{"domain":"notes","schemaVersion":2,"wineTastingNotes":["# + "\n"
                + records.joined(separator: ",\n") + "\n]}\n")
            return name + ".json"
        case "jsonl":
            let records = payloads.enumerated().map {
                #"{"$collection":"wineTastingNotes","# + jsonRecord($0.offset, createdAt: $0.element).dropFirst()
            }
            try box.write(name + ".jsonl", #"{"domain":"notes","schemaVersion":2}"# + "\n" + records.joined(separator: "\n") + "\n")
            return name + ".jsonl"
        case "csv":
            let quote = { (cell: String) in "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            var text = columns.joined(separator: ",") + "\r\n"
            for (index, payload) in payloads.enumerated() {
                text += cells(index, createdAt: payload).map(quote).joined(separator: ",") + "\r\n"
            }
            try box.write(name + "/wineTastingNotes.csv", text)
            return name
        default:
            var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<dataset domain="notes" schemaVersion="2"><wineTastingNotes>"# + "\n"
            for (index, payload) in xmlPayloads.enumerated() {
                var escaped = ""
                for scalar in payload.unicodeScalars {
                    switch scalar {
                    case "&": escaped += "&amp;"
                    case "<": escaped += "&lt;"
                    case "\r": escaped += "&#13;"
                    default: escaped.unicodeScalars.append(scalar)
                    }
                }
                text += "<WineTastingNote><id>n-\(index)</id><title>T</title><category>red</category>"
                text += "<createdAt>\(escaped)</createdAt><alcoholByVolume>14</alcoholByVolume>"
                text += "<look><tint>ruby</tint><note></note></look><smells type=\"list\"/><tastes type=\"list\"/>"
                text += "<grape><variety>x</variety></grape><think></think><rating>3</rating><isFavorite>false</isFavorite></WineTastingNote>\n"
            }
            try box.write(name + ".xml", text + "</wineTastingNotes></dataset>\n")
            return name + ".xml"
        }
    }

    /// Nothing in `text` can end a line early, move the cursor or look binary: its only control
    /// is the line feed ending each line.
    static func expectOnlyPrintable(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let bad = text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
        }
        #expect(bad.isEmpty, "raw controls in the output: \(bad.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation)
    }

    @Test(arguments: ["json", "jsonl", "csv", "xml"])
    func hostileValuesStayOnTheirLine(_ format: String) throws {
        let box = try Sandbox()
        let input = try Self.write(format, in: box)
        let run = try box.ferry(["validate", input])
        #expect(run.status == 1)
        Self.expectOnlyPrintable(run.stderr)
        let payloads = format == "xml" ? Self.xmlPayloads : Self.payloads
        // One line per broken record, then the summary; nothing else.
        #expect(run.stderrLines.count == payloads.count + 1)
        #expect(run.stderrLines.last?.hasPrefix(input + ": notes v2: ") == true)
        let column = format == "csv" ? " (column 'createdAt')" : ""
        let file = format == "csv" ? "in/wineTastingNotes.csv" : input
        for (index, payload) in payloads.enumerated() {
            let body = ": error: /wineTastingNotes/\(index)/createdAt: createdAt \(Self.quoted(payload)) "
                + "is not an RFC 3339 instant (YYYY-MM-DDTHH:MM:SSZ)\(column) (id \"n-\(index)\") [invalid-value]"
            let line = run.stderrLines.first { $0.hasSuffix(body) }
            #expect(line?.hasPrefix(file + ":") == true, "no line ends with \(body)")
        }
        // The forged diagnostic is inside a quoted value, never at the start of a line.
        #expect(!run.stderrLines.contains { $0.hasPrefix("f.json") || $0.hasPrefix("::error") })
    }

    /// The same through the colour printer, GitHub and JUnit reports.
    @Test func reportsEscapeToo() throws {
        let box = try Sandbox()
        let input = try Self.write("jsonl", in: box)
        let forged = Self.quoted(Self.payloads[4])
        let github = try box.ferry(["validate", input, "--report", "github", "--quiet"])
        Self.expectOnlyPrintable(github.stdout)
        #expect(github.stdout.split(separator: "\n").count == Self.payloads.count)
        #expect(github.stdout.contains("::error file=in.jsonl,line=6,col=87,title=invalid-value::/wineTastingNotes/4/createdAt: "
            + "createdAt \(forged) is not an RFC 3339 instant (YYYY-MM-DDTHH:MM:SSZ) (id \"n-4\")\n"))
        let junit = try box.ferry(["validate", input, "--report", "junit", "--quiet"])
        Self.expectOnlyPrintable(junit.stdout.replacingOccurrences(of: "\n", with: ""))
        #expect(!junit.stdout.contains("\nf.json"))
    }

    /// The colour printer (standard error a terminal: run under `script`) escapes the same parts.
    @Test func colourLinesEscapeToo() throws {
        guard let script = toolOnPath("script") else { return }
        let box = try Sandbox()
        let input = try Self.write("jsonl", in: box)
        let command = "'\(ferryExecutable().path)' validate \(input)"
        let run = try runTool("/usr/bin/env", ["-u", "NO_COLOR", "TERM=xterm", script, "-qec", command, "/dev/null"], in: box.url)
        #expect(run.status == 1)
        // The terminal ends lines with CR LF; the colour codes are Ferry's own.
        #expect(run.output.contains("\u{1B}[1;31merror:\u{1B}[0m"))
        let plain = run.output.replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        Self.expectOnlyPrintable(plain)
        let lines = plain.split(separator: "\n").map(String.init)
        #expect(lines.count == Self.payloads.count + 1)
        #expect(lines.contains(#"in.jsonl:6:87: error: /wineTastingNotes/4/createdAt: createdAt "\nf.json:1:1: error: forged [type-error]" is not an RFC 3339 instant (YYYY-MM-DDTHH:MM:SSZ) (id "n-4") [invalid-value]"#))
    }

    /// A file name holding a line break and a forged diagnostic is escaped where it is printed.
    @Test func hostileFileName() throws {
        let box = try Sandbox()
        let name = "a\nf.json:1:1: error: forged\r\u{7}"
        try box.write(name + ".jsonl", #"{"domain":"notes","schemaVersion":2}"# + "\n"
            + #"{"$collection":"wineTastingNotes","# + Self.jsonRecord(0, createdAt: "nope").dropFirst() + "\n")
        let run = try box.ferry(["validate", name + ".jsonl"])
        #expect(run.status == 1)
        Self.expectOnlyPrintable(run.stderr)
        #expect(run.stderrLines == [
            #"a\nf.json:1:1: error: forged\r\u0007.jsonl:2:87: error: /wineTastingNotes/0/createdAt: createdAt "nope" is not an RFC 3339 instant (YYYY-MM-DDTHH:MM:SSZ) (id "n-0") [invalid-value]"#,
            #"a\nf.json:1:1: error: forged\r\u0007.jsonl: notes v2: wineTastingNotes 0, coffeeTastingNotes 0, whiskeyTastingNotes 0, cocktailTastingNotes 0 (0 of 1 record valid, 1 error, 0 warnings); invalid"#,
        ])
    }

    /// A filter's excerpt shows its text on one escaped line, the caret under the bad character.
    @Test func hostileFilterExpression() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        let run = try box.ferry(["convert", "notes-v1.json", "--where", "ratng\r\u{7} > 4\nferry: error: forged", "-o", "out.json"])
        #expect(run.status == 2)
        Self.expectOnlyPrintable(run.stderr)
        #expect(Array(run.stderrLines.prefix(3)) == [
            #"--where:1:7: error: unexpected character '\u{07}' [usage]"#,
            #"    ratng\r\u0007 > 4\nferry: error: forged"#,
            "           ^",
        ])
    }

    /// A hostile argument in a usage error stays on its line too.
    @Test func hostileArgument() throws {
        let run = try runFerry(["validate", "--bogus\nferry: error: forged"])
        #expect(run.status == 2)
        Self.expectOnlyPrintable(run.stderr)
        #expect(run.stderr.hasPrefix(#"ferry validate: error: unknown option '--bogus\nferry: error: forged'"#))
    }
}
