import FerryCore
import Testing

@Suite struct DiagnosticTests {
    @Test func printsCompilerStyle() {
        let location = SourceLocation(file: "notes.json", line: 14, column: 7, field: "/wineTastingNotes/3/rating")
        let diagnostic = Diagnostic.error(.outOfRange, "rating 7 is out of range 0...5", at: location)
        #expect(diagnostic.description == "notes.json:14:7: error: /wineTastingNotes/3/rating: rating 7 is out of range 0...5 [out-of-range]")
    }

    @Test func namesTheRecordsID() {
        var location = SourceLocation(file: "w.json", line: 5, column: 108, field: "/words/2/studyState")
        location.recordID = "x\n7"
        let diagnostic = Diagnostic.error(.invalidValue, "studyState 7 is not 0, 1 or 2", at: location)
        #expect(diagnostic.description == #"w.json:5:108: error: /words/2/studyState: studyState 7 is not 0, 1 or 2 (id "x\n7") [invalid-value]"#)
        // A message that quotes the id already does not repeat it.
        let duplicate = Diagnostic.error(.duplicateID, "duplicate id \(quoted: "x\n7") in words", at: location)
        #expect(duplicate.description == #"w.json:5:108: error: /words/2/studyState: duplicate id "x\n7" in words [duplicate-id]"#)
    }

    @Test func escapesEveryControl() {
        let controls = String(String.UnicodeScalarView((0x00...0x1F).map { Unicode.Scalar($0)! }))
        #expect(DiagnosticText.escaped(controls)
            == #"\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0008\t\n\u000B\u000C\r\u000E\u000F"#
            + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001A\u001B\u001C\u001D\u001E\u001F"#)
        #expect(DiagnosticText.escaped("a\u{7F}\u{80}\u{85}\u{9F}\u{A0}é\u{2028}\u{2029}\u{FFFD}🍷\"\\")
            == #"a\u007F\u0080\u0085\u009F\#u{A0}é\u2028\u2029\uFFFD🍷"\"#)
        #expect(DiagnosticText.quoted("say \"hi\"\\\n") == #""say \"hi\"\\\n""#)
        // Escaping twice changes nothing: a message built with `quoted` goes through `escaped` again.
        let once = DiagnosticText.quoted("\u{0}\r\u{2028}")
        #expect(DiagnosticText.escaped(once) == once)
    }

    @Test func forgedTextStaysOnItsLine() {
        let location = SourceLocation(file: "a\nx.json", member: "data/\r.json", line: 1, column: 2, field: JSONPointer(tokens: ["w\n", "0"]))
        let diagnostic = Diagnostic(.error, .typeError, "title \(quoted: "\nx.json:1:1: error: forged") \u{1B}[2K",
            at: location, excerpt: "a\u{0}\rb\n  ^")
        #expect(diagnostic.description == #"a\nx.json:data/\r.json:1:2: error: /w\n/0: title "\nx.json:1:1: error: forged" \u001B[2K [type-error]"#
            + "\n    " + #"a\u0000\rb"# + "\n      ^")
    }

    @Test func memberStandsBetweenFileAndLine() {
        let location = SourceLocation(file: "pets.tar", member: "data/stories.json", line: 3, column: 5)
        #expect(location.description == "pets.tar:data/stories.json:3:5")
    }

    @Test func logKeepsTheWorstStatus() {
        let log = DiagnosticLog()
        log.report(.warning(.lossyDrop, "x"))
        #expect(log.exitStatus == .success)
        log.report(.error(.typeError, "x"))
        log.report(.error(.malformedJSON, "x"))
        #expect(log.exitStatus == .malformedInput)
        #expect(log.errorCount == 2 && log.warningCount == 1)
    }

    /// A log that keeps some diagnostics counts and passes on every one.
    @Test func logKeepsWhatItIsAskedToAndCountsEveryOne() {
        let seen = DiagnosticLog()
        let log = DiagnosticLog(onReport: { seen.report($0) }, keeps: { $0.exitStatus > .invalidData })
        log.report(.warning(.lossyDrop, "w"))
        log.report(.error(.typeError, "t"))
        log.report(.note(.assumption, "n"))
        log.report(.error(.unreadableInput, "u"))
        #expect(log.diagnostics.map(\.description) == ["ferry: error: u [unreadable-input]"])
        #expect(log.errorCount == 2 && log.warningCount == 1)
        #expect(log.exitStatus == .malformedInput)
        #expect(seen.diagnostics.map(\.message) == ["w", "t", "n", "u"])
    }

    @Test func everyCodeIsKebabCase() {
        for code in Diagnostic.Code.all {
            #expect(code.rawValue.allSatisfy { $0.isLowercase || $0 == "-" }, "\(code)")
        }
        #expect(Set(Diagnostic.Code.all).count == Diagnostic.Code.all.count)
    }

    @Test func registryFindsLongestExtension() {
        let registry = FormatRegistry([
            FormatDescriptor(name: "gz", extensions: ["gz"], summary: "", reader: nil, writer: nil),
            FormatDescriptor(name: "tar", extensions: ["tar", "tar.gz"], summary: "", reader: nil, writer: nil),
        ])
        #expect(registry.format(forPath: "x.TAR.GZ")?.name == "tar")
        #expect(registry.format(named: "Tar")?.name == "tar")
    }
}
