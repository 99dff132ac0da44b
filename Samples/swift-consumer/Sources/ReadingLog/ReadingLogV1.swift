import Ferry

/// A reading log, version 1: one collection, `books`, of `Entry`s. Declared with Ferry's public
/// API only, the way Ferry declares its own domains: fields once, in order, with their rules.
public enum ReadingLogV1 {
    /// A book read: its title is `book`, its author one string (`"Ursula K. Le Guin"`).
    public struct Entry: FieldCodableCollection {
        public var id: String
        public var book: String
        public var author: String
        public var pages: Int64
        public var finishedOn: CalendarDay
        public var rating: Double

        public static let collection = "books"
        public var recordID: String? { id }

        public static let recordType = RecordType("ReadingEntry", [
            FieldSchema("id", .nonEmptyString),
            FieldSchema("book", .nonEmptyString),
            FieldSchema("author", .string),
            FieldSchema("pages", .integer, range: 1...100_000),
            FieldSchema("finishedOn", .day),
            FieldSchema("rating", .double, range: 0...5),
        ])

        public init(id: String, book: String, author: String, pages: Int64, finishedOn: CalendarDay, rating: Double) {
            self.id = id
            self.book = book
            self.author = author
            self.pages = pages
            self.finishedOn = finishedOn
            self.rating = rating
        }

        public init<Source: FieldSource>(from r: inout Source) {
            self.init(id: r.string("id"), book: r.string("book"), author: r.string("author"), pages: r.integer("pages"),
                      finishedOn: r.day("finishedOn"), rating: r.double("rating"))
        }

        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("book", book)
            b.add("author", author)
            b.add("pages", pages)
            b.add("finishedOn", finishedOn)
            b.add("rating", rating)
        }
    }
}
