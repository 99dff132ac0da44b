import FerryCore
import FerrySchemas
import FormatJSON
import Testing

@testable import FerryTypedPath

/// The one-stage migration on models where the codecs keep them (`TypedPairCodec`: the old model
/// decoded in place, the step's body run on it by `MigrationStep.migrateUnchecked(_:into:in:)`,
/// the new model checked and written where the target codec made room for it, no existential box)
/// writes the bytes of the boxed route (`TypedRoute.migrate` on boxed models, then the target
/// codec's rendering), and refuses what it refuses. Records come from each model's descriptor
/// (`RecordGenerator`): every collection of every domain with a V1 -> V2 step, plain and broken.
@Suite struct UnboxedPairTests {
    static let domains: [Domain] = [.notes, .petStory, .vocabulary]

    @Test(arguments: domains, [0, 20])
    func migratedLinesAreTheBytesOfTheBoxedRoute(domain: Domain, brokenPercent: Int) throws {
        let processor = try DatasetProcessor(domain: domain, sourceVersion: 1, targetVersion: 2, options: ProcessingOptions(),
            log: DiagnosticLog())
        let rendering = try #require(JSONLinesRendering(options: WriteOptions()))
        var (compared, taken, mismatches) = (0, 0, [String]())
        for collection in processor.preparer.sourceCollections {
            guard let route = processor.preparer.typedRoute(for: collection), let pair = TypedPairCodec.codec(for: route),
                  let source = TypedModelCodec.codec(for: route.sourceModel),
                  let target = TypedModelCodec.codec(for: route.targetModel)
            else { continue }
            var generator = RecordGenerator(random: SeededGenerator(state: UInt64(brokenPercent * 7919 + compared)),
                brokenPercent: brokenPercent)
            for _ in 0..<200 {
                guard let line = try? JSONText.encode(generator.object(route.sourceModel.recordType), pretty: false) else { continue }
                let unboxed = Self.line(line) { scan, buffer in
                    pair.migrateJSON(scan, .plainLine, .lines(rendering), &buffer) != nil
                }
                let boxed = Self.line(line) { scan, buffer in
                    guard let old = source.decodeJSON(scan, .plainLine), let new = route.migrate(old) else { return false }
                    return target.passBoxed(new, old.recordID, route.targetCollection, .lines(rendering), &buffer) != nil
                }
                if unboxed != boxed { mismatches.append("\(collection): \(String(decoding: line, as: UTF8.self))") }
                compared += 1
                if unboxed != nil { taken += 1 }
            }
        }
        #expect(compared >= 200, "\(compared) records compared")
        // Most generated records are refused (a derived id, a lossy drop, a V2 rule) and go the
        // general path; both routes must refuse the same ones.
        if brokenPercent == 0 { #expect(taken >= 10, "\(taken) of \(compared) migrated") }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3).joined(separator: "\n"))")
    }

    /// What `body` appends for the scanned `line` (nil when it gives up or the line does not scan).
    static func line(_ line: [UInt8], _ body: (JSONRecordScan, inout ByteBuffer) -> Bool) -> String? {
        var buffer = ByteBuffer(capacity: 64)
        let done = line.withUnsafeBufferPointer { bytes -> Bool in
            guard let scan = JSONRecordScan(bytes) else { return false }
            return body(scan, &buffer)
        }
        return done ? String(decoding: buffer.array, as: UTF8.self) : nil
    }

    /// A wine note's exact V2 line: text moved into nested objects, split, unescaped (`\/`) and
    /// escaped again (`\"`, `\t`); numbers written in their own form (`1E1` as `10`, `0.10` as
    /// `0.1`, `-0` as `0`).
    @Test func exactLineOfAWineNote() throws {
        let processor = try DatasetProcessor(domain: .notes, sourceVersion: 1, targetVersion: 2, options: ProcessingOptions(),
            log: DiagnosticLog())
        let route = try #require(processor.preparer.typedRoute(for: "wineNotes"))
        let pair = try #require(TypedPairCodec.codec(for: route))
        let rendering = try #require(JSONLinesRendering(options: WriteOptions()))
        let v1 = #"{"$collection":"wineNotes","id":"w-1234567890abcdef","title":"A \"quoted\" title that is long","#
            + #""category":"red\/white","createdAt":"2024-05-01T09:30:00Z","alcohol":1E1,"look":"ruby, deep","#
            + #""smells":["plum","a long smell, with a comma","tab\there"],"tastes":[{"label":"body","value":0.10},"#
            + #"{"label":"finish","value":-0}],"grape":"Pinot Noir, old vines","think":"Lovely, long finish.","#
            + #""rating":4.5,"isFavorite":false}"#
        let v2 = #"{"$collection":"wineTastingNotes","id":"w-1234567890abcdef","title":"A \"quoted\" title that is long","#
            + #""category":"red/white","createdAt":"2024-05-01T09:30:00Z","alcoholByVolume":10,"look":{"tint":"ruby","note":"deep"},"#
            + #""smells":[{"label":"plum"},{"label":"a long smell, with a comma"},{"label":"tab\there"}],"#
            + #""tastes":[{"label":"body","value":0.1},{"label":"finish","value":0}],"grape":{"variety":"Pinot Noir, old vines"},"#
            + #""think":"Lovely, long finish.","rating":4.5,"isFavorite":false}"# + "\n"
        let migrated = Self.line(Array(v1.utf8)) { scan, buffer in
            pair.migrateJSON(scan, .plainLine, .lines(rendering), &buffer) != nil
        }
        #expect(migrated == v2)
    }
}
