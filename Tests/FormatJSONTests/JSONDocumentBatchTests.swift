import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FormatJSON

/// A JSON document's batches (`--jobs`) give exactly what `next()` gives: the same records with
/// the same collections, indexes, positions, nesting and locators, and the same error at the same
/// point, on random documents (collection arrays, objects keyed by document id, Firestore
/// collection maps) and on corrupted copies of them, read in chunks of every size.
@Suite struct JSONDocumentBatchTests {
    /// Every record as "COLLECTION DOCUMENT-ID INDEX LINE:COLUMN VALUE ID-POSITION", then the
    /// error that ended the reading, if any, as "failure DESCRIPTION".
    private static func reader(_ bytes: [UInt8], chunk: Int, recordLimit: Int) -> JSONDocumentReader {
        var options = ReadOptions(fileName: "d.json", collection: "loose")
        options.nestedCollections = NestedCollections(mapMembers: ["__collections__"], domains: ["notes"])
        return JSONDocumentReader(
            source: MemorySource(bytes), options: options, chunkSize: chunk, maximumRecordSize: recordLimit)
    }

    private static func serial(_ bytes: [UInt8], chunk: Int, recordLimit: Int) -> [String] {
        let reader = reader(bytes, chunk: chunk, recordLimit: recordLimit)
        var events: [String] = []
        do {
            while let record = try reader.next() { events.append(describe(record)) }
        } catch {
            events.append("failure \(error)")
        }
        return events
    }

    private static func batched(_ bytes: [UInt8], chunk: Int, recordLimit: Int, limit: Int, firstBySerial: Bool) -> [String] {
        let reader = reader(bytes, chunk: chunk, recordLimit: recordLimit)
        var events: [String] = []
        do {
            if firstBySerial, let record = try reader.next() { events.append(describe(record)) }
            while let batch = try reader.nextBatch(limit: limit) {
                batch.parse()
                for item in reader.items(from: batch) {
                    switch item {
                    case .record(let record): events.append(describe(record))
                    case .failure(let error): throw error
                    case .problem, .taken: events.append("unexpected item \(item)")
                    }
                }
            }
            if let rest = try reader.next() { events.append("after the batches " + describe(rest)) }
        } catch {
            events.append("failure \(error)")
            // Reading stays stopped, with the same error.
            do {
                _ = try reader.next()
                events.append("read on after the failure")
            } catch {
                events.append("again \(error)")
            }
        }
        return events
    }

    private static func describe(_ record: Record) -> String {
        "\(record.collection ?? "-") \(record.documentID ?? "-") \(record.location.recordIndex ?? -1) "
            + "\(record.location.line ?? -1):\(record.location.column ?? -1) \(record.value) "
            + "\(record.nesting.map { "\($0.token)/\($0.documentID ?? "-")" } ?? "-") "
            + "\(record.value.objectValue?["id"] == nil ? "-" : record.locator?.position(of: JSONPointer(tokens: ["id"]))?.description ?? "-")"
    }

    /// A random JSON text: strings with escapes and brackets, nested containers, every scalar.
    private static func value(_ random: inout SplitMix, depth: Int) -> String {
        let strings = ["\"a\"", "\"[{\"", "\"}]\\\"\"", "\"\\\\\"", "\"é\\n\"", "\"\\u005d\"", "\"\"", "\"샤토 \\\\\\\"x\""]
        switch random.next(depth > 3 ? 4 : 7) {
        case 0: return strings[random.next(strings.count)]
        case 1: return ["0", "-1.5e3", "12", "3.25"][random.next(4)]
        case 2: return ["true", "false", "null"][random.next(3)]
        case 3: return strings[random.next(strings.count)]
        case 4, 5:
            let count = random.next(4)
            let members = (0..<count).map { i in "\"k\(i)\":\(space(&random))\(value(&random, depth: depth + 1))" }
            return "{" + members.joined(separator: ",\(space(&random))") + "}"
        default:
            let count = random.next(4)
            return "[" + (0..<count).map { _ in value(&random, depth: depth + 1) }.joined(separator: ",\(space(&random))") + "]"
        }
    }

