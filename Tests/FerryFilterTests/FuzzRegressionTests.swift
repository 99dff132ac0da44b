import FerryCore
import FerryFilter
import FerryTestSupport
import Foundation
import Testing

/// Filters the fuzzer (Fuzz/, `make fuzz`) found a fault with: `Fixtures/fuzz/NAME.txt` beside
/// `NAME.expected`, the `FilterError` description (`column N: message`) parsing must give.
///
/// - `crash-1.txt`: `(` then 1 275 `{`: aggregates nested without the depth limit and overflowed the stack.
@Suite struct FuzzRegressionTests {
    @Test func everyFuzzFindingGivesItsExpectedError() throws {
        let folder = Fixtures.url("fuzz")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".txt") }.sorted()
        #expect(!names.isEmpty)
        for name in names {
            let text = String(decoding: try Fixtures.bytes("fuzz/" + name), as: UTF8.self)
            let expected = try Fixtures.text("fuzz/" + name.replacingOccurrences(of: ".txt", with: ".expected"))
            var found = "accepted\n"
            do {
                _ = try CompiledFilter(text)
            } catch {
                found = error.description + "\n"
            }
            #expect(found == expected, "\(name)")
        }
    }
}
