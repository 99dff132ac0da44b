extension NotesV2 {
    /// A V2 wine tasting note (collection `wineTastingNotes`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, title, category, createdAt, imageData, alcoholByVolume, look, smells, tastes, grape, think, rating, isFavorite.
    public struct WineTastingNote: CollectionModel, FieldCodable, Notable, Alcoholable, Lookable, Smellable, Tastable, Grapable {
        public var id: String
        public var title: String
        public var category: String
        public var createdAt: Instant
        public var imageData: Base64Data?
        public var alcoholByVolume: Double
        public var look: Look
        public var smells: [Smell]
        public var tastes: [Taste]
        public var grape: Grape
        public var think: String
        public var rating: Double
        public var isFavorite: Bool

        /// The collection of these records.
        public static let collection = "wineTastingNotes"
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("WineTastingNote", NotesV2.noteFields(
            FieldSchema("alcoholByVolume", .double, range: 0...100, originalName: "alcohol"),
            FieldSchema("look", .object(Look.recordType)),
            FieldSchema("smells", .array(.object(Smell.recordType))),
            FieldSchema("tastes", .array(.object(Taste.recordType))),
            FieldSchema("grape", .object(Grape.recordType))))

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("title", title)
            b.add("category", category)
            b.add("createdAt", createdAt)
            b.addOptional("imageData", imageData)
            b.add("alcoholByVolume", alcoholByVolume)
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
extension NotesV2.WineTastingNote {
    /// A note of these fields. The last parameter (left out by callers; `()` from `init(from:)`,
    /// which being `@inlinable` cannot call the internal memberwise initializer) keeps this public
    /// initializer apart from the memberwise one of the same labels.
    public init(id: String, title: String, category: String, createdAt: Instant, imageData: Base64Data? = nil, alcoholByVolume: Double, look: NotesV2.Look, smells: [NotesV2.Smell], tastes: [NotesV2.Taste], grape: NotesV2.Grape, think: String, rating: Double, isFavorite: Bool, _: Void = ()) {
        self.init(id: id, title: title, category: category, createdAt: createdAt, imageData: imageData, alcoholByVolume: alcoholByVolume, look: look, smells: smells, tastes: tastes, grape: grape, think: think, rating: rating, isFavorite: isFavorite)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the note is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            id: r.string("id"),
            title: r.string("title"),
            category: r.string("category"),
            createdAt: r.instant("createdAt"),
            imageData: r.data("imageData"),
            alcoholByVolume: r.double("alcoholByVolume"),
            look: r.object("look", as: NotesV2.Look.self) ?? NotesV2.Look.placeholder,
            smells: r.array("smells", of: NotesV2.Smell.self),
            tastes: r.array("tastes", of: NotesV2.Taste.self),
            grape: r.object("grape", as: NotesV2.Grape.self) ?? NotesV2.Grape.placeholder,
            think: r.string("think"),
            rating: r.double("rating"),
            isFavorite: r.bool("isFavorite"), ())
    }
}
