import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FormatXML

/// An XML document's batches (`--jobs`) give exactly what `next()` gives: the same records with
/// the same collections, indexes, positions and locators, the same problems, and the same error
/// at the same point, on random documents (pretty and on one line, comments, CDATA, processing
/// instructions, `>` in attribute values, non-ASCII names, several collections) and on corrupted
/// copies of them, whatever the size of the reader's chunks.
@Suite struct XMLRecordBatchTests {
    /// Records as "COLLECTION INDEX LINE:COLUMN VALUE FIELD-POSITION" and, apart, the problems;
    /// then the error that ended the reading, if any, as "failure DESCRIPTION".
    struct Events: Equatable, CustomStringConvertible {
        var records: [String] = []
        var problems: [String] = []
        var description: String { (records + ["problems:"] + problems).joined(separator: "\n") }
    }

    private static func serial(_ bytes: [UInt8], chunk: Int) throws -> Events {
        let log = DiagnosticLog()
        let reader = try XMLRecordReader(MemorySource(bytes), options: ReadOptions(fileName: "d.xml"), log: log, chunkSize: chunk)
        var events = Events()
        do {
            while let record = try reader.next() { events.records.append(describe(record)) }
        } catch {
            events.records.append("failure \(error)")
        }
        events.problems = log.diagnostics.map(\.description)
        return events
    }

    private static func batched(_ bytes: [UInt8], chunk: Int, limit: Int) throws -> (events: Events, batches: Int) {
        let log = DiagnosticLog()
        let reader = try XMLRecordReader(MemorySource(bytes), options: ReadOptions(fileName: "d.xml"), log: log, chunkSize: chunk)
        var events = Events()
        var segments = 0
        do {
            if let record = try reader.next() { events.records.append(describe(record)) }
            while let batch = try reader.nextBatch(limit: limit) {
                if (batch as? XMLBatch)?.hasRecordElements == true { segments += 1 }
                batch.parse()
                for item in reader.items(from: batch) {
                    switch item {
                    case .record(let record): events.records.append(describe(record))
                    case .problem(let diagnostic): events.problems.append(diagnostic.description)
                    case .failure(let error): throw error
                    case .taken: events.records.append("unexpected item \(item)")
                    }
                }
            }
            while let record = try reader.next() { events.records.append(describe(record)) }
        } catch {
            events.records.append("failure \(error)")
            do {
                _ = try reader.next()
                events.records.append("read on after the failure")
            } catch {
                events.records.append("again \(error)")
            }
        }
        events.problems += log.diagnostics.map(\.description)
        return (events, segments)
    }

    private static func describe(_ record: Record) -> String {
        let first = record.value.objectValue?.keys.first
        let position = first.flatMap { record.locator?.position(of: JSONPointer(tokens: [$0]))?.description } ?? "-"
        return "\(record.collection ?? "-") \(record.location.recordIndex ?? -1) "
            + "\(record.location.line ?? -1):\(record.location.column ?? -1) \(record.value) \(first ?? "-")@\(position)"
    }

    /// A random field: text with references, CDATA and non-ASCII, lists, objects, markers.
    private static func field(_ random: inout SplitMix, name: String, depth: Int, _ gap: String) -> String {
        let texts = ["a", "Barolo &amp; &lt;N&gt;", "&#x41;&#233;", "<![CDATA[x < y]]>", "샤토", "  ", "4.5", "é<!-- c -->f", "<?pi x?>t"]
        switch random.next(depth > 2 ? 3 : 6) {
        case 0, 1: return "<\(name)>\(texts[random.next(texts.count)])</\(name)>"
        case 2: return ["<\(name)/>", "<\(name) type=\"list\"/>", "<\(name) note=\"a>b\" type='object'></\(name)>"][random.next(3)]
        case 3:
            let items = (0..<random.next(3)).map { _ in field(&random, name: "item", depth: depth + 1, gap + "  ") }
            return "<\(name)>" + items.map { gap + "  " + $0 }.joined() + gap + "</\(name)>"
        case 4:
            return "<\(name)>\(gap)  <Straße>x</Straße>\(gap)  " + field(&random, name: "inner", depth: depth + 1, gap + "  ") + "\(gap)</\(name)>"
        default:
            // Not of the mapping: text mixed with an element (a problem, the record is skipped).
            return "<\(name)>t<b>u</b></\(name)>"
        }
    }

