import FerryCore
import FerrySchemas
import FormatJSON
import Testing

@testable import FerryTypedPath
import Foundation

/// Differential tests of the typed JSON reader on broken lines: every single-byte deletion,
/// replacement and insertion, and every truncation, of a few plain lines goes both the general
/// path (`JSONLinesReader` -> `Value` -> `T(value:at:diagnostics:)`) and `JSONRecordScan.decode`.
/// The typed reader reads each line once, checking it as it decodes, so these variants test that
/// it never accepts a line the general path reports anything about (grammar, UTF-8, escapes,
/// numbers, separators, members), and that what it accepts decodes to the general path's model.
@Suite struct JSONLineCorruptionTests {
    /// The general path's model of `line` and its collection; nil when anything is reported.
    static func general<T: FieldCodable>(_ line: [UInt8], _ type: T.Type) -> (model: T, collection: String?)? {
        // A header line first, so that the line under test is never taken for one.
        let text = Array("{\"domain\": \"notes\", \"schemaVersion\": 2}\n".utf8) + line + [0x0A]
        let log = DiagnosticLog()
        let reader = JSONLinesReader(source: MemorySource(text), options: ReadOptions(fileName: "t.jsonl"), log: log)
        guard let record = try? reader.next(), log.diagnostics.isEmpty else { return nil }
        var diagnostics: [Diagnostic] = []
        let model = T(value: record.value, at: RecordContext(record: record), diagnostics: &diagnostics)
        guard diagnostics.isEmpty, log.diagnostics.isEmpty else { return nil }
        return (model, record.collection)
    }

    /// The typed path's model of `line` and its collection; nil when it gives up.
    static func typed<T: FieldCodable>(_ line: [UInt8], _ type: T.Type) -> (model: T, collection: String?)? {
        line.withUnsafeBufferPointer { bytes in
            guard let scan = JSONRecordScan(bytes), let model = scan.decode(T.self, options: DecodingOptions()) else { return nil }
            return (model, scan.collection)
        }
    }

    /// Counts of one run over the variants of a line.
    struct Tally: Equatable {
        var variants = 0
        /// Variants the general path reads without a diagnostic.
        var clean = 0
        /// Variants the typed path decodes.
        var taken = 0
    }

    /// Compares both paths on `line`; records an issue where the typed path accepts what the
    /// general path reports, or decodes another model.
    static func compare<T: FieldCodable>(_ line: [UInt8], _ type: T.Type, _ tally: inout Tally, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        tally.variants += 1
        let general = general(line, T.self)
        if general != nil { tally.clean += 1 }
        guard let typed = typed(line, T.self) else { return }
        tally.taken += 1
        let text = String(decoding: line, as: UTF8.self)
        guard let general else {
            Issue.record("accepted a line the general path reports: \(line) \(text)", sourceLocation: sourceLocation)
            return
        }
        #expect(typed.model == general.model, "different model for \(text)", sourceLocation: sourceLocation)
        #expect(typed.collection == general.collection, "different collection for \(text)", sourceLocation: sourceLocation)
    }

    /// Bytes that break (or keep) JSON in interesting ways: structure, whitespace, number and
    /// literal characters, escapes, control characters, and bytes that are not UTF-8 on their own.
    static let bytes: [UInt8] = Array("\"\\,:{}[] \t\r01-+.eEnutfx/".utf8) + [0x00, 0x01, 0x1F, 0x7F, 0x80, 0xC3, 0xED, 0xF4, 0xFF]

    /// Every truncation, single-byte deletion, replacement by one of `bytes`, and insertion of
    /// one of `bytes`, of `line`.
    static func variants(of line: [UInt8]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        for i in 0...line.count {
            result.append(Array(line[..<i]))
            for byte in bytes {
                var inserted = line
                inserted.insert(byte, at: i)
                result.append(inserted)
            }
            guard i < line.count else { break }
            var deleted = line
            deleted.remove(at: i)
            result.append(deleted)
            for byte in bytes where byte != line[i] {
                var replaced = line
                replaced[i] = byte
                result.append(replaced)
            }
        }
        return result
    }

