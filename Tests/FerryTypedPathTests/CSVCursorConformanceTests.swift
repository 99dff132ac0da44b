import FerryCore
import FerrySchemas
import FormatCSV
import Foundation
import Testing

@testable import FerryTypedPath

/// Every cursor reads the same records into the same models with the same diagnostics: a CSV row
/// read by `ModelReader` over its cells (`CSVCursor`, members found by key and through the
/// model's `CSVFieldMap`) against the same row read by the CSV reader
/// into a `Value` and read over it (`ValueCursor`), with the record's context (and so its locator:
/// the same lines and columns) shared and `scalarsAsText` set, as for every CSV input. Records
/// come from each model's descriptor (`RecordGenerator`, flattened into a header and a row):
/// every collection model of every domain and version, plain and broken, with cells and header
/// names corrupted on top.
@Suite struct CSVCursorConformanceTests {
    static let domains: [Domain] = [.notes, .petStory, .vocabulary]

    @Test(arguments: domains, [0, 25, 60])
    func everyModelReadsAlikeFromCellsAndFromValue(domain: Domain, brokenPercent: Int) throws {
        var visitor = CSVConformanceVisitor(brokenPercent: brokenPercent)
        domain.forEachModel(&visitor)
        #expect(visitor.compared >= 400, "\(visitor.compared) rows compared")
        if brokenPercent > 0 {
            #expect(visitor.withProblems * 4 >= visitor.compared, "\(visitor.withProblems) of \(visitor.compared) with problems")
        } else {
            #expect(visitor.withProblems * 4 < visitor.compared, "\(visitor.withProblems) of \(visitor.compared) with problems")
        }
        #expect(visitor.mismatches.isEmpty, "\(visitor.mismatches.prefix(3).joined(separator: "\n\n"))")
    }

    /// Headers and rows the writer never makes read the same too: a column that is not a field,
    /// a dotted name that stays flat, a list with a gap, an object where a scalar belongs, a list
    /// level that is not `1...n`, the null token, numbers and Booleans in other spellings.
    @Test(arguments: [
        "id,title,category,createdAt,colour\nw1,T,red,2024-05-01T09:30:00Z,x\n",
        "id,title,category,createdAt,smells.1.label,smells.2.label,smells.3.label\nw1,T,red,2024-05-01T09:30:00Z,a,,c\n",
        "id,title,category,createdAt,smells.1.label,smells.2.label\nw1,T,red,2024-05-01T09:30:00Z,,\n",
        "id,title.x,category,createdAt\nw1,T,red,2024-05-01T09:30:00Z\n",
        "id,title,category,createdAt,tastes.0.label,tastes.2.value\nw1,T,red,2024-05-01T09:30:00Z,a,0.5\n",
        "id,title,category,createdAt,look,look.tint\nw1,T,red,2024-05-01T09:30:00Z,x,ruby\n",
        "id,title,category,createdAt,tastes.1.value,tastes.1.label\nw1,T,red,2024-05-01T09:30:00Z,1e-1,\"\"\n",
        "id,title,category,createdAt,rating,alcoholByVolume,isFavorite\nw1,T,red,2024-05-01T09:30:00.0001Z,+2.5,007,TRUE\n",
        "id,title,category,createdAt,rating,isFavorite\n,\"\",whiteish,736000000,\"2.5\",\"true\"\n",
        "id,title,category,createdAt,a..b,.c,d.\nw1,T,red,2024-05-01T09:30:00Z,1,2,3\n",
        "id,title,title,category,createdAt\nw1,T,U,red,2024-05-01T09:30:00Z\n",
        "id,title,category,createdAt\n",
    ])
    func unusualRowsReadAlike(csv: String) throws {
        var problems = 0
        let mismatch = CSVConformanceVisitor.compare(NotesV1.WineNote.self, Array(csv.utf8), problems: &problems)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    /// The V2 wine note too, whose tastes are a list of objects.
    @Test func listsOfObjectsReadAlike() throws {
        let csv = """
            id,title,category,createdAt,tastes.1.label,tastes.1.value,tastes.2.label,tastes.3.value,look.tint
            w1,T,red,2024-05-01T09:30:00Z,a,0.5,,0.25,ruby
            w2,T,red,2024-05-01T09:30:00Z,,,b,x,
            w3,T,red,2024-05-01T09:30:00Z,a,,,,

            """
        var problems = 0
        let mismatch = CSVConformanceVisitor.compare(NotesV2.WineTastingNote.self, Array(csv.utf8), problems: &problems)
        #expect(mismatch == nil, "\(mismatch ?? "")")
        #expect(problems == 3)
    }
}

/// Compares the two cursors on generated rows of each model it visits.
struct CSVConformanceVisitor: CollectionModelVisitor {
    let brokenPercent: Int
    var compared = 0
    var withProblems = 0
    var mismatches: [String] = []

    static let options = DecodingOptions(scalarsAsText: true)

    mutating func visit<Model: FieldCodableCollection>(_ type: Model.Type) {
        var generator = RecordGenerator(random: SeededGenerator(state: UInt64(brokenPercent * 7919 + compared)),
            brokenPercent: brokenPercent)
        for _ in 0..<150 {
            let value = generator.object(Model.recordType)
            let csv = Self.csv(of: value, brokenPercent: brokenPercent, random: &generator.random)
            if let mismatch = Self.compare(Model.self, csv, problems: &withProblems) { mismatches.append(mismatch) }
            compared += 1
        }
    }

