import FerryTestSupport
import Foundation
import Testing

/// A JSON document's elements take the typed path as JSON Lines lines do: every command gives the
/// output bytes, stdout, diagnostics and status of the general path (the goldens under
/// `Fixtures/TypedPathJSONDocumentCLITests`), with one job or several,
/// for documents of every domain at both versions, with elements spread over several lines,
/// records with problems, duplicated ids (whose first is named by its id's line), references
/// that dangle, an element holding a `$collection` member (left to the general path) and one that
/// is not JSON.
@Suite struct TypedPathJSONDocumentCLITests {
    struct Case: CustomStringConvertible {
        let name: String
        let version: Int
        /// JSON Lines text: a header line, then records that name their collection first.
        let lines: String
        var description: String { "\(name) v\(version)" }
    }

    static let cases: [Case] = [
        Case(name: "notes", version: 2, lines: TypedPathCLITests.v2Notes(count: 300)),
        Case(name: "notes", version: 1, lines: TypedPathCLITests.v1Notes(count: 300)),
    ] + ReferencingRecordsCLITests.datasets.map { Case(name: $0.domain, version: $0.version, lines: $0.text) }

    /// The JSON document of `lines`: the header's members, then each collection's records as an
    /// array (in the order the collections first appear), every member on a line of its own.
    /// Lines that name no collection go with the line before; the tenth record keeps its
    /// `$collection` member (an ordinary member in a document); a line that is not JSON goes last.
    static func document(_ lines: String) -> String {
        var all = lines.split(separator: "\n").map(String.init)
        let header = all.removeFirst()
        var order: [String] = []
        var arrays: [String: [String]] = [:]
        var last = ""
        var broken: [String] = []
        for (index, line) in all.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("{\"$collection\":\"") else {
                if trimmed.hasPrefix("{") && !trimmed.hasSuffix("}") { broken.append(line) } else { arrays[last, default: []].append(line) }
                continue
            }
            let name = String(trimmed.dropFirst(16).prefix { $0 != "\"" })
            if arrays[name] == nil { order.append(name) }
            last = name
            let element = index == 10 ? trimmed : "{" + trimmed.dropFirst(16 + name.utf8.count + 2)
            arrays[name, default: []].append(element)
        }
        if let lastName = order.last { arrays[lastName, default: []] += broken }
        let pretty = { (element: String) in
            element.replacingOccurrences(of: "{\"", with: "{\n      \"").replacingOccurrences(of: ",\"", with: ",\n      \"")
        }
        var text = String(header.dropLast())
        for name in order {
            text += ",\n  \"\(name)\": [\n    " + arrays[name, default: []].map(pretty).joined(separator: ",\n    ") + "\n  ]"
        }
        return text + "\n}\n"
    }

    @Test(arguments: cases)
    func documentsGiveTheGeneralPathsResults(_ testCase: Case) throws {
        let box = try Sandbox()
        try box.write("in.json", Self.document(testCase.lines))
        let runs = GoldenRuns(box, golden: "TypedPathJSONDocumentCLITests/\(testCase.name)-v\(testCase.version).txt")
        let validation = try runs.run(["validate", "in.json"])
        // What the documents hold reaches the checks: a duplicated id in every dataset but the
        // V1 notes.
        let hasDuplicate = testCase.name != "notes" || testCase.version == 2
        #expect(validation.errors.contains { $0.contains("[duplicate-id]") } == hasDuplicate, "\(testCase)")
        try runs.run(["validate", "in.json", "--report", "json"])
        try runs.run(["convert", "in.json", "--to", "jsonl", "-o", "OUT"])
        try runs.run(["convert", "in.json", "--to", "jsonl", "--lenient", "-o", "OUT"])
        try runs.run(["convert", "in.json", "--to", "json", "--lenient", "-o", "OUT"])
        try runs.run(["convert", "in.json", "--to", "csv", "--lenient", "-o", "OUT/"])
        if testCase.version == 1 {
            try runs.run(["migrate", "in.json", "--to-version", "2", "-o", "OUT"])
            try runs.run(["migrate", "in.json", "--to-version", "2", "--lenient", "-o", "OUT"])
            try runs.run(["migrate", "in.json", "--to-version", "2", "--lenient", "--to", "jsonl", "-o", "OUT"])
        }
        runs.expectGolden()
    }

    /// A duplicated id's diagnostic names the line of the first record's `id`, which in a
    /// pretty-printed document is not the line its element starts on: found where the element
    /// was taken, the same line as the general path's.
    @Test func aDuplicateNamesTheLineOfTheFirstID() throws {
        let box = try Sandbox()
        let note = { (id: String) in
            "    {\n      \"id\": \"\(id)\",\n      \"title\": \"t\",\n      \"category\": \"red\",\n"
                + "      \"createdAt\": \"2024-01-01T00:00:00Z\",\n      \"smells\": [],\n      \"tastes\": [],\n"
                + "      \"think\": \"\",\n      \"rating\": 3,\n      \"isFavorite\": false\n    }"
        }
        let text = "{\"domain\": \"notes\", \"schemaVersion\": 2,\n  \"coffeeTastingNotes\": [\n"
            + [note("a"), note("b"), note("a")].joined(separator: ",\n") + "\n  ]\n}\n"
        try box.write("in.json", text)
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", "in.json", "--jobs", jobs])
            #expect(run.status == 1)
            #expect(run.errors == [
                "in.json:26:13: error: /coffeeTastingNotes/2/id: duplicate id \"a\" in coffeeTastingNotes: first at line 4 (/coffeeTastingNotes/0) [duplicate-id]",
            ], "jobs \(jobs)")
        }
    }
}
