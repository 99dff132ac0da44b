import FerryCore
import FerrySchemas
import FormatJSON
import Foundation
import Testing

@testable import FerryTypedPath

/// The check-specialized codec (`CheckingCodec`) of validation of V1: a line the V2 step migrates
/// plainly is taken as the V1 record it is (its own line rendered, its references captured), and
/// a line the step reports anything about is left to the general path with nothing rendered; a
/// decoded CSV model is checked the same way.
@Suite struct CheckingCodecTests {
    static func route(_ domain: Domain, _ collection: String) throws -> TypedRoute {
        var options = ProcessingOptions()
        options.checksMigration = true
        let processor = try DatasetProcessor(domain: domain, sourceVersion: 1, targetVersion: 1, options: options,
            log: DiagnosticLog())
        return try #require(processor.preparer.typedRoute(for: collection))
    }

    /// What the codec makes of `line`: its id, its rendered line and its references' ids (nil:
    /// left, and then nothing was appended).
    static func taken(_ line: String, _ route: TypedRoute) throws -> (id: String?, line: String, references: [String])? {
        let codec = try #require(CheckingCodec.codec(for: route))
        let rendering = try #require(JSONLinesRendering(options: WriteOptions()))
        var buffer = ByteBuffer(capacity: 16)
        buffer.append(Array("previous\n".utf8))
        var line = line
        let result = line.withUTF8 { bytes -> (PassedRecord, [ModelReference])? in
            guard let scan = JSONRecordScan(bytes) else { return nil }
            return codec.passJSON(scan, DecodingOptions(), route, .lines(rendering), &buffer)
        }
        guard let (passed, references) = result else {
            #expect(buffer.count == 9, "nothing appended when the codec leaves the line")
            return nil
        }
        let range = try #require(passed.rendered)
        return (passed.id, buffer.withBytes { String(decoding: $0[range], as: UTF8.self) }, references.map(\.id))
    }

    static let whiskey =
        #"{"$collection":"whiskeyNotes","id":"k1","title":"Islay","category":"single malt","createdAt":"2024-02-03T04:05:06Z","alcohol":46,"look":"amber","smells":["peat"],"tastes":[{"label":"smoke","value":0.8}],"finish":{"length":"long","note":"salty"},"think":"","rating":4,"isFavorite":false}"#

    static let word =
        #"{"$collection":"words","id":"w1","wordBookID":"b1","meaningText":"m","meaningImageURL":"","ganaText":"g","ganaImageURL":"","kanjiText":"k","kanjiImageURL":"","studyState":2,"timestamp":{"_seconds":1600000000,"_nanoseconds":250000000}}"#

    @Test func aLineTheStepMigratesPlainlyIsTakenAsItIs() throws {
        let notes = try #require(try Self.taken(Self.whiskey, Self.route(.notes, "whiskeyNotes")))
        #expect(notes.id == "k1")
        #expect(notes.line == Self.whiskey + "\n")
        #expect(notes.references.isEmpty)
        let words = try #require(try Self.taken(Self.word, Self.route(.vocabulary, "words")))
        #expect(words.id == "w1")
        #expect(words.line == Self.word + "\n")
        #expect(words.references == ["b1"])
    }

    @Test(arguments: [
        (whiskey, #""length":"long""#, #""length":"forever""#),  // an error of the step
        (word, #""studyState":2"#, #""studyState":7"#),  // an error of the step
        (word, #""wordBookID":"b1","#, ""),  // a missing-field error of the step
        (word, "250000000", "250000001"),  // a lossy-precision warning of the step
    ])
    func aLineTheStepReportsIsLeft(_ line: String, _ from: String, _ to: String) throws {
        let collection = line.contains("whiskeyNotes") ? "whiskeyNotes" : "words"
        let domain: Domain = collection == "words" ? .vocabulary : .notes
        let changed = line.replacingOccurrences(of: from, with: to)
        #expect(changed != line)
        #expect(try Self.taken(changed, Self.route(domain, collection)) == nil)
    }

    @Test func aDecodedModelIsCheckedAsTheBoxedStagesCheckIt() throws {
        let route = try Self.route(.vocabulary, "words")
        let codec = try #require(CheckingCodec.codec(for: route))
        let stamp = FirestoreTimestamp(instant: Instant(seconds: 1_600_000_000)!)
        let plain = VocabularyV1.Word(id: "w1", wordBookID: "b1", meaningText: "m", meaningImageURL: "", ganaText: "g",
            ganaImageURL: "", kanjiText: "k", kanjiImageURL: "", studyState: 1, timestamp: stamp)
        var broken = plain
        broken.studyState = 5
        for scalarsAsText in [false, true] {
            #expect(codec.passes(plain, scalarsAsText) && route.passesChecks(plain, scalarsAsText: scalarsAsText))
            #expect(!codec.passes(broken, scalarsAsText) && !route.passesChecks(broken, scalarsAsText: scalarsAsText))
        }
        // A model of another type is not the step's.
        #expect(!codec.passes(PetStoryV1.Profile(id: "p", name: "n", createdAt: stamp.instant, lastUpdatedAt: stamp.instant), false))
    }
}
