import FerryCore
import FerrySchemas
import FormatJSON
import Foundation
import Testing

@testable import FerryTypedPath

/// The lane's documents of a nested record against the general path's (`FirestoreLayout` over the
/// parsed record, each document read, migrated and checked): on random node-firestore word books
/// and corrupted copies, a record the lane takes is one the general path reads with no diagnostic,
/// and it makes the same records of it, in the same order.
@Suite struct NestedDocumentDifferentialTests {
    /// The same books on every run.
    struct Random {
        var generator: SeededGenerator
        init(state: UInt64) { generator = SeededGenerator(state: state) }
        mutating func below(_ n: Int) -> Int { Int.random(in: 0..<n, using: &generator) }
        mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
    }

    static func timestamp(_ r: inout Random) -> String {
        r.pick([
            #"{"_seconds": 1600000000, "_nanoseconds": 0}"#,
            #"{"_seconds": 1600000000, "_nanoseconds": 250000000}"#,
            #"{"_seconds": 1600000000, "_nanoseconds": 7}"#,  // cut to milliseconds in V2: a warning
            #"{"__datatype__": "timestamp", "value": {"_seconds": 1600000001, "_nanoseconds": 0}}"#,
            #"{"value": {"_seconds": 1600000002, "_nanoseconds": 0}, "__datatype__": "timestamp"}"#,
            #""2020-09-13T12:26:40Z""#,
            #""yesterday""#,
            "1600000000",
        ])
    }

    /// A word: members in canonical order or not, some the layout fills, some it reports.
    static func word(_ r: inout Random, key: String) -> String {
        var members: [String] = []
        switch r.below(6) {
        case 0: members.append(#""id": "\#(key)""#)
        case 1: members.append(#""id": "own-\#(key)""#)
        case 2: members.append(#""id": """#)
        default: break
        }
        switch r.below(6) {
        case 0: members.append(#""wordBookID": "b1""#)
        case 1: members.append(#""wordBookID": "b2""#)
        default: break
        }
        members.append(#""meaningText": "\#(r.pick(["m", "水", "a\\nb", "x\\u00e9"]))""#)
        if r.below(2) == 0 { members.append(#""ganaText": "がな""#) }
        members.append(#""studyState": \#(r.pick(["0", "1", "2", "2", "\"1\"", "-1"]))"#)
        members.append(#""timestamp": \#(timestamp(&r))"#)
        switch r.below(8) {
        case 0: members.append(#""note": "x""#)
        case 1: members.append(#""__collections__": {}"#)
        case 2: members.shuffle(using: &r.generator)
        default: break
        }
        let space = r.pick([" ", "\n      ", ""])
        return "{" + members.joined(separator: "," + space) + "}"
    }

    static func book(_ r: inout Random) -> String {
        var words: [String] = []
        for index in 0..<r.below(5) {
            // Keys are unique: a key given twice is the commit's to report (`DatasetProcessor`).
            let key = "w\(index)"
            words.append(#""\#(key)": \#(word(&r, key: key))"#)
        }
        var members = [#""title": "Book""#, #""timestamp": \#(timestamp(&r))"#]
        if r.below(6) == 0 { members.insert(#""id": "b1""#, at: 0) }
        members.append(#""__collections__": {"words": {\#(words.joined(separator: ",\n  "))}}"#)
        return "{" + members.joined(separator: ",\n") + "}"
    }

    /// `text` with one byte taken out or a structural byte put in.
    static func corrupt(_ text: String, _ r: inout Random) -> String {
        var bytes = Array(text.utf8)
        let at = r.below(bytes.count)
        if r.below(2) == 0 {
            bytes.remove(at: at)
        } else {
            bytes.insert(r.pick(Array(#",{}[]":\ "#.utf8)), at: at)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A record as its collection and its value's JSON text (members in order).
    struct Made: Equatable, CustomStringConvertible {
        var collection: String
        var text: String
        var description: String { "\(collection) \(text)" }

        init(collection: String, value: Value) {
            self.collection = collection
            text = String(decoding: (try? JSONText.encode(value, pretty: false)) ?? [], as: UTF8.self)
        }
    }

    /// The general path's records of the export holding `book`, and whether it said nothing; nil
    /// when the reader refuses the export.
    static func general(_ book: String, to version: Int) throws -> (made: [Made], clean: Bool)? {
        let export = #"{"__collections__": {"wordBooks": {"b1": "# + book + "}}}"
        var options = ReadOptions(fileName: "e.json")
        options.nestedCollections = FirestoreLayout.nestedCollections
        let reader = JSONDocumentReader(source: MemorySource(Array(export.utf8)), options: options)
        let log = DiagnosticLog()
        let processor = try DatasetProcessor(domain: .vocabulary, sourceVersion: 1, targetVersion: version,
            options: ProcessingOptions(), log: log)
        var made: [Made] = []
        do {
            while let record = try reader.next() {
                made += processor.process(record).map { Made(collection: $0.collection ?? "", value: $0.value) }
            }
        } catch {
            return nil
        }
        processor.finish()
        return (made, log.diagnostics.isEmpty)
    }

    /// The lane's records of `book` offered as the record the reader makes of it, or nil.
    static func lane(_ book: String, to version: Int) throws -> [Made]? {
        let processor = try DatasetProcessor(domain: .vocabulary, sourceVersion: 1, targetVersion: version,
            options: ProcessingOptions(), log: DiagnosticLog())
        let lane = try #require(TypedLane(preparer: processor.preparer, output: .lines(JSONLinesRendering(options: WriteOptions())!)))
        let batch = lane.batch()
        var text = book
        let taken = text.withUTF8 {
            batch.take(.jsonNested($0, start: TextPosition(line: 1, column: 43), collection: "__collections__",
                documentID: "wordBooks", nesting: RecordNesting(token: "b1", documentID: "b1"), maximumDepth: 509))
        }
        guard let taken else { return nil }
        #expect(taken.count == batch.preparations.count)
        let lines = batch.withRendered { String(decoding: $0, as: UTF8.self) }.split(separator: "\n")
        return try lines.map { line in
            guard case .object(var object) = try JSONText.parse(Array(line.utf8)),
                  case .string(let collection)? = object["$collection"]
            else { throw FerryError(.internalError, "not a record line: \(line)") }
            object = ValueObject(object.members.filter { $0.key != "$collection" })
            return Made(collection: collection, value: .object(object))
        }
    }

    @Test(arguments: [1, 2])
    func theLaneTakesOnlyWhatTheGeneralPathReadsCleanlyAndMakesTheSameRecords(version: Int) throws {
        var random = Random(state: UInt64(version))
        var taken = 0
        var clean = 0
        for round in 0..<600 {
            var book = Self.book(&random)
            if round % 3 == 2 { book = Self.corrupt(book, &random) }
            let general = try Self.general(book, to: version)
            if general?.clean == true { clean += 1 }
            guard let made = try Self.lane(book, to: version) else { continue }
            taken += 1
            let expected = try #require(general, "the reader refuses what the lane took: \(book)")
            #expect(expected.clean, "the general path reports what the lane took: \(book)")
            #expect(made == expected.made, "\(book)")
        }
        // Most books the general path reads cleanly are taken: members in canonical order are.
        #expect(clean > 60)
        #expect(taken * 10 > clean * 6, "\(taken) taken of \(clean) clean")
    }
}
