import FerryCore
import FerryTestSupport
import Foundation
import FormatXML
import Testing

/// Inputs the fuzzer (Fuzz/, `make fuzz`) found a fault with, each read again with its exact
/// expected diagnostic: `Fixtures/fuzz/NAME.xml` beside `NAME.expected` (the compiler-style
/// line of the first diagnostic, file named NAME.xml; empty when the input must be accepted).
///
/// - `leak-1.xml`: an entity named like a predefined one made libxml2 build a document of its own,
///   which the parser context did not free (LeakSanitizer); it also printed a line to stderr.
@Suite struct FuzzRegressionTests {
    static func firstDiagnostic(_ bytes: [UInt8], name: String) -> Diagnostic? {
        let log = DiagnosticLog()
        do {
            let reader = try XMLFormatReader().makeReader(MemorySource(bytes), options: ReadOptions(fileName: name), log: log)
            while try reader.next() != nil {}
        } catch let error as FerryError {
            log.report(error.diagnostic)
        } catch {
            return Diagnostic.error(.internalError, "\(error)")
        }
        return log.diagnostics.first
    }

    @Test func everyFuzzFindingGivesItsExpectedDiagnostic() throws {
        let folder = Fixtures.url("fuzz")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".xml") }.sorted()
        #expect(!names.isEmpty)
        for name in names {
            let bytes = try Fixtures.bytes("fuzz/" + name)
            let expected = try Fixtures.text("fuzz/" + name.replacingOccurrences(of: ".xml", with: ".expected"))
            let found = Self.firstDiagnostic(bytes, name: name).map { $0.description + "\n" } ?? ""
            #expect(found == expected, "\(name)")
        }
    }
}
