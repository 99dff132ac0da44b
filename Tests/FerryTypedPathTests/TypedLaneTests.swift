import FerryCore
import FerrySchemas
import Testing

@testable import FerryTypedPath
import Foundation

/// The lane takes a plain record whole (decode, typed migration, the output line) and leaves a
/// record with anything to report, or of a collection without a route, to the general path.
@Suite struct TypedLaneTests {
    static let v1Line = #"{"$collection":"wineNotes","id":"w1","title":"Syrah \"Cuvée\"","category":"red","createdAt":"2024-05-01T09:30:00.250+02:00","alcohol":13.0,"look":" ruby , deep ","smells":["oak"],"tastes":[{"label":"body","value":0.5}],"grape":"Syrah","think":"a\nb","rating":4.5,"isFavorite":true}"#
    static let v2Line = #"{"$collection":"wineTastingNotes","id":"w1","title":"Syrah \"Cuvée\"","category":"red","createdAt":"2024-05-01T07:30:00.250Z","alcoholByVolume":13,"look":{"tint":"ruby","note":"deep"},"smells":[{"label":"oak"}],"tastes":[{"label":"body","value":0.5}],"grape":{"variety":"Syrah"},"think":"a\nb","rating":4.5,"isFavorite":true}"#

    static func lane(from source: Int, to target: Int, rendering: Bool = true) throws -> TypedLane? {
        let processor = try DatasetProcessor(domain: .notes, sourceVersion: source, targetVersion: target,
            options: ProcessingOptions(), log: DiagnosticLog())
        return TypedLane(preparer: processor.preparer, output: rendering ? .lines(JSONLinesRendering(options: WriteOptions())!) : .nothing)
    }

    /// What the lane makes of `line` taken alone, with the line it rendered (nil: none).
    static func take(_ lane: TypedLane, _ line: String, defaultCollection: String? = nil) -> TakenRecord? {
        takeRendering(lane, line, defaultCollection: defaultCollection).taken
    }

    /// What the lane makes of `line` taken alone (on line 2): the taken record, its output line
    /// and its preparation (read back from the taken record's payload).
    static func takeRendering(_ lane: TypedLane, _ line: String, defaultCollection: String? = nil)
        -> (taken: TakenRecord?, rendered: String?, preparation: TypedPreparation?)
    {
        var line = line
        let batch = lane.batch()
        let taken = line.withUTF8 { batch.take(.jsonLine($0, line: 2, defaultCollection: defaultCollection)) }
        let preparation = taken.flatMap { batch.preparation(of: $0.payload) }
        #expect((taken == nil) == (preparation == nil))
        let range = preparation?.rendered
        return (taken, range.map { range in batch.withRendered { String(decoding: $0[range], as: UTF8.self) } }, preparation)
    }

    @Test func migratesAPlainV1LineToItsV2Line() throws {
        let lane = try #require(try Self.lane(from: 1, to: 2))
        let (taken, rendered, found) = Self.takeRendering(lane, Self.v1Line)
        #expect(taken?.collection == "wineNotes")
        #expect(rendered == Self.v2Line + "\n")
        let preparation = try #require(found)
        #expect(preparation.id == "w1")
        #expect(preparation.route.targetCollection == "wineTastingNotes")
        #expect(preparation.singleLine == 2)  // a JSON Lines record stands on its line
    }

    @Test func rendersAPlainV2LineAsTheWriterWould() throws {
        let lane = try #require(try Self.lane(from: 2, to: 2))
        #expect(Self.takeRendering(lane, Self.v2Line).rendered == Self.v2Line + "\n")
        // No output: nothing rendered, the record still taken.
        let validating = try #require(try Self.lane(from: 2, to: 2, rendering: false))
        let (taken, _, preparation) = Self.takeRendering(validating, Self.v2Line)
        #expect(taken != nil)
        #expect(preparation?.id == "w1")
        #expect(preparation?.rendered == nil)
    }

