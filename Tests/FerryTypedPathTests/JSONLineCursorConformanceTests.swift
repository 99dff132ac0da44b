import FerryCore
import FerrySchemas
import FormatJSON
import Testing

@testable import FerryTypedPath

/// Every cursor reads the same records into the same models with the same diagnostics: a JSON
/// Lines line read by `ModelReader` over its bytes (`JSONLineCursor`) against the same line parsed
/// by the JSON Lines reader and read over its `Value` (`ValueCursor`), with the record's context
/// (and so its locator: the same lines and columns) shared. Records come from each model's
/// descriptor (`RecordGenerator`): every collection model of every domain and version, plain and
/// broken. A line the one-pass cursor gives up on (members out of canonical order, unknown or
/// repeated, escaped keys) goes the general path in a run; a plain line is never given up on.
@Suite struct JSONLineCursorConformanceTests {
    static let domains: [Domain] = [.notes, .petStory, .vocabulary]

    @Test(arguments: domains, [0, 25, 60])
    func everyModelReadsAlikeFromBytesAndFromValue(domain: Domain, brokenPercent: Int) throws {
        var visitor = ConformanceVisitor(brokenPercent: brokenPercent)
        domain.forEachModel(&visitor)
        #expect(visitor.compared >= 400, "\(visitor.compared) records compared")
        if brokenPercent > 0 {
            #expect(visitor.withProblems * 4 >= visitor.compared, "\(visitor.withProblems) of \(visitor.compared) with problems")
        }
        #expect(visitor.mismatches.isEmpty, "\(visitor.mismatches.prefix(3).joined(separator: "\n\n"))")
        if brokenPercent == 0 {
            #expect(visitor.givenUp == 0, "\(visitor.givenUp) plain lines given up")
        } else {
            // Enough lines with problems read to the end by both cursors for their diagnostics to be compared.
            #expect(visitor.comparedWithProblems >= 100, "\(visitor.comparedWithProblems) lines with problems compared")
        }
    }

    /// Line layouts the writer never makes read the same too: spaces around every separator, a
    /// `$collection` in the middle, an escaped key, a nested list of objects out of order.
    @Test(arguments: [
        #"{ "id" : "w1" , "title":"T", "$collection":"wineNotes", "category" : "red", "createdAt":"2024-05-01T09:30:00Z", "smells" : [ ] , "tastes":[{"value":0.5,"label":"a"}] }"#,
        #"{"\u0069d":"w1","title":"T","category":"red","createdAt":"2024-05-01T09:30:00Z"}"#,
        #"{"id":"w1","title":"T","title":"U","category":"red","createdAt":"2024-05-01T09:30:00Z","extra":{"deep":[1,[2,{"x":null}]]}}"#,
        #"["not","an","object"]"#,
        #""a string""#,
    ])
    func unusualLinesReadAlike(line: String) throws {
        var problems = 0
        var givenUp = 0
        let mismatch = try ConformanceVisitor.compare(NotesV1.WineNote.self, Array(line.utf8), problems: &problems, givenUp: &givenUp)
        #expect(mismatch == nil, "\(mismatch ?? "")")
        // The first three are left to the general path; the non-objects are read (and reported) alike.
        #expect(givenUp == (line.hasPrefix("{") ? 1 : 0))
    }
}

/// Compares the two cursors on generated records of each model it visits.
struct ConformanceVisitor: CollectionModelVisitor {
    let brokenPercent: Int
    var compared = 0
    var withProblems = 0
    var givenUp = 0
    /// Lines with problems that both cursors read to the end (not given up).
    var comparedWithProblems = 0
    var mismatches: [String] = []

    mutating func visit<Model: FieldCodableCollection>(_ type: Model.Type) {
        var generator = RecordGenerator(random: SeededGenerator(state: UInt64(brokenPercent * 7919 + compared)),
            brokenPercent: brokenPercent)
        for _ in 0..<150 {
            let value = generator.object(Model.recordType)
            guard let line = try? JSONText.encode(value, pretty: false) else { continue }
            let (problemsBefore, givenUpBefore) = (withProblems, givenUp)
            defer { if withProblems > problemsBefore, givenUp == givenUpBefore { comparedWithProblems += 1 } }
            do {
                if let mismatch = try Self.compare(Model.self, line, problems: &withProblems, givenUp: &givenUp) {
                    mismatches.append(mismatch)
                }
            } catch {
                mismatches.append("\(Model.self): \(error)")
            }
            compared += 1
        }
    }

    /// A description of how the two cursors differ on `line`, nil when they agree or the one-pass
    /// cursor gives the line up; counts the lines with diagnostics in `problems` and those given
    /// up in `givenUp`.
    static func compare<Model: FieldCodable>(_ type: Model.Type, _ line: [UInt8], problems: inout Int, givenUp: inout Int)
        throws -> String?
    {
        // A header line first, so that the line under test is never taken for one.
        let text = Array("{\"domain\": \"notes\", \"schemaVersion\": 2}\n".utf8) + line + [0x0A]
        let log = DiagnosticLog()
        let reader = JSONLinesReader(source: MemorySource(text), options: ReadOptions(fileName: "t.jsonl"), log: log)
        guard let record = try reader.next(), log.diagnostics.isEmpty else {
            return "the reader refused \(String(decoding: line, as: UTF8.self)): \(log.diagnostics)"
        }
        let context = RecordContext(record: record)
        var fromValue: [Diagnostic] = []
        let valueModel = ModelReader.read(Model.self, ValueCursor(record.value), at: context, into: &fromValue)
        var fromBytes: [Diagnostic] = []
        var progress = JSONLineProgress()
        let bytesModel = line.withUnsafeBufferPointer { bytes -> Model in
            let json = JSONLineValidator(p: bytes.baseAddress!, end: bytes.count, maximumDepth: JSONRecordScan.defaultMaximumDepth)
            return withUnsafeMutablePointer(to: &progress) { progress in
                let cursor = JSONLineCursor(json, at: json.skipWhitespace(0), level: 1, progress: progress)
                return ModelReader.read(Model.self, cursor, at: context, into: &fromBytes)
            }
        }
        if !fromValue.isEmpty { problems += 1 }
        if progress.gaveUp {
            givenUp += 1
            return nil
        }
        guard fromValue != fromBytes || valueModel.value != bytesModel.value else { return nil }
        return """
            \(Model.self) line \(String(decoding: line, as: UTF8.self))
            value: \(fromValue.map(\.description)) \(valueModel.value)
            bytes: \(fromBytes.map(\.description)) \(bytesModel.value)
            """
    }
}