    /// A header and one row of `value` flattened as the CSV writer names columns, with header
    /// names and cells corrupted at `brokenPercent`.
    static func csv(of value: Value, brokenPercent: Int, random: inout SeededGenerator) -> [UInt8] {
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
        var names: [String] = []
        var cells: [String] = []
        for (name, leaf) in CSVFlattening.flatten(value) {
            var name = name
            if chance(brokenPercent / 4) {
                let mutations = [name + ".1", name.replacingOccurrences(of: ".1", with: ".3"), name + "..x", "$" + name,
                                 name.replacingOccurrences(of: ".1", with: ".01"), name.split(separator: ".").first.map(String.init) ?? name]
                name = mutations[Int.random(in: 0..<mutations.count, using: &random)]
            }
            names.append(name)
            var cell: String
            switch leaf {
            case .string(let text): cell = quoted(text, always: chance(20))
            case .number(let text): cell = text
            case .integer(let i): cell = String(i)
            case .double(let d): cell = "\(d)"
            case .bool(let flag): cell = flag ? "true" : "false"
            default: cell = ""
            }
            if chance(brokenPercent / 4) {
                let pool = ["", "\"\"", "abc", "1e3", "-0", "007", "TRUE", "2024-05-01T09:30:00.1234Z", "\"a,b\"", "+1.5", ".5", "1."]
                cell = pool[Int.random(in: 0..<pool.count, using: &random)]
            }
            cells.append(cell)
        }
        if names.isEmpty {
            names = ["id"]
            cells = [""]
        }
        let text = names.map { quoted($0, always: false) }.joined(separator: ",") + "\n" + cells.joined(separator: ",") + "\n"
        return Array(text.utf8)
    }

    /// `text` as a CSV cell: quoted when it must be (or `always`), quotes doubled.
    static func quoted(_ text: String, always: Bool) -> String {
        let special = text.isEmpty || text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
        guard special || always else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A description of how the two cursors differ on the rows of `csv`, nil when they agree;
    /// counts the rows with diagnostics in `problems`.
    static func compare<Model: FieldCodable>(_ type: Model.Type, _ csv: [UInt8], problems: inout Int) -> String? {
        let taker = RowCopier()
        var records: [Record] = []
        do {
            let reader = try CSVReader(MemorySource(csv), options: ReadOptions(fileName: "t.csv", collection: "t"),
                                       log: DiagnosticLog())
            let tree = reader.layout.tree
            while let batch = try reader.nextBatch(limit: 4) {
                batch.parse(offering: taker)
                for case .record(let record) in reader.items(from: batch) { records.append(record) }
            }
            guard records.count == taker.rows.count else {
                return "\(records.count) records, \(taker.rows.count) rows offered: \(String(decoding: csv, as: UTF8.self))"
            }
            for (record, row) in zip(records, taker.rows) {
                let context = RecordContext(record: record, options: options)
                var fromValue: [Diagnostic] = []
                let valueModel = ModelReader.read(Model.self, ValueCursor(record.value), at: context, into: &fromValue)
                if !fromValue.isEmpty { problems += 1 }
                // Members found by key, and through the model's field map.
                let maps: [CSVFieldMap?] = [nil, CSVFieldMap(tree, Model.recordType)]
                for map in maps {
                    var fromCells: [Diagnostic] = []
                    let cellsModel = row.withCells { cells -> Model in
                        guard CSVCursor.isUTF8(cells) else { return valueModel }
                        // The tree gives the row the value the reader built (the messages' `Value`s).
                        if tree.value(at: 0, cells) != record.value { fromCells.append(.error(.invalidValue, "tree value differs")) }
                        // As the lane reads a row: its UTF-8 checked above, once.
                        return CSVCursor.withCursor(tree: tree, map: map, cells: cells, scalarsAsText: true) {
                            ModelReader.read(Model.self, $0, at: context, into: &fromCells)
                        }
                    }
                    guard fromValue != fromCells || valueModel.value != cellsModel.value else { continue }
                    return """
                        \(Model.self) rows (\(map == nil ? "by key" : "mapped")) \(String(decoding: csv, as: UTF8.self))
                        value: \(fromValue.map(\.description)) \(valueModel.value)
                        cells: \(fromCells.map(\.description)) \(cellsModel.value)
                        """
                }
            }
        } catch {
            // A header the reader refuses is no row for either cursor.
        }
        return nil
    }
}

/// Keeps a copy of each CSV row offered to it and takes none, so that the reader also makes each
/// row's `Value` record.
final class RowCopier: RawRecordTaker, @unchecked Sendable {
    // @unchecked: batches are parsed on the test's thread.

    /// One row's cells: their text, absent and quoted flags.
    struct Row {
        var texts: [[UInt8]] = []
        var absent: [Bool] = []
        var quoted: [Bool] = []

        /// The row as `RawCSVCell`s, valid during `body`.
        func withCells<R>(_ body: (UnsafeBufferPointer<RawCSVCell>) -> R) -> R {
            let joined = texts.flatMap { $0 }
            return joined.withUnsafeBufferPointer { bytes in
                var cells: [RawCSVCell] = []
                var offset = 0
                for k in texts.indices {
                    let text = UnsafeBufferPointer(rebasing: bytes[offset..<(offset + texts[k].count)])
                    cells.append(RawCSVCell(text: text, isAbsent: absent[k], isQuoted: quoted[k]))
                    offset += texts[k].count
                }
                return cells.withUnsafeBufferPointer(body)
            }
        }
    }

    private(set) var rows: [Row] = []

    func take(_ record: RawRecord) -> TakenRecord? {
        guard case .csvRow(let raw) = record else { return nil }
        var row = Row()
        for cell in raw.cells {
            row.texts.append(Array(cell.text))
            row.absent.append(cell.isAbsent)
            row.quoted.append(cell.isQuoted)
        }
        rows.append(row)
        return nil
    }
}
