import FerryCore
import FerrySchemas
import FormatJSON
import Testing

@testable import FerryTypedPath
import Foundation

/// The pair-specialized migration (`TypedPairCodec`): for every notes V1 collection it gives the
/// bytes of the general path and of the boxed typed stage, and it leaves every record the stage
/// gives up on to the general path, with nothing rendered.
@Suite struct TypedPairCodecTests {
    /// One plain V1 line per collection, and the line each becomes in V2 (as the general path writes it).
    static let lines: [(v1: String, v2: String)] = [
        (
            #"{"$collection":"wineNotes","id":"w1","title":"Syrah \"Cuvée\"","category":"red","createdAt":"2024-05-01T09:30:00.250+02:00","alcohol":13.0,"look":" ruby , deep ","smells":["oak","cherry"],"tastes":[{"label":"body","value":0.5},{"label":"산미","value":1}],"grape":"Syrah","think":"a\nb","rating":4.5,"isFavorite":true}"#,
            #"{"$collection":"wineTastingNotes","id":"w1","title":"Syrah \"Cuvée\"","category":"red","createdAt":"2024-05-01T07:30:00.250Z","alcoholByVolume":13,"look":{"tint":"ruby","note":"deep"},"smells":[{"label":"oak"},{"label":"cherry"}],"tastes":[{"label":"body","value":0.5},{"label":"산미","value":1}],"grape":{"variety":"Syrah"},"think":"a\nb","rating":4.5,"isFavorite":true}"#
        ),
        (
            #"{"$collection":"coffeeNotes","id":"c1","title":"Kenya AA","category":"pour-over","createdAt":"2024-05-01T09:30:00Z","alcohol":0,"look":"  ","smells":["berry"],"tastes":[],"think":"","rating":4,"isFavorite":false}"#,
            #"{"$collection":"coffeeTastingNotes","id":"c1","title":"Kenya AA","category":"pour-over","createdAt":"2024-05-01T09:30:00Z","smells":[{"label":"berry"}],"tastes":[],"think":"","rating":4,"isFavorite":false}"#
        ),
        (
            #"{"$collection":"whiskeyNotes","id":"k9","title":"Islay","category":"single malt","createdAt":"2024-05-01T09:30:00.001Z","imageData":"aGVsbG8gd29ybGQ=","alcohol":46,"look":"amber","smells":["peat"],"tastes":[{"label":"smoke","value":0.9}],"finish":{"length":" Long ","note":"smoke"},"think":"","rating":4.5,"isFavorite":false}"#,
            #"{"$collection":"whiskeyTastingNotes","id":"k9","title":"Islay","category":"single malt","createdAt":"2024-05-01T09:30:00.001Z","imageData":"aGVsbG8gd29ybGQ=","alcoholByVolume":46,"look":{"tint":"amber","note":""},"smells":[{"label":"peat"}],"tastes":[{"label":"smoke","value":0.9}],"finish":{"length":"long","note":"smoke"},"think":"","rating":4.5,"isFavorite":false}"#
        ),
        (
            #"{"$collection":"cocktailNotes","id":"n1","title":"Negroni","category":"classic","createdAt":"2024-05-01T09:30:00Z","alcohol":24,"look":"","smells":[],"tastes":[{"label":"bitter","value":0.8}],"ingredients":[{"name":"gin","amount":"30ml"},{"name":"Campari","amount":"30ml"}],"isContainsIce":true,"think":"bitter","rating":5,"isFavorite":true}"#,
            #"{"$collection":"cocktailTastingNotes","id":"n1","title":"Negroni","category":"classic","createdAt":"2024-05-01T09:30:00Z","alcoholByVolume":24,"tastes":[{"label":"bitter","value":0.8}],"ingredients":[{"name":"gin","amount":"30ml"},{"name":"Campari","amount":"30ml"}],"isContainsIce":true,"think":"bitter","rating":5,"isFavorite":true}"#
        ),
    ]

    static func processor(from source: Int = 1, to target: Int = 2, mode: ProcessingMode = .normal) throws -> DatasetProcessor {
        var options = ProcessingOptions()
        options.mode = mode
        return try DatasetProcessor(domain: .notes, sourceVersion: source, targetVersion: target, options: options,
            log: DiagnosticLog())
    }

