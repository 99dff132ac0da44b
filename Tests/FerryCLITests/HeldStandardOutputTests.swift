import FerryCore
import Foundation
import Testing

@testable import FerryPipeline

#if canImport(Glibc)
import Glibc
#endif

/// What `HeldStandardOutput` gives out: the bytes written, in order, from memory and, past its
/// budget, from its spool file; nothing after `discard()`; a clear error when the temporary
/// file cannot be made.
@Suite struct HeldStandardOutputTests {
    /// The bytes `held` releases, read back from a temporary file standing for standard output.
    static func released(_ held: HeldStandardOutput) throws -> [UInt8] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("held-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try held.release(to: descriptor)
        return Array(try Data(contentsOf: url))
    }

    @Test(arguments: [1 << 20, 8, 5, 1, 0])
    func everyByteComesOutInOrder(budget: Int) throws {
        var spills = 0
        let held = HeldStandardOutput(memoryBudget: budget) {
            spills += 1
            return try SpoolFile(kind: "test")
        }
        for piece in ["abc", "", "defgh", "ij", String(repeating: "k", count: 3000)] {
            try held.write(piece)
        }
        try held.flush()
        #expect(try Self.released(held) == Array(("abcdefghij" + String(repeating: "k", count: 3000)).utf8))
        // Past the budget once, the rest goes to one file.
        #expect(spills == (budget >= 3010 ? 0 : 1), "budget \(budget)")
        // Released once: a second release writes nothing.
        #expect(try Self.released(held) == [])
    }

    @Test func aDiscardedOutputWritesNothing() throws {
        let held = HeldStandardOutput(memoryBudget: 4) { try SpoolFile(kind: "test") }
        try held.write("abcdefgh")
        held.discard()
        #expect(try Self.released(held) == [])
    }

    @Test func withoutATemporaryFileTheErrorSaysWhyAndWhatToDo() throws {
        let held = HeldStandardOutput(memoryBudget: 4) {
            throw FerryError(.outputUnwritable, "cannot create a temporary file in /nonexistent: No such file or directory")
        }
        try held.write("abc")
        let error = #expect(throws: FerryError.self) { try held.write("defg") }
        #expect(error?.diagnostic.code == .outputUnwritable)
        #expect(error?.diagnostic.message == "cannot create a temporary file in /nonexistent: No such file or directory "
            + "(standard output is held until the run succeeds, and past 0 MiB in a temporary file); "
            + "set TMPDIR to a folder with room, write to a file with -o FILE, or stream with --lenient")
    }
}
