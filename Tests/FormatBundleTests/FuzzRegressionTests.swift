import FerryCore
import FerryTestSupport
import Foundation
import FormatBundle
import Testing

/// Inputs the fuzzer (Fuzz/, `make fuzz`) found a fault with, read again with the fuzz target's
/// limits (1 MiB members and manifest): `Fixtures/fuzz/NAME.tar` beside `NAME.expected`, the
/// compiler-style lines of every diagnostic, the file named NAME.tar.
///
/// - `crash-1.tar`: a GNU sparse member whose content outgrows the member limit while it is read;
///   the `too-large` diagnostic had no position (the fuzz target's position check trapped).
@Suite struct FuzzRegressionTests {
    @Test func everyFuzzFindingGivesItsExpectedDiagnostics() throws {
        let folder = Fixtures.url("fuzz")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tar") }.sorted()
        #expect(!names.isEmpty)
        for name in names {
            let log = DiagnosticLog()
            let work = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: work) }
            try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: work.appendingPathComponent(name))
            // An absolute path, not a changed working directory: tests run in parallel in one process.
            let path = work.appendingPathComponent(name).path
            _ = try BundleReader(path: path, options: .init(maximumMemberSize: 1 << 20, maximumManifestSize: 1 << 20), log: log)
            let found = log.diagnostics.map { $0.description.replacingOccurrences(of: work.path + "/", with: "") + "\n" }.joined()
            let expected = try Fixtures.text("fuzz/" + name.replacingOccurrences(of: ".tar", with: ".expected"))
            #expect(found == expected, "\(name)")
            #expect(log.diagnostics.allSatisfy { $0.location.file == path }, "\(name): a diagnostic without its file")
        }
    }
}
