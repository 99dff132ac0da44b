import FerryCore
import FerrySchemas
import FerryTestSupport
import FerryTypedPath
@testable import FormatXML
import Foundation
import Testing

/// An XML document's records are offered to the typed lane once libxml2 has parsed them
/// (`RawRecord.parsedText`): every command gives the bytes, diagnostics and status of the general
/// path (the goldens under `Fixtures/XMLTypedLaneCLITests`), with 1, 2 and 3 jobs, for each domain
/// at both versions, with duplicate ids,
/// dangling references, bad values, a missing element, an empty one and an unknown one put into
/// the document.
@Suite struct XMLTypedLaneCLITests {
    struct Cell: CustomTestStringConvertible, CustomStringConvertible, Sendable {
        var domain: String
        var version: Int
        var description: String { "\(domain) v\(version)" }
        var testDescription: String { description }
    }

    static let cells: [Cell] = ["notes", "pet-story", "vocabulary"].flatMap { domain in
        [1, 2].map { Cell(domain: domain, version: $0) }
    }

    /// Text replacements made in the XML document written from the dataset's valid records: each
    /// must apply at least once.
    static func edits(_ domain: String, version: Int) -> [(from: String, to: String)] {
        // The second record's title or caption element removed, the third's emptied, an element
        // no model has: as the XML reader reads them, a missing field, "" and an unknown field.
        switch domain {
        case "notes":
            return [("<id>w-002</id>", "<id>w-001</id>"), ("<think>", "<thinks>"), ("</think>", "</thinks>")]
                + (version == 1 ? [("<rating>4.5</rating>", "<rating>9</rating>")] : [("<rating>4.5</rating>", "<rating>4.55</rating>")])
                + [("<category>", "<category/><ignored>"), ("</category>", "</ignored>")]
        case "pet-story":
            return [("<caption>c 3</caption>", ""), ("<caption>c 7</caption>", "<caption/>"), ("<bio/>", "<bio/><colour>red</colour>"),
                    ("<id>m1</id>", "<id>mZ</id>")]
        default:
            return [("<meaningText>m 5</meaningText>", ""), ("<kanjiText>k</kanjiText>", "<kanjiText/>"),
                    ("<ganaText>g</ganaText>", "<ganaText>g</ganaText><extra>1</extra>"), ("<id>b1</id>", "<id>bZ</id>")]
        }
    }

    /// Writes the cell's XML document (`in.xml`) with the problems of `edits`.
    static func makeDocument(_ cell: Cell, in box: Sandbox) throws {
        let source = try BundleTypedLaneCLITests.writeSource(domain: cell.domain, version: cell.version, in: box)
        let making = try box.ferry(["convert", source, "--to", "xml", "-o", "clean.xml", "--lenient", "--quiet"])
        try #require(making.status <= 1 && box.exists("clean.xml"), "\(making.stderr)")
        var text = try box.text("clean.xml")
        for edit in edits(cell.domain, version: cell.version) {
            try #require(text.contains(edit.from), "\(cell): no \(edit.from)")
            if let range = text.range(of: edit.from) { text.replaceSubrange(range, with: edit.to) }
        }
        try box.write("in.xml", text)
    }