    private static func space(_ random: inout SplitMix) -> String { ["", " ", "\n  ", "\r\n\t"][random.next(4)] }

    /// An element of a collection: mostly an object with an id, at times another value.
    private static func element(_ random: inout SplitMix, index: Int) -> String {
        switch random.next(12) {
        case 0: return value(&random, depth: 3)
        case 1: return "[\(value(&random, depth: 2)), \"x\"]"
        default:
            return "{\(space(&random))\"id\": \"r\(index)\", \"v\":\(space(&random))\(value(&random, depth: 1)), \"s\": \"}{\\\"\"}"
        }
    }

    private static func document(_ random: inout SplitMix) -> String {
        func array(_ count: Int) -> String {
            "[" + (0..<count).map { "\(space(&random))\(element(&random, index: $0))" }.joined(separator: ",") + "\(space(&random))]"
        }
        if random.next(4) == 0 { return space(&random) + array(random.next(300)) + space(&random) }
        var members = ["\"domain\": \"notes\"", "\"schemaVersion\": 2"]
        for c in 0..<(1 + random.next(3)) {
            switch random.next(5) {
            case 0: members.append("\"keyed\(c)\": {\"a\": {\"id\": \"x\"}, \"b\": [1, {\"id\": \"y\"}]}")
            case 1 where c == 0:
                // A Firestore export: documents keyed by id (or listed), each with its own collections.
                func documents(_ count: Int) -> String {
                    "{" + (0..<count).map { i in
                        "\(space(&random))\"d\(i)\": " + (random.next(5) == 0 ? value(&random, depth: 2)
                            : "{\"t\": \(value(&random, depth: 2)), \"__collections__\": {\"sub\": {\"s\(i)\": \(element(&random, index: i))}}}")
                    }.joined(separator: ",") + "}"
                }
                members.append("\"__collections__\": {\"books\": \(documents(random.next(30))), \"list\": \(array(random.next(20))), "
                    + "\"odd\": 3, \"more\": \(documents(random.next(3)))}")
            case 1: members.append("\"scalar\(c)\": \"text\"")
            default: members.append("\"c\(c)\": " + array(random.next(400)))
            }
        }
        return "\u{FEFF}{\n  " + members.joined(separator: ",\n  ") + "\n}\n"
    }

    /// `bytes` with one of the edits that break a document: a byte dropped or added, a cut.
    private static func corrupted(_ bytes: [UInt8], _ random: inout SplitMix) -> [UInt8] {
        random.corrupted(bytes, inserting: Array("{}[]\"\\,x:".utf8))
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func batchesGiveWhatNextGives(seed: UInt64) {
        var random = SplitMix(seed: seed)
        for round in 0..<12 {
            var bytes = Array(Self.document(&random).utf8)
            if round % 2 == 1 { bytes = Self.corrupted(bytes, &random) }
            for (chunk, recordLimit) in [(64 * 1024, 256 << 20), (7, 256 << 20), (100, 600)] {
                let expected = Self.serial(bytes, chunk: chunk, recordLimit: recordLimit)
                for (limit, firstBySerial) in [(128, true), (3, false), (1, true)] {
                    let got = Self.batched(bytes, chunk: chunk, recordLimit: recordLimit, limit: limit, firstBySerial: firstBySerial)
                    var wanted = expected
                    if let failure = wanted.last, failure.hasPrefix("failure ") {
                        wanted.append("again " + failure.dropFirst("failure ".count))
                    }
                    #expect(got == wanted, "seed \(seed) round \(round) chunk \(chunk) limit \(limit): \(String(decoding: bytes, as: UTF8.self))")
                }
            }
        }
    }
}
