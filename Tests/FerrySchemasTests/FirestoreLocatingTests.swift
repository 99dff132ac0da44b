import FerryCore
import FerrySchemas
import Foundation
import Testing

/// The documents of a Firestore collection inside one raw record are located by locators of their
/// own (`FieldLocating.childLocators(of:)`), not through the record's locator, which rescans the
/// record up to the field each time (n documents made n rescans: time quadratic in the documents).
@Suite struct FirestoreLocatingTests {
    /// A record locator with fixed positions that counts the positions asked of it; its children
    /// are plain `TestLocator`s of the positions below them.
    final class CountingLocator: FieldLocating, @unchecked Sendable {
        let positions: [String: TextPosition]
        private let lock = NSLock()
        private var asked = 0
        var count: Int { lock.withLock { asked } }

        init(_ positions: [String: TextPosition]) { self.positions = positions }

        func position(of field: JSONPointer) -> TextPosition? {
            lock.withLock { asked += 1 }
            return positions[field.description]
        }

        func childLocators(of field: JSONPointer) -> [String: any FieldLocating]? {
            let prefix = field.description + "/"
            var children: [String: [String: TextPosition]] = [:]
            for (pointer, position) in positions where pointer.hasPrefix(prefix) {
                let rest = pointer.dropFirst(prefix.count)
                let token = String(rest.prefix { $0 != "/" })
                children[token, default: [:]][String(rest.dropFirst(token.count))] = position
            }
            return children.mapValues { TestLocator(positions: $0) }
        }
    }

    /// node-firestore-import-export's root: one record holding a book and its `count` words, the
    /// word `w<bad>` with a studyState that is not an integer. Word i stands at line 10 + i.
    func export(words count: Int, bad: Int) -> (Record, CountingLocator) {
        var words: [(key: String, value: Value)] = []
        var positions: [String: TextPosition] = ["": TextPosition(line: 2, column: 3), "/b1": TextPosition(line: 3, column: 9)]
        for i in 0..<count {
            let state: Value = i == bad ? "one" : 1
            words.append((key: "w\(i)", value: ["studyState": state, "timestamp": ["_seconds": .integer(Int64(i)), "_nanoseconds": 0]]))
            let word = "/b1/__collections__/words/w\(i)"
            positions[word] = TextPosition(line: 10 + i, column: 11)
            positions[word + "/studyState"] = TextPosition(line: 10 + i, column: 29)
        }
        let book: Value = ["title": "N5", "timestamp": ["_seconds": 1, "_nanoseconds": 0],
            "__collections__": ["words": .object(ValueObject(words))]]
        let locator = CountingLocator(positions)
        let record = Record(collection: "__collections__", documentID: "wordBooks", value: ["b1": book],
            location: SourceLocation(file: "in.json", line: 2, column: 3, collection: "__collections__", recordIndex: 0),
            locator: locator)
        return (record, locator)
    }

    @Test func theRecordsLocatorIsNotAskedPerDocument() throws {
        var asked: [Int] = []
        for count in [10, 40] {
            let (record, locator) = export(words: count, bad: 7)
            let result = try run(.vocabulary, from: 1, to: 2, [record])
            #expect(result.records.count == count)  // the book and every word but w7
            #expect(result.diagnostics == ["error type-error 17:29 /__collections__/wordBooks/b1/__collections__/words/w7/studyState"])
            #expect(result.log.diagnostics.map(\.message) == [#"studyState: expected an integer, found "one""#])
            #expect(result.records.map(\.location.line) == [3] + (0..<count).filter { $0 != 7 }.map { 10 + $0 })
            asked.append(locator.count)
        }
        #expect(asked == [0, 0])
    }

    /// The export's book as a reader streaming `__collections__` hands it over: a record of its
    /// own (`RecordNesting`) with the whole collection's place and the book's own locator.
    func streamed(_ record: Record, _ locator: CountingLocator) throws -> Record {
        var book = record
        book.value = try #require(record.value.objectValue?["b1"])
        book.locator = try #require(locator.childLocators(of: .root)?["b1"])
        book.nesting = RecordNesting(token: "b1", documentID: "b1")
        return book
    }

    /// A book read as a record of its own gives the records, messages, pointers, ids and
    /// positions the whole collection as one record gives, in lenient migration, validation and
    /// strict migration (every depth: the book, its words, a word's problem).
    @Test func aStreamedDocumentReadsAsInTheWholeCollection() throws {
        let (whole, locator) = export(words: 12, bad: 7)
        let book = try streamed(whole, locator)
        for (from, to, mode) in [(1, 2, ProcessingMode.lenient), (1, 1, .normal), (1, 2, .strict)] {
            let expected = try run(.vocabulary, from: from, to: to, [whole], mode: mode)
            let got = try run(.vocabulary, from: from, to: to, [book], mode: mode)
            #expect(got.diagnostics == expected.diagnostics)
            #expect(got.log.diagnostics.map(\.description) == expected.log.diagnostics.map(\.description))
            #expect(got.records.map(\.value) == expected.records.map(\.value))
            #expect(got.records.map(\.location) == expected.records.map(\.location))
        }
        #expect(try run(.vocabulary, from: 1, to: 2, [book]).diagnostics == [
            "error type-error 17:29 /__collections__/wordBooks/b1/__collections__/words/w7/studyState"
        ])
    }
}
