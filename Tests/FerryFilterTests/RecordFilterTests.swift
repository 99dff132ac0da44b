import FerryCore
import FerryFilter
import Foundation
import Testing

/// A typed model, as a Swift app would filter it.
private struct Item: Sendable {
    var title: String
    var rating: Double

    struct DecodingFailed: Error {}

    init(title: String, rating: Double) {
        self.title = title
        self.rating = rating
    }

    init(value: Value) throws {
        guard let title = value.objectValue?["title"]?.stringValue, let rating = value.objectValue?["rating"]?.doubleValue
        else { throw DecodingFailed() }
        self.init(title: title, rating: rating)
    }
}

@Suite struct RecordFilterTests {
    private let records: [Value] = [
        ["title": "Pinot", "rating": 4.5], ["title": "Merlot", "rating": 3], ["title": "Broken"],
    ]

    private func titles(_ filter: RecordFilter) -> [String] {
        records.filter { filter.matches($0) }.compactMap { $0.objectValue?["title"]?.stringValue }
    }

    @Test func closureOverValues() {
        let filter = RecordFilter { ($0.objectValue?["rating"]?.doubleValue ?? 0) > 4 }
        #expect(titles(filter) == ["Pinot"])
        #expect(titles(.all) == ["Pinot", "Merlot", "Broken"])
    }

    @Test func expressionText() throws {
        #expect(titles(try RecordFilter(expression: "rating < 4 OR rating == nil")) == ["Merlot", "Broken"])
        #expect(throws: FilterError.self) { try RecordFilter(expression: "rating <") }
    }

    @Test func closureOverTypedModels() {
        let filter = RecordFilter(decoding: { try Item(value: $0) }, where: { $0.title.hasPrefix("M") })
        #expect(titles(filter) == ["Merlot"])
    }

    /// `#Predicate` compiles on this toolchain (Swift 6.3, Linux) and wraps as a record filter.
    @Test func foundationPredicate() throws {
        let predicate = #Predicate<Item> { $0.rating >= 4 }
        #expect(try predicate.evaluate(Item(title: "x", rating: 4)) == true)
        #expect(try predicate.evaluate(Item(title: "x", rating: 3.5)) == false)
        let filter = RecordFilter(decoding: { try Item(value: $0) }, predicate: predicate)
        #expect(titles(filter) == ["Pinot"])
        // The same through a plain closure, as the docs show.
        let closure = RecordFilter(decoding: { try Item(value: $0) }, where: { (try? predicate.evaluate($0)) ?? false })
        #expect(titles(closure) == ["Pinot"])
    }

    @Test func nestingLimit() throws {
        let deep = String(repeating: "(", count: 600) + "a == 1" + String(repeating: ")", count: 600)
        #expect(throws: FilterError("nesting deeper than 512 levels", column: 513, length: 1)) { try CompiledFilter(deep) }
        let nots = String(repeating: "NOT ", count: 512) + "a == 1"
        #expect(throws: Never.self) { try CompiledFilter(nots) }
    }
}