    private static func record(_ random: inout SplitMix, index: Int, _ gap: String) -> String {
        let name = random.next(2) == 0 ? "Récord" : "R"
        let fields = (0..<(1 + random.next(4))).map { "\(gap)  " + field(&random, name: "f\($0)", depth: 1, gap + "  ") }
        return "<\(name)>\(gap)  <id>r\(index)</id>" + fields.joined() + "\(gap)</\(name)>"
    }

    private static func document(_ random: inout SplitMix) -> String {
        let pretty = random.next(3) != 0
        let nl = pretty ? "\n" : ""
        var text = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", "", "\u{FEFF}<!-- head -->"][random.next(3)]
        text += "<dataset domain=\"notes\" schemaVersion=\"2\">"
        let collections = ["wineTastingNotes", "field name=\"a &amp; b\"", "Wörter"]
        for _ in 0..<(1 + random.next(3)) {
            let tag = collections[random.next(collections.count)]
            let name = String(tag.prefix { $0 != " " })
            text += nl + (pretty ? "  " : "") + "<\(tag)>"
            let gap = pretty ? "\n    " : ""
            for index in 0..<random.next(700) {
                text += gap + record(&random, index: index, gap)
                switch random.next(40) {
                case 0: text += gap + "<!-- between -->"
                case 1: text += gap + "stray text"
                case 2: text += "<?between pi?>"
                default: break
                }
            }
            text += nl + (pretty ? "  " : "") + "</\(name)>"
        }
        return text + nl + "</dataset>\n"
    }

    /// `bytes` with one of the edits that break a document: a byte dropped or added, a cut.
    private static func corrupted(_ bytes: [UInt8], _ random: inout SplitMix) -> [UInt8] {
        random.corrupted(bytes, inserting: Array("<>&\"/x\r-]".utf8))
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func batchesGiveWhatNextGives(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        var segments = 0
        for round in 0..<8 {
            var bytes = Array(Self.document(&random).utf8)
            if round % 2 == 1 { bytes = Self.corrupted(bytes, &random) }
            for chunk in [64 * 1024, 1000] {
                var expected = try Self.serial(bytes, chunk: chunk)
                if let failure = expected.records.last, failure.hasPrefix("failure ") {
                    expected.records.append("again " + failure.dropFirst("failure ".count))
                }
                for limit in [128, 5] {
                    let (got, count) = try Self.batched(bytes, chunk: chunk, limit: limit)
                    segments += count
                    #expect(got.records == expected.records, "seed \(seed) round \(round) chunk \(chunk) limit \(limit)")
                    #expect(got.problems.sorted() == expected.problems.sorted(), "seed \(seed) round \(round) chunk \(chunk) limit \(limit)")
                }
            }
        }
        // The documents were cut, not all read by `next()`.
        #expect(segments > 20)
    }

    /// A document that declares a namespace or has a DOCTYPE is read by `next()` alone.
    @Test(arguments: [
        "<dataset xmlns:a=\"urn:a\"><c>\n<r><a:x>1</a:x></r>\n<r><a:x>2</a:x></r>\n</c></dataset>",
        "<!DOCTYPE dataset [<!ATTLIST r kind CDATA \"d\">]><dataset><c>\n<r><x>1</x></r>\n<r><x>2</x></r>\n</c></dataset>",
    ])
    func documentsThatNeedTheirHeadAreNotCut(_ text: String) throws {
        let reader = try XMLRecordReader(MemorySource(Array(text.utf8)), options: ReadOptions(fileName: "d.xml"), log: DiagnosticLog())
        #expect(try reader.next() != nil)
        #expect(try reader.nextBatch(limit: 128).map { ($0 as? XMLBatch)?.hasRecordElements } ?? false == false)
    }

    /// A batch's bytes are parsed from the line and column where they stand: a mismatch in the
    /// third record of the second batch is reported as the whole parse reports it.
    @Test func aMismatchInABatchHasTheWholeParsesPosition() throws {
        var text = "<dataset domain=\"notes\">\n  <c>\n"
        for i in 0..<10 { text += "    <r><id>r\(i)</id>\(i == 7 ? "<x></y>" : "")</r>\n" }
        text += "  </c>\n</dataset>\n"
        let (events, batches) = try Self.batched(Array(text.utf8), chunk: 50, limit: 3)
        #expect(batches == 3)
        #expect(events.records.suffix(2) == [
            "failure d.xml:10:26: error: Opening and ending tag mismatch: x line 10 and y [malformed-xml]",
            "again d.xml:10:26: error: Opening and ending tag mismatch: x line 10 and y [malformed-xml]",
        ])
        #expect(events.records.count == 9)
    }
}