    /// Runs both paths on every variant of `line`. (The typed path takes every variant the
    /// general path reads cleanly: a single byte does not make an escaped key or a member out of
    /// order.)
    static func run<T: FieldCodable>(_ line: String, _ type: T.Type, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Tally {
        var tally = Tally()
        let bytes = Array(line.utf8)
        // The line itself is taken.
        #expect(typed(bytes, T.self) != nil, "\(line)", sourceLocation: sourceLocation)
        for variant in variants(of: bytes) { compare(variant, T.self, &tally, sourceLocation: sourceLocation) }
        return tally
    }

    @Test func wineVariants() {
        let tally = Self.run(JSONRecordScanTests.wine, NotesV2.WineTastingNote.self)
        #expect(tally == Tally(variants: 26741, clean: 4482, taken: 4482))
    }

    @Test func whiskeyVariants() {
        let tally = Self.run(JSONRecordScanTests.whiskey, NotesV2.WhiskeyTastingNote.self)
        #expect(tally == Tally(variants: 21545, clean: 2803, taken: 2803))
    }

    @Test func cocktailVariants() {
        let tally = Self.run(JSONRecordScanTests.cocktail, NotesV2.CocktailTastingNote.self)
        #expect(tally == Tally(variants: 22971, clean: 3470, taken: 3470))
    }

    @Test func v1WineVariants() {
        let tally = Self.run(JSONRecordScanTests.v1Wine, NotesV1.WineNote.self)
        #expect(tally == Tally(variants: 18042, clean: 2643, taken: 2643))
    }

    /// Spaces around every token, escapes and multi-byte characters, an optional member, a null.
    static let spacedWine =
        #" { "$collection" : "wineTastingNotes" , "id" : "w\u00e9" , "title" : "\ud83c\udf77 Grüner \"x\"" , "category" : "" , "createdAt" : "2023-10-04T02:43:15.5+09:00" , "imageData" : null , "alcoholByVolume" : -0 , "look" : { "tint" : "a\/b" , "note" : "\t" } , "smells" : [ ] , "tastes" : [ { "label" : "é" , "value" : 1E-1 } ] , "grape" : { "variety" : "中" } , "think" : "" , "rating" : 5.0 , "isFavorite" : true } "#

    @Test func spacedWineVariants() {
        let tally = Self.run(Self.spacedWine, NotesV2.WineTastingNote.self)
        #expect(tally == Tally(variants: 27971, clean: 2521, taken: 2521))
    }

    /// A second `$collection`, one not first, one that is not a string: never taken.
    @Test func collectionMembers() {
        var tally = Tally()
        let plain = JSONRecordScanTests.wine
        for line in [
            JSONRecordScanTests.variant(plain, #""id""#, #""$collection":"wineTastingNotes","id""#),
            JSONRecordScanTests.variant(plain, #""$collection":"wineTastingNotes","#, "").replacingOccurrences(
                of: #""isFavorite":false"#, with: #""isFavorite":false,"$collection":"wineTastingNotes""#),
            JSONRecordScanTests.variant(plain, #""wineTastingNotes""#, "1"),
            JSONRecordScanTests.variant(plain, #""wineTastingNotes""#, "null"),
            JSONRecordScanTests.variant(plain, #""$collection""#, #""$coll\u0065ction""#),
        ] {
            Self.compare(Array(line.utf8), NotesV2.WineTastingNote.self, &tally)
        }
        #expect(tally.taken == 0)
    }

    /// `JSONLineCursor` checks a member's key only by comparing it with the field name asked
    /// for: that holds while every field name of every model is plain printable ASCII (no quote,
    /// backslash or control character), so that matching bytes are a well-formed JSON string.
    @Test func fieldNamesArePlainASCII() {
        struct Names: CollectionModelVisitor {
            var types: [RecordType] = []
            mutating func visit<Model: FieldCodableCollection>(_ type: Model.Type) { types.append(Model.recordType) }
        }
        var visitor = Names()
        for domain in Domain.allCases { domain.forEachModel(&visitor) }
        var pending = visitor.types
        var names = 0
        while let type = pending.popLast() {
            for field in type.fields {
                names += 1
                #expect(!field.name.isEmpty && field.name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }, "\(field.name)")
                var fieldType = field.type
                while case .array(let element) = fieldType { fieldType = element }
                if case .object(let nested) = fieldType { pending.append(nested) }
            }
        }
        #expect(names > 100)
    }
}
