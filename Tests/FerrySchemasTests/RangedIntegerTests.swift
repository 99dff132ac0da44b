import FerryCore
import Testing

@testable import FerrySchemas

/// An integer field's `range` is one rule wherever the field is read and checked: the reader
/// (`integer`, `optionalInteger`) reports `out-of-range` for a value outside it, as it does for a
/// number, and `FieldRuleCheck` refuses that value in a model.
@Suite struct RangedIntegerTests {
    /// A model of a library's own domain: a required and an optional integer, each with a range.
    struct Book: SchemaModel, FieldCodable, Equatable {
        var chapters: Int64
        var pages: Int64?

        static let recordType = RecordType("Book", [
            FieldSchema("chapters", .integer, range: 1...100),
            FieldSchema("pages", .integer, isRequired: false, range: 1...10_000),
        ])

        init(chapters: Int64, pages: Int64?) {
            self.chapters = chapters
            self.pages = pages
        }

        init<Source: FieldSource>(from r: inout Source) {
            chapters = r.integer("chapters")
            pages = r.optionalInteger("pages")
        }

        func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("chapters", chapters)
            b.addOptional("pages", pages)
        }
    }

    static let cases: [(chapters: String, pages: String?, diagnostics: [String], read: Book)] = [
        ("1", "10000", [], Book(chapters: 1, pages: 10_000)),
        ("100", nil, [], Book(chapters: 100, pages: nil)),
        ("100.0", "1", [], Book(chapters: 100, pages: 1)),
        ("0", "1", ["chapters 0 is out of range 1...100"], Book(chapters: 0, pages: 1)),
        ("101", "10001", ["chapters 101 is out of range 1...100", "pages 10001 is out of range 1...10000"], Book(chapters: 0, pages: nil)),
        ("-5", "0", ["chapters -5 is out of range 1...100", "pages 0 is out of range 1...10000"], Book(chapters: 0, pages: nil)),
    ]

    @Test(arguments: cases.indices)
    func theReaderReportsAValueOutsideTheRange(index: Int) {
        let (chapters, pages, expected, read) = Self.cases[index]
        var object: ValueObject = ["chapters": .number(chapters)]
        if let pages { object.append("pages", .number(pages)) }
        let (book, _, diagnostics) = decode(Book.self, .object(object))
        #expect(diagnostics.map(\.message) == expected)
        #expect(diagnostics.allSatisfy { $0.code == .outOfRange })
        #expect(diagnostics.map { $0.location.field?.description } == expected.map { "/c/0/" + $0.prefix { $0 != " " } })
        // A value out of its range reads as the placeholder: 0 when required, nil when optional.
        #expect(book == read)
    }

    @Test func theRuleCheckRefusesAValueOutsideTheRange() {
        #expect(FieldRuleCheck.passes(Book(chapters: 1, pages: 10_000)))
        #expect(FieldRuleCheck.passes(Book(chapters: 100, pages: nil)))
        #expect(!FieldRuleCheck.passes(Book(chapters: 0, pages: nil)))
        #expect(!FieldRuleCheck.passes(Book(chapters: 101, pages: 5)))
        #expect(!FieldRuleCheck.passes(Book(chapters: 5, pages: 10_001)))
        #expect(!FieldRuleCheck.passes(Book(chapters: 5, pages: 0)))
    }
}
