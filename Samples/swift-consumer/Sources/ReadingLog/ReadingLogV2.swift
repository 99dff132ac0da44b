import Ferry

/// A reading log, version 2: `book` is renamed `title`, `author` is split into `authorGiven` and
/// `authorFamily`, and a rating goes in half stars.
public enum ReadingLogV2 {
    public struct Entry: FieldCodableCollection {
        public var id: String
        public var title: String
        public var authorGiven: String
        public var authorFamily: String
        public var pages: Int64
        public var finishedOn: CalendarDay
        public var rating: Double

        public static let collection = "books"
        public var recordID: String? { id }

        public static let recordType = RecordType("ReadingEntry", [
            FieldSchema("id", .nonEmptyString),
            FieldSchema("title", .nonEmptyString, originalName: "book"),
            FieldSchema("authorGiven", .string),
            FieldSchema("authorFamily", .string),
            FieldSchema("pages", .integer, range: 1...100_000),
            FieldSchema("finishedOn", .day),
            FieldSchema("rating", .double, range: 0...5, step: 0.5),
        ])

        public init(
            id: String, title: String, authorGiven: String, authorFamily: String, pages: Int64, finishedOn: CalendarDay,
            rating: Double
        ) {
            self.id = id
            self.title = title
            self.authorGiven = authorGiven
            self.authorFamily = authorFamily
            self.pages = pages
            self.finishedOn = finishedOn
            self.rating = rating
        }

        public init<Source: FieldSource>(from r: inout Source) {
            self.init(id: r.string("id"), title: r.string("title"), authorGiven: r.string("authorGiven"),
                      authorFamily: r.string("authorFamily"), pages: r.integer("pages"), finishedOn: r.day("finishedOn"),
                      rating: r.double("rating"))
        }

        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("title", title)
            b.add("authorGiven", authorGiven)
            b.add("authorFamily", authorFamily)
            b.add("pages", pages)
            b.add("finishedOn", finishedOn)
            b.add("rating", rating)
        }
    }
}
