import FerryTestSupport
import Foundation
import Testing

/// One diagnostic for each real problem of a Firestore export, at a pointer that resolves in the
/// input (RFC 6901), in line order, in both layouts, with one job or two: a word book with an
/// error, a word under it (no `dangling-reference` for it: under `--lenient` one warning says its
/// words are not written either, at the first word), a word whose own `wordBookID` differs from
/// its parent (that error alone, not a `dangling-reference` too), and a word key given twice in
/// one map (reported at the second, naming the first).
@Suite struct FirestoreFollowOnCLITests {
    struct Layout: CustomStringConvertible, Sendable {
        let fixture: String
        /// The pointer of book `b-bad` and of the words map of a book.
        let books: String
        let words: @Sendable (String) -> String
        /// Lines and columns: the bad title, the word under the bad book, the wrong wordBookID,
        /// the first and the second `w-ok`.
        let positions: [String]
        var description: String { fixture }
    }

    static let layouts = [
        Layout(fixture: "node-rejected-book.json", books: "/__collections__/wordBooks",
            words: { "/__collections__/wordBooks/\($0)/__collections__/words" },
            positions: ["5:18", "9:24", "28:29", "22", "33:21"]),
        Layout(fixture: "backup-restore-rejected-book.json", books: "/wordBooks",
            words: { "/wordBooks/\($0)/subCollection/wordBooks~1\($0)~1words" },
            positions: ["4:16", "8:22", "18:37", "17", "19:19"]),
    ]

    /// The errors every command reports, in line order.
    static func errors(_ layout: Layout) -> [String] {
        let p = layout.positions
        return [
            "in.json:\(p[0]): error: \(layout.books)/b-bad/title: title: expected a string, found 5 (id \"b-bad\") [type-error]",
            "in.json:\(p[2]): error: \(layout.words("b-ok"))/w-wrong/wordBookID: wordBookID \"b-nope\" differs from its parent word "
                + "book \"b-ok\" (id \"w-wrong\") [invalid-value]",
            "in.json:\(p[4]): error: \(layout.words("b-ok"))/w-ok: duplicate id \"w-ok\" in words: first at line \(p[3]) [duplicate-id]",
        ]
    }

    @Test(arguments: layouts)
    func validateReportsEachProblemOnce(_ layout: Layout) throws {
        let box = try Sandbox()
        try box.write("in.json", bytes: try Fixtures.bytes("firestore/\(layout.fixture)"))
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", "in.json", "--jobs", jobs])
            #expect(run.diagnostics == Self.errors(layout), "\(layout) --jobs \(jobs)")
            #expect(run.status == 1)
        }
    }

    @Test(arguments: layouts)
    func lenientWritesTheValidWordsWithNoFollowOnError(_ layout: Layout) throws {
        let box = try Sandbox()
        try box.write("in.json", bytes: try Fixtures.bytes("firestore/\(layout.fixture)"))
        let dropped = "in.json:\(layout.positions[1]): warning: \(layout.words("b-bad"))/w-under: wordBookID \"b-bad\" names a word "
            + "book that is not written (it has errors), so no record naming it is written either (id \"w-under\") [lossy-drop]"
        var expected = Self.errors(layout)
        expected.insert(dropped, at: 1)
        for command in [["convert", "in.json", "--to", "jsonl"], ["migrate", "in.json", "--to-version", "2"]] {
            let (one, two) = try box.ferryByJobs(command + ["--lenient", "-o", "OUT"])
            let run = one
            #expect(run.stderr == two.stderr && run.output == two.output, "\(layout) \(command[0])")
            #expect(run.stderr.split(separator: "\n").filter { !$0.hasPrefix("in.json: vocabulary") }.map(String.init) == expected,
                "\(layout) \(command[0])")
            #expect(run.status == 1)
            // The good book and its first w-ok only.
            let ids = run.output.split(separator: "\n").dropFirst().compactMap { $0.firstMatch(of: /"id":"([^"]*)"/)?.1 }.map(String.init)
            #expect(ids == ["b-ok", "w-ok"], "\(layout) \(command[0])")
        }
    }
}