    /// The route of `collection` and its pair's codec.
    static func pair(_ collection: String, _ processor: DatasetProcessor) throws -> (TypedRoute, TypedPairCodec) {
        let route = try #require(processor.preparer.typedRoute(for: collection))
        return (route, try #require(TypedPairCodec.codec(for: route)))
    }

    /// What the pair makes of `line`: the id and the rendered line (nil: given up, and then
    /// nothing was appended after `previous`).
    static func migrated(_ line: String, _ route: TypedRoute, _ codec: TypedPairCodec) throws -> (id: String?, line: String)? {
        let rendering = try #require(JSONLinesRendering(options: WriteOptions()))
        var buffer = ByteBuffer(capacity: 16)
        buffer.append(Array("previous\n".utf8))
        var line = line
        let passed = line.withUTF8 { bytes -> PassedRecord? in
            guard let scan = JSONRecordScan(bytes) else { return nil }
            return codec.migrateJSON(scan, .plainLine, .lines(rendering), &buffer)?.0
        }
        guard let passed else {
            #expect(buffer.count == 9, "nothing appended when the pair gives up")
            return nil
        }
        let range = try #require(passed.rendered)
        #expect(range.lowerBound == 9)
        #expect(range.upperBound == buffer.count)
        return (passed.id, buffer.withBytes { String(decoding: $0[range], as: UTF8.self) })
    }

    /// The leading `$collection` of a line.
    static func collection(of line: String) -> String? {
        var line = line
        return line.withUTF8 { JSONRecordScan($0)?.collection }
    }

    /// The line the general path writes for `line` (parsed, prepared and written the usual way).
    static func general(_ line: String, _ processor: DatasetProcessor) throws -> String {
        let log = DiagnosticLog()
        let reader = JSONLinesReader(source: MemorySource(line), options: ReadOptions(fileName: "t.jsonl"), log: log)
        let record = try #require(try reader.next())
        let output = processor.process(record)
        #expect(log.diagnostics.isEmpty)
        let sink = MemorySink()
        let writer = JSONLinesWriter(sink: sink, options: WriteOptions())
        for record in output { try writer.write(record) }
        try writer.finish()
        return String(decoding: sink.bytes, as: UTF8.self)
    }

    /// The line the boxed typed stage gives (`TypedRoute.migrate`, then the target's codec).
    static func boxed(_ line: String, _ route: TypedRoute) throws -> String? {
        let source = try #require(TypedModelCodec.codec(for: route.sourceModel))
        let target = try #require(TypedModelCodec.codec(for: route.targetModel))
        let rendering = try #require(JSONLinesRendering(options: WriteOptions()))
        var buffer = ByteBuffer(capacity: 16)
        var line = line
        let done = line.withUTF8 { bytes -> Bool in
            guard let scan = JSONRecordScan(bytes), let old = source.decodeJSON(scan, .plainLine),
                  let new = route.migrate(old)
            else { return false }
            return target.passBoxed(new, old.recordID, route.targetCollection, .lines(rendering), &buffer) != nil
        }
        return done ? String(decoding: buffer.array, as: UTF8.self) : nil
    }

    @Test func everyNotesV1RouteHasItsPair() throws {
        let processor = try Self.processor()
        #expect(processor.preparer.sourceCollections == ["wineNotes", "coffeeNotes", "whiskeyNotes", "cocktailNotes"])
        for collection in processor.preparer.sourceCollections {
            let (route, _) = try Self.pair(collection, processor)
            #expect(route.singleStage?.step.sourceModel.collection == collection)
            #expect(route.singleStage?.environment.sourceCollection == collection)
            #expect(route.singleStage?.environment.targetCollection == route.targetCollection)
        }
        // No stage, no pair (the route passes its records through).
        let validating = try Self.processor(from: 2, to: 2)
        let route = try #require(validating.preparer.typedRoute(for: "wineTastingNotes"))
        #expect(route.singleStage == nil)
        #expect(TypedPairCodec.codec(for: route) == nil)
    }

    @Test(arguments: 0..<4) func givesTheBytesOfTheGeneralPath(index: Int) throws {
        let (v1, v2) = Self.lines[index]
        let processor = try Self.processor()
        let collection = try #require(Self.collection(of: v1))
        let (route, codec) = try Self.pair(collection, processor)
        let migrated = try #require(try Self.migrated(v1, route, codec))
        #expect(migrated.line == v2 + "\n")
        #expect(migrated.id == ["w1", "c1", "k9", "n1"][index])
        #expect(try Self.general(v1, processor) == v2 + "\n")
        #expect(try Self.boxed(v1, route) == v2 + "\n")
        // For a writer that takes values: the V2 note's canonical value, as the line writes it.
        let value = try #require(try Self.migratedValue(v1, route, codec))
        var written = ByteBuffer(capacity: 64)
        try written.appendJSONValue(value)
        let members = try #require(v2.firstRange(of: "\",\"id\""))
        #expect(String(decoding: written.array, as: UTF8.self) == "{" + v2[v2.index(members.lowerBound, offsetBy: 2)...])
        // And the lane takes the line through its pair.
        let lane = try #require(TypedLane(preparer: processor.preparer, output: .lines(JSONLinesRendering(options: WriteOptions())!)))
        #expect(TypedLaneTests.takeRendering(lane, v1).rendered == v2 + "\n")
    }

    /// What the pair makes of `line` for a writer that takes values (nothing is rendered).
    static func migratedValue(_ line: String, _ route: TypedRoute, _ codec: TypedPairCodec) throws -> Value? {
        var buffer = ByteBuffer(capacity: 16)
        var line = line
        let passed = line.withUTF8 { bytes -> PassedRecord? in
            guard let scan = JSONRecordScan(bytes) else { return nil }
            return codec.migrateJSON(scan, .plainLine, .values, &buffer)?.0
        }
        #expect(buffer.count == 0, "no line rendered for a value")
        #expect(passed?.rendered == nil)
        return passed?.value
    }

    /// Changes the stage (or V2's rules) refuses: the pair gives up, the boxed stage too, and the
    /// lane leaves the line to the general path.
    static let refused: [(index: Int, from: String, to: String)] = [
        (0, #""rating":4.5"#, #""rating":6"#), (0, #""id":"w1","#, ""), (0, #""title":"Syrah \"Cuvée\"""#, #""title":"""#),
        (0, #""value":0.5"#, #""value":1.5"#), (0, #""alcohol":13.0"#, #""alcohol":100.5"#),
        (1, #""alcohol":0"#, #""alcohol":0.5"#), (1, #""look":"  ""#, #""look":"dark""#),
        (2, #""length":" Long ""#, #""length":"lingering""#), (2, #""rating":4.5"#, #""rating":4.25"#),
        (3, #""smells":[]"#, #""smells":["orange"]"#), (3, #""look":"""#, #""look":"red""#),
    ]

    @Test(arguments: 0..<11) func leavesWhatTheStageRefusesToTheGeneralPath(case index: Int) throws {
        let change = Self.refused[index]
        let line = Self.lines[change.index].v1.replacingOccurrences(of: change.from, with: change.to)
        #expect(line != Self.lines[change.index].v1)
        for mode in [ProcessingMode.normal, .lenient, .strict] {
            let processor = try Self.processor(mode: mode)
            let collection = try #require(Self.collection(of: line))
            let (route, codec) = try Self.pair(collection, processor)
            #expect(try Self.migrated(line, route, codec) == nil, "\(change) \(mode)")
            #expect(try Self.boxed(line, route) == nil, "\(change) \(mode)")
            let lane = try #require(TypedLane(preparer: processor.preparer, output: .lines(JSONLinesRendering(options: WriteOptions())!)))
            #expect(TypedLaneTests.take(lane, line) == nil, "\(change) \(mode)")
        }
    }

    @Test func withoutRenderingOnlyTheIdIsGiven() throws {
        let processor = try Self.processor()
        let (_, codec) = try Self.pair("wineNotes", processor)
        var buffer = ByteBuffer(capacity: 16)
        var line = Self.lines[0].v1
        let passed = line.withUTF8 { bytes -> PassedRecord? in
            guard let scan = JSONRecordScan(bytes) else { return nil }
            return codec.migrateJSON(scan, .plainLine, .nothing, &buffer)?.0
        }
        #expect(passed?.id == "w1")
        #expect(passed?.rendered == nil)
        #expect(buffer.count == 0)
    }
}