    @Test(arguments: cells) func xmlGivesTheGeneralPathsResults(_ cell: Cell) throws {
        let box = try Sandbox()
        try Self.makeDocument(cell, in: box)
        let runs = GoldenRuns(box, golden: "XMLTypedLaneCLITests/\(cell.domain)-v\(cell.version).txt")
        let validation = try runs.run(["validate", "in.xml"])
        #expect(validation.status == 1, "\(cell): \(validation.stderr)")
        #expect(validation.errors.contains { $0.contains("[unknown-field]") }, "\(cell)")
        if cell.domain == "pet-story" { #expect(validation.errors.contains { $0.contains("[missing-field]") }, "\(cell)") }
        if cell.domain != "notes" {
            #expect(validation.errors.contains { $0.contains("[dangling-reference]") }, "\(cell)")
        } else {
            #expect(validation.errors.contains { $0.contains("[duplicate-id]") }, "\(cell)")
        }
        let clean = try runs.run(["validate", "clean.xml"])
        #expect(clean.status <= 1, "\(cell): \(clean.stderr)")
        for input in ["in.xml", "clean.xml"] {
            try runs.run(["convert", input, "--to", "jsonl", "--lenient", "-o", "OUT"])
            try runs.run(["convert", input, "--to", "jsonl", "-o", "OUT"])
            try runs.run(["convert", input, "--to", "csv", "--lenient", "-o", "OUT/"])
            try runs.run(["convert", input, "--to", "xml", "--lenient", "-o", "OUT"])
            if cell.version == 1 {
                try runs.run(["migrate", input, "--to-version", "2", "--to", "jsonl", "--lenient", "-o", "OUT"])
                try runs.run(["migrate", input, "--to-version", "2", "--to", "xml", "--lenient", "-o", "OUT"])
                try runs.run(["validate", input, "--to-version", "2"])
            }
        }
        runs.expectGolden()
    }

    /// The records of an XML document are offered to the lane once parsed and taken, but for the
    /// first (read by `next()` before the batches) and one with a problem (left to the general
    /// path, which reports it).
    @Test func anXMLDocumentsRecordsAreTakenByTheLane() throws {
        // 300 wine notes, w-1000 to w-1299; w-1150's rating is no number.
        var notes = ""
        for n in 1000..<1300 {
            notes += """
                    <WineNote>
                      <id>w-\(n)</id>
                      <title>Note \(n)</title>
                      <category>red</category>
                      <createdAt>2024-05-01T09:30:00Z</createdAt>
                      <alcohol>13.5</alcohol>
                      <look>ruby</look>
                      <smells>
                        <item>plum</item>
                      </smells>
                      <tastes type="list"/>
                      <grape>Nebbiolo</grape>
                      <think/>
                      <rating>\(n == 1150 ? "five" : "4.5")</rating>
                      <isFavorite>false</isFavorite>
                    </WineNote>

                """
        }
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<dataset domain=\"notes\" schemaVersion=\"1\">\n  <wineNotes>\n"
            + notes + "  </wineNotes>\n</dataset>\n"
        let log = DiagnosticLog()
        let reader = try XMLRecordReader(MemorySource(Array(text.utf8)), options: ReadOptions(fileName: "n.xml"), log: log,
            chunkSize: 4096)
        #expect(reader.takesRawRecords)
        var options = ProcessingOptions()
        options.scalarsAsText = true
        let processor = try DatasetProcessor(domain: .notes, sourceVersion: 1, targetVersion: 1, options: options, log: log)
        let lane = try #require(TypedLane(preparer: processor.preparer, output: .nothing))
        var taken: [String] = []
        var general: [String] = []
        func generalRecord(_ record: Record) {
            general.append(record.value.objectValue?["id"]?.stringValue ?? "-")
        }
        if let first = try reader.next() { generalRecord(first) }
        while let batch = try reader.nextBatch(limit: 128) {
            let taker = lane.batch()
            batch.parse(offering: taker)
            taker.finishTaking()
            for item in reader.items(from: batch) {
                switch item {
                case .taken(let item):
                    let record = item.record
                    #expect(record.value == .null)
                    #expect(record.location.recordIndex == item.recordIndex && record.location.line == item.start.line)
                    #expect(record.locator?.position(of: JSONPointer(tokens: ["rating"])) != nil)
                    let preparation = try #require(taker.preparation(of: item.payload))
                    // The id's line, found while taking: the element's line, 16 lines a note from line 4.
                    let index = taken.count + general.count
                    #expect(preparation.singleLine == 5 + 16 * index, "\(preparation.id ?? "-")")
                    taken.append(preparation.id ?? "-")
                case .record(let record):
                    generalRecord(record)
                case .problem(let diagnostic):
                    Issue.record("\(diagnostic)")
                case .failure(let error):
                    Issue.record("\(error)")
                }
            }
        }
        while let record = try reader.next() { generalRecord(record) }
        #expect(general == ["w-1000", "w-1150"], "\(general)")
        #expect(taken == (1001..<1300).filter { $0 != 1150 }.map { "w-\($0)" })
    }
}
