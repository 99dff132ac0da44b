import FerryCore
import FerrySchemas
import FerryTestSupport
import FormatJSON
import Testing

@testable import FerryTypedPath
import Foundation

/// The notes V1 -> V2 line transcoder (`NotesLineMigration`) against the pair's codec
/// (`TypedPairCodec`, itself checked against the general path): every line it takes is the
/// codec's line, byte for byte, with the same id; what it gives up on leaves the buffer as it was.
@Suite struct NotesLineMigrationTests {
    typealias Pair = TypedPairCodecTests

    /// What the transcoder makes of `line` (nil: given up, and nothing was appended after `previous`).
    static func transcoded(_ line: String, _ migration: NotesLineMigration, collection: String,
        maximumDepth: Int = JSONRecordScan.defaultMaximumDepth) throws -> (id: String?, line: String)?
    {
        var buffer = ByteBuffer(capacity: 16)
        buffer.append(Array("previous\n".utf8))
        var line = line
        let passed = line.withUTF8 { bytes -> PassedRecord? in
            guard let scan = JSONRecordScan(bytes, maximumDepth: maximumDepth) else { return nil }
            return migration.migrate(scan, DecodingOptions(), collection: collection, into: &buffer)
        }
        guard let passed else {
            #expect(buffer.count == 9, "nothing appended when the transcoder gives up")
            return nil
        }
        let range = try #require(passed.rendered)
        #expect(range == 9..<buffer.count)
        return (passed.id, buffer.withBytes { String(decoding: $0[range], as: UTF8.self) })
    }

