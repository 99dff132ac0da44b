extension NotesV1 {
    /// A V1 wine note (collection `wineNotes`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, title, category, createdAt, imageData, alcohol, look, smells, tastes, grape, think, rating, isFavorite.
    public struct WineNote: CollectionModel, FieldCodable {
        public var id: String?
        public var title: String
        public var category: String
        public var createdAt: Instant
        public var imageData: Base64Data?
        public var alcohol: Double
        public var look: String
        public var smells: [String]
        public var tastes: [Taste]
        public var grape: String
        public var think: String
        public var rating: Double
        public var isFavorite: Bool

        /// The collection of these records.
        public static let collection = "wineNotes"
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("WineNote", NotesV1.noteFields(FieldSchema("grape", .string)))

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.addOptional("id", id)
            b.add("title", title)
            b.add("category", category)
            b.add("createdAt", createdAt)
            b.addOptional("imageData", imageData)
            b.add("alcohol", alcohol)
            b.add("look", look)
            b.add("smells", smells)
            b.add("tastes", tastes)
            b.add("grape", grape)
            b.add("think", think)
            b.add("rating", rating)
            b.add("isFavorite", isFavorite)
        }
    }
}

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the note in one piece; one that sets the fields one by one copies a note this large once
// more on its way out (Docs/performance.md, "Models built in one piece").
extension NotesV1.WineNote {
    /// A note of these fields. The last parameter (left out by callers; `()` from `init(from:)`,
    /// which being `@inlinable` cannot call the internal memberwise initializer) keeps this public
    /// initializer apart from the memberwise one of the same labels.
    public init(id: String? = nil, title: String, category: String, createdAt: Instant, imageData: Base64Data? = nil, alcohol: Double, look: String, smells: [String], tastes: [NotesV1.Taste], grape: String, think: String, rating: Double, isFavorite: Bool, _: Void = ()) {
        self.init(id: id, title: title, category: category, createdAt: createdAt, imageData: imageData, alcohol: alcohol, look: look, smells: smells, tastes: tastes, grape: grape, think: think, rating: rating, isFavorite: isFavorite)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the note is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            id: r.optionalString("id"),
            title: r.string("title"),
            category: r.string("category"),
            createdAt: r.instant("createdAt"),
            imageData: r.data("imageData"),
            alcohol: r.double("alcohol"),
            look: r.string("look"),
            smells: r.stringArray("smells"),
            tastes: r.array("tastes", of: NotesV1.Taste.self),
            grape: r.string("grape"),
            think: r.string("think"),
            rating: r.double("rating"),
            isFavorite: r.bool("isFavorite"), ())
    }
}
