import FerryCore
import FerrySchemas
import Foundation
import Testing

/// A nested test model whose check across fields runs only while it is valid so far, as the
/// pet-story records' checks do.
private struct Span: FieldCodable {
    static let recordType = RecordType("Span", [FieldSchema("low", .double), FieldSchema("high", .double, range: 0...10)])
    static var checksAcrossFields: Bool { true }
    var low: Double
    var high: Double

    init<Source: FieldSource>(from r: inout Source) {
        low = r.double("low")
        high = r.double("high")
        if r.isValid { r.check(Self.orderProblem(low, high)) }
    }

    func encode<Sink: FieldSink>(to b: inout Sink) {
        b.add("low", low)
        b.add("high", high)
    }

    static func orderProblem(_ low: Double, _ high: Double) -> ((RecordContext) -> Diagnostic)? {
        guard low > high else { return nil }
        return { context in
            .error(.invalidValue, "\(context.displayName): low is above high", at: context.location())
        }
    }
}

/// A record holding a scalar, a nested `Span`, a list of them and a list of strings, with a
/// check across fields of its own.
private struct Holder: FieldCodable {
    static let recordType = RecordType("Holder", [
        FieldSchema("rating", .double, range: 0...5),
        FieldSchema.optional("span", .object(Span.recordType)),
        FieldSchema("spans", .array(.object(Span.recordType))),
        FieldSchema("tags", .array(.string)),
    ])
    static var checksAcrossFields: Bool { true }
    var rating: Double
    var span: Span?
    var spans: [Span]
    var tags: [String]

    init<Source: FieldSource>(from r: inout Source) {
        rating = r.double("rating")
        span = r.object("span", as: Span.self)
        spans = r.array("spans", of: Span.self)
        tags = r.stringArray("tags")
        if r.isValid, tags.isEmpty {
            r.check { context in .error(.invalidValue, "\(context.displayName): no tags", at: context.location()) }
        }
    }

    func encode<Sink: FieldSink>(to b: inout Sink) {
        b.add("rating", rating)
        if let span { b.add("span", span) }
        b.add("spans", spans)
        b.add("tags", tags)
    }
}

/// `ModelReader` reads nested objects and list elements on the record's own reader: each problem
/// keeps its pointer and position, and a nested model's `isValid` counts its own problems only.
@Suite struct ModelReaderNestingTests {
    /// Decodes `value` as a `Holder` at `/c/0`, the locator knowing `positions` (relative pointers).
    private func read(_ value: Value, positions: [String: (Int, Int)] = [:]) -> (Holder, [String], [Diagnostic]) {
        let record = makeRecord("c", 0, value, fields: positions)
        var diagnostics: [Diagnostic] = []
        let model = Holder(value: value, at: RecordContext(record: record), diagnostics: &diagnostics)
        return (model, diagnostics.map(summary), diagnostics)
    }

    @Test func nestedProblemsKeepTheirPointersAndPositions() {
        let value: Value = [
            "rating": 3,
            "span": ["low": 1, "high": "x"],
            "spans": [["low": 1, "high": 2], ["low": 1, "high": 11, "extra": true], ["low": 4, "high": 2]],
            "tags": ["a", 7],
        ]
        let (model, summaries, diagnostics) = read(value, positions: [
            "/span/high": (3, 20), "/spans/1/high": (4, 40), "/spans/1": (4, 30), "/spans/2": (4, 50), "/tags/1": (5, 16),
        ])
        #expect(summaries == [
            "error type-error 3:20 /c/0/span/high",
            "error out-of-range 4:40 /c/0/spans/1/high",
            "error unknown-field 4:30 /c/0/spans/1/extra",
            "error invalid-value 4:50 /c/0/spans/2",
            "error type-error 5:16 /c/0/tags/1",
        ])
        #expect(diagnostics.map(\.message) == [
            "span/high: expected a number, found \"x\"",
            "spans/1/high 11 is out of range 0...10",
            "unknown field \"extra\" in Span",
            "spans/2: low is above high",
            "tags/1: expected a string, found 7",
        ])
        #expect(model.spans.map(\.high) == [2, 0, 2])
        #expect(model.tags == ["a"])
    }

    @Test func aNestedCheckDoesNotSeeItsParentsProblems() {
        // The rating's error comes first; the span's own check still runs (its reader's problems
        // are its own), and the record's check does not (the record is invalid).
        let value: Value = ["rating": 9, "span": ["low": 5, "high": 1], "spans": [], "tags": []]
        let (_, summaries, diagnostics) = read(value)
        #expect(summaries == ["error out-of-range 2:3 /c/0/rating", "error invalid-value 2:3 /c/0/span"])
        #expect(diagnostics[1].message == "span: low is above high")
    }

    @Test func aParentCheckSeesItsChildrensProblems() {
        let value: Value = ["rating": 1, "spans": [["low": 1]], "tags": []]
        let (_, summaries, diagnostics) = read(value)
        #expect(summaries == ["error missing-field 2:3 /c/0/spans/0/high"])
        #expect(diagnostics[0].message == "spans/0/high is missing (required in Span)")
        // Valid children: the record's own check runs, at the record.
        let valid: Value = ["rating": 1, "spans": [["low": 1, "high": 2]], "tags": []]
        #expect(read(valid).1 == ["error invalid-value 2:3 /c/0"])
    }

    @Test func notAnObjectOrAListIsReportedWhereItStands() {
        let value: Value = ["rating": 1, "span": 4, "spans": ["x"], "tags": "a"]
        let (_, summaries, diagnostics) = read(value)
        #expect(summaries == [
            "error type-error 2:3 /c/0/span", "error type-error 2:3 /c/0/spans/0", "error type-error 2:3 /c/0/tags",
        ])
        #expect(diagnostics.map(\.message) == [
            "span: expected an object (Span), found 4",
            "spans/0: expected an object (Span), found \"x\"",
            "tags: expected a list, found \"a\"",
        ])
    }
}