    /// The transcoder of the route of `line`'s collection, and the route's pair codec.
    static func both(for line: String) throws -> (NotesLineMigration, TypedRoute, TypedPairCodec) {
        let collection = try #require(Pair.collection(of: line))
        let (route, codec) = try Pair.pair(collection, try Pair.processor())
        return (try #require(NotesLineMigration(route)), route, codec)
    }

    /// Checks `line`: when `taken`, the transcoder gives the codec's line and id; else it gives up.
    static func check(_ line: String, taken: Bool, _ comment: Comment) throws {
        let (migration, route, codec) = try both(for: line)
        let mine = try transcoded(line, migration, collection: route.targetCollection)
        let theirs = try Pair.migrated(line, route, codec)
        if taken {
            let mine = try #require(mine, comment)
            let theirs = try #require(theirs, comment)
            #expect(mine.line == theirs.line, comment)
            #expect(mine.id == theirs.id, comment)
        } else {
            #expect(mine == nil, comment)
        }
    }

    @Test func writesTheLinesOfThePairsPlainNotes() throws {
        for (index, (v1, v2)) in Pair.lines.enumerated() {
            let (migration, route, _) = try Self.both(for: v1)
            let line = try Self.transcoded(v1, migration, collection: route.targetCollection)
            if index == 2 {
                // The whiskey note holds `imageData`: left to the codec.
                #expect(line == nil)
                let plain = v1.replacingOccurrences(of: #""imageData":"aGVsbG8gd29ybGQ=","#, with: "")
                let expected = v2.replacingOccurrences(of: #""imageData":"aGVsbG8gd29ybGQ=","#, with: "")
                #expect(try Self.transcoded(plain, migration, collection: route.targetCollection)?.line == expected + "\n")
            } else {
                #expect(line?.line == v2 + "\n")
                #expect(line?.id == ["w1", "c1", "k9", "n1"][index])
            }
        }
    }

    /// Changes to the plain notes of `TypedPairCodecTests.lines` (by index), and whether the
    /// transcoder takes the changed line (then with the codec's bytes).
    static let changes: [(index: Int, from: String, to: String, taken: Bool)] = [
        // Text: escapes the writer writes itself are copied; others are written again.
        (0, #""title":"Syrah \"Cuvée\"""#, #""title":"Syrah \/ \u00e9 \ud83c\udf77""#, true),
        (0, #""think":"a\nb""#, #""think":"\b\f\n\r\t\\\"""#, true),
        (0, #""think":"a\nb""#, #""think":"\u0001\u001F\u007f""#, true),
        (0, #""grape":"Syrah""#, #""grape":"Gr\u00fcner""#, true),
        (0, #""smells":["oak","cherry"]"#, #""smells":["o\"ak","\u0063herry",""]"#, true),
        (0, #""smells":["oak","cherry"]"#, #""smells":[]"#, true),
        (0, #""tastes":[{"label":"body","value":0.5},{"label":"산미","value":1}]"#, #""tastes":[]"#, true),
        // The look's split, on bytes and on text.
        (0, #""look":" ruby , deep ""#, #""look":"ruby""#, true),
        (0, #""look":" ruby , deep ""#, #""look":"ruby,""#, true),
        (0, #""look":" ruby , deep ""#, #""look":",deep, and more ""#, true),
        (0, #""look":" ruby , deep ""#, #""look":"\u00a0ruby\u3000,\tdeep\u00a0""#, true),
        (0, #""look":" ruby , deep ""#, "\"look\":\"\u{a0}ruby,deep\u{2003}\"", true),
        (0, #""look":" ruby , deep ""#, #""look":"rubý , deep ""#, true),
        (0, #""look":" ruby , deep ""#, #""look":"""#, true),
        // Numbers as the writer writes them.
        (0, #""alcohol":13.0"#, #""alcohol":-0.0"#, true),
        (0, #""alcohol":13.0"#, #""alcohol":1.25e1"#, true),
        (0, #""alcohol":13.0"#, #""alcohol":100"#, true),
        (0, #""alcohol":13.0"#, #""alcohol":12.3456789012345678"#, true),
        (0, #""rating":4.5"#, #""rating":-0"#, true),
        (0, #""rating":4.5"#, #""rating":5E0"#, true),
        (0, #""value":0.5"#, #""value":1e-7"#, true),
        // Instants: copied when already in their written form, else parsed and written again.
        (0, #""createdAt":"2024-05-01T09:30:00.250+02:00""#, #""createdAt":"2024-05-01T09:30:00.100Z""#, true),
        (0, #""createdAt":"2024-05-01T09:30:00.250+02:00""#, #""createdAt":"2024-05-01T09:30:00.000Z""#, true),
        (0, #""createdAt":"2024-05-01T09:30:00.250+02:00""#, #""createdAt":"2024-05-01t09:30:00z""#, true),
        (0, #""createdAt":"2024-05-01T09:30:00.250+02:00""#, #""createdAt":"2024-05-01T09:30:00.5Z""#, true),
        (0, #""createdAt":"2024-05-01T09:30:00.250+02:00""#, #""createdAt":"2024-05-01T09:30:00\u005A""#, true),
        (0, #""createdAt":"2024-05-01T09:30:00.250+02:00""#, #""createdAt":"2024-02-30T09:30:00Z""#, false),
        // Numbers copied in their written form, and others.
        (0, #""alcohol":13.0"#, #""alcohol":12.4"#, true),
        (0, #""alcohol":13.0"#, #""alcohol":12.40"#, true),
        (0, #""rating":4.5"#, #""rating":3"#, true),
        (0, #""value":0.5"#, #""value":0.91"#, true),
        (0, #""value":0.5"#, #""value":0.123456"#, true),
        // Whitespace anywhere the grammar allows it.
        (0, #""alcohol":13.0,"#, " \"alcohol\" :\t13.0 ,\r\n ", true),
        (0, #""isFavorite":true}"#, #""isFavorite":true }  "#, true),
        (0, #"[{"label":"body","value":0.5}"#, #"[ { "label" : "body" , "value" : 0.5 } "#, true),
        // A null optional member is absent.
        (0, #""alcohol":13.0"#, #""imageData":null,"alcohol":13.0"#, true),
        // Given up: what the codec gives up on...
        (0, #""id":"w1","#, "", false),
        (0, #""id":"w1","#, #""id":"","#, false),
        (0, #""id":"w1","#, #""id":null,"#, false),
        (0, #""title":"Syrah \"Cuvée\"""#, #""title":"""#, false),
        (0, #""rating":4.5"#, #""rating":4.25"#, false),
        (0, #""rating":4.5"#, #""rating":5.5"#, false),
        (0, #""alcohol":13.0"#, #""alcohol":100.5"#, false),
        (0, #""alcohol":13.0"#, #""alcohol":-1"#, false),
        (0, #""alcohol":13.0"#, #""alcohol":"13""#, false),
        (0, #""value":0.5"#, #""value":1.5"#, false),
        (0, #""value":0.5"#, #""value":0.5,"extra":1"#, false),
        (0, #","value":0.5"#, "", false),
        (0, #""createdAt":"2024-05-01T09:30:00.250+02:00""#, #""createdAt":"2024-05-01T09:30:00.2501Z""#, false),
        (0, #""createdAt":"2024-05-01T09:30:00.250+02:00""#, #""createdAt":"2024-05-01T09:30:00""#, false),
        (0, #""createdAt":"2024-05-01T09:30:00.250+02:00""#, #""createdAt":7.5e8"#, false),
        (0, #""smells":["oak","cherry"]"#, #""smells":["oak",1]"#, false),
        (0, #""smells":["oak","cherry"]"#, #""smells":"oak""#, false),
        (0, #""smells":["oak","cherry"]"#, #""smells":["oak",]"#, false),
        (0, #""grape":"Syrah","#, "", false),
        (0, #""isFavorite":true"#, #""isFavorite":true,"extra":1"#, false),
        (0, #""isFavorite":true"#, #""isFavorite":1"#, false),
        (0, #""title":"Syrah \"Cuvée\"","category":"red""#, #""category":"red","title":"Syrah""#, false),
        (0, #""isFavorite":true}"#, #""isFavorite":true} x"#, false),
        (0, #""think":"a\nb""#, "\"think\":\"a\u{1}b\"", false),
        (1, #""alcohol":0"#, #""alcohol":0.5"#, false),
        (1, #""look":"  ""#, #""look":"dark""#, false),
        (2, #""length":" Long ""#, #""length":"lingering""#, false),
        (3, #""smells":[]"#, #""smells":["orange"]"#, false),
        (3, #""look":"""#, #""look":"red""#, false),
        // ... and `imageData`, left to the codec.
        (0, #""alcohol":13.0"#, #""imageData":"aGk=","alcohol":13.0"#, false),
        // The other pairs.
        (1, #""alcohol":0"#, #""alcohol":-0"#, true),
        (1, #""look":"  ""#, #""look":" \u00a0\n""#, true),
        (1, #""smells":["berry"]"#, #""smells":[]"#, true),
        (2, #""imageData":"aGVsbG8gd29ybGQ=","#, "", true),
        (2, #""imageData":"aGVsbG8gd29ybGQ=","#, #""imageData":null,"#, true),
        (3, #""ingredients":[{"name":"gin","amount":"30ml"},{"name":"Campari","amount":"30ml"}]"#, #""ingredients":[]"#, true),
        (3, #""isContainsIce":true"#, #""isContainsIce":false"#, true),
        (3, #""look":"""#, #""look":" \t""#, true),
        (3, #"{"name":"gin","amount":"30ml"}"#, #"{"name":"gin"}"#, false),
        (3, #"{"name":"gin","amount":"30ml"}"#, #"{"amount":"30ml","name":"gin"}"#, false),
    ]

    @Test(arguments: 0..<changes.count) func takesExactlyWhatItCanWriteAsTheCodecDoes(case index: Int) throws {
        let change = Self.changes[index]
        let original = Pair.lines[change.index].v1
        var line = original.replacingOccurrences(of: change.from, with: change.to)
        if change.index == 2, change.from != #""imageData":"aGVsbG8gd29ybGQ=","# {
            // Without its `imageData`, which the transcoder leaves to the codec.
            line = line.replacingOccurrences(of: #""imageData":"aGVsbG8gd29ybGQ=","#, with: "")
        }
        #expect(line != original)
        try Self.check(line, taken: change.taken, "\(change)")
    }

    @Test(arguments: ["long", "LONG", " Medium\n", "short", "Short"]) func whiskeyFinishLengths(length: String) throws {
        let line = Pair.lines[2].v1
            .replacingOccurrences(of: #""imageData":"aGVsbG8gd29ybGQ=","#, with: "")
            .replacingOccurrences(of: #""length":" Long ""#, with: #""length":"\#(length.replacingOccurrences(of: "\n", with: "\\n"))""#)
        try Self.check(line, taken: true, "\(length)")
        let (migration, route, _) = try Self.both(for: line)
        let written = try #require(try Self.transcoded(line, migration, collection: route.targetCollection))
        let expected = length.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        #expect(written.line.contains(#""finish":{"length":"\#(expected)","note":"smoke"}"#))
    }

    @Test func takesEveryLineOfTheBenchmarksGeneratedV1Notes() throws {
        guard let lines = try JSONRecordScanTests.generatedLines(version: 1) else {
            print("skipped: ../shared/bench/gen_notes.py (or python3) is absent")
            return
        }
        let (migration, route, codec) = try Self.both(for: lines[1])
        var taken = 0
        for line in lines.dropFirst() {
            let mine = try #require(try Self.transcoded(line, migration, collection: route.targetCollection), "\(line)")
            let theirs = try #require(try Pair.migrated(line, route, codec))
            #expect(mine.line == theirs.line)
            #expect(mine.id == theirs.id)
            taken += 1
        }
        #expect(taken == 3000)
    }

    @Test func nestingBeyondTheReadersLimitIsLeftToTheGeneralPath() throws {
        let line = Pair.lines[0].v1
        let (migration, route, _) = try Self.both(for: line)
        // The tastes' objects are at level 3.
        #expect(try Self.transcoded(line, migration, collection: route.targetCollection, maximumDepth: 2) == nil)
        #expect(try Self.transcoded(line, migration, collection: route.targetCollection, maximumDepth: 3) != nil)
    }

    @Test func onlyTheNotesStageHasATranscoder() throws {
        let validating = try Pair.processor(from: 2, to: 2)
        let route = try #require(validating.preparer.typedRoute(for: "wineTastingNotes"))
        #expect(NotesLineMigration(route) == nil)
        let processor = try Pair.processor()
        for collection in processor.preparer.sourceCollections {
            let route = try #require(processor.preparer.typedRoute(for: collection))
            #expect(NotesLineMigration(route) != nil, "\(collection)")
        }
    }

    @Test func copiesOnlyTheEscapesTheWriterWrites() {
        func written(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { bytes in
                NotesLineMigration.isWrittenForm(bytes.baseAddress!, JSONStringSpan(start: 0, end: bytes.count, escaped: true))
            }
        }
        #expect(written(#"a\"b\\c\bd\fe\nf\rg\t"#))
        #expect(!written(#"a\/b"#))
        #expect(!written(#"\u0041"#))
        #expect(!written(#"x\u001f"#))
    }
}
