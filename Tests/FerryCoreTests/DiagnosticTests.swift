import FerryCore
import Testing

@Suite struct DiagnosticTests {
    @Test func printsCompilerStyle() {
        let location = SourceLocation(file: "notes.json", line: 14, column: 7, field: "/wineTastingNotes/3/rating")
        let diagnostic = Diagnostic.error(.outOfRange, "rating 7 is out of range 0...5", at: location)
        #expect(diagnostic.description == "notes.json:14:7: error: rating 7 is out of range 0...5 [out-of-range]")
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