    @Test func leavesRecordsWithAnythingToReportToTheGeneralPath() throws {
        let migrating = try #require(try Self.lane(from: 1, to: 2))
        // Out of range in V2 only (V1 has no range), a lossy precision, a missing id to derive.
        #expect(Self.take(migrating, Self.v1Line.replacingOccurrences(of: #""rating":4.5"#, with: #""rating":7"#)) == nil)
        #expect(Self.take(migrating, Self.v1Line.replacingOccurrences(of: ".250+02:00", with: ".2501+02:00")) == nil)
        #expect(Self.take(migrating, Self.v1Line.replacingOccurrences(of: #""id":"w1","#, with: "")) == nil)
        let validating = try #require(try Self.lane(from: 2, to: 2))
        #expect(Self.take(validating, Self.v2Line.replacingOccurrences(of: #""title":"#, with: #""x":1,"title":"#)) == nil)
        #expect(Self.take(validating, Self.v2Line.replacingOccurrences(of: "wineTastingNotes", with: "beerNotes")) == nil)
        #expect(Self.take(validating, "{broken") == nil)
    }

    @Test func aLineWithoutCollectionTakesTheReadersDefault() throws {
        let lane = try #require(try Self.lane(from: 2, to: 2))
        let bare = Self.v2Line.replacingOccurrences(of: #""$collection":"wineTastingNotes","#, with: "")
        #expect(Self.take(lane, bare) == nil)
        let (taken, rendered, _) = Self.takeRendering(lane, bare, defaultCollection: "wineTastingNotes")
        #expect(taken?.collection == nil)
        #expect(rendered == Self.v2Line + "\n")
    }

    @Test func aBatchHoldsTheLinesOfItsRecordsOneAfterAnother() throws {
        let lane = try #require(try Self.lane(from: 2, to: 2))
        let batch = lane.batch()
        let second = Self.v2Line.replacingOccurrences(of: #""id":"w1""#, with: #""id":"w2""#)
        var ranges: [Range<Int>?] = []
        for (number, line) in [Self.v2Line, "{broken", second].enumerated() {
            var line = line
            let taken = line.withUTF8 { batch.take(.jsonLine($0, line: number + 1, defaultCollection: nil)) }
            ranges.append(taken.flatMap { batch.preparation(of: $0.payload) }?.rendered)
        }
        // The payloads are the preparations' indexes.
        #expect(batch.preparation(of: 0)?.id == "w1")
        #expect(batch.preparation(of: 1)?.id == "w2")
        #expect(batch.preparation(of: 2) == nil)
        #expect(batch.preparation(of: -1) == nil)
        let first = Self.v2Line.utf8.count + 1
        #expect(ranges == [0..<first, nil, first..<(first + second.utf8.count + 1)])
        #expect(batch.withRendered { String(decoding: $0, as: UTF8.self) } == Self.v2Line + "\n" + second + "\n")
        #expect(batch.preparations.map(\.id) == ["w1", "w2"])
    }

    /// A line's route is found by comparing its `$collection` bytes with the route names; an
    /// escaped name is compared unescaped, and a name that only starts like a route's is no route.
    @Test func findsTheRouteByTheCollectionsBytes() throws {
        let lane = try #require(try Self.lane(from: 1, to: 2))
        let escaped = Self.v1Line.replacingOccurrences(of: #""$collection":"wineNotes""#, with: #""$collection":"wine\u004eotes""#)
        let (taken, rendered, _) = Self.takeRendering(lane, escaped)
        #expect(taken?.collection == "wineNotes")
        #expect(rendered == Self.v2Line + "\n")
        for other in ["wineNote", "wineNotesX", "WineNotes", "", "coffeeNotes"] {
            let line = Self.v1Line.replacingOccurrences(of: #""$collection":"wineNotes""#, with: "\"$collection\":\"\(other)\"")
            #expect(Self.take(lane, line) == nil, "\(other)")
        }
        // The scan's own answers.
        var line = escaped
        line.withUTF8 { bytes in
            let scan = JSONRecordScan(bytes)
            #expect(scan?.namesCollection == true)
            #expect(scan?.collection == "wineNotes")
            #expect(scan?.collectionIs("wineNotes") == true)
            #expect(scan?.collectionIs("wineNote") == false)
        }
        var bare = #"{"id":"x"}"#
        bare.withUTF8 { bytes in
            let scan = JSONRecordScan(bytes)
            #expect(scan?.namesCollection == false)
            #expect(scan?.collection == nil)
            #expect(scan?.collectionIs("") == false)
        }
    }
}
