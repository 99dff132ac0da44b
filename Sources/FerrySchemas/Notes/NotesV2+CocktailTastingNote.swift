extension NotesV2 {
    /// A V2 cocktail tasting note (collection `cocktailTastingNotes`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, title, category, createdAt, imageData, alcoholByVolume, tastes, ingredients, isContainsIce, think, rating, isFavorite.
    public struct CocktailTastingNote: CollectionModel, FieldCodable, Notable, Alcoholable, Tastable, Ingredientable {
        public var id: String
        public var title: String
        public var category: String
        public var createdAt: Instant
        public var imageData: Base64Data?
        public var alcoholByVolume: Double
        public var tastes: [Taste]
        public var ingredients: [Ingredient]
        public var isContainsIce: Bool
        public var think: String
        public var rating: Double
        public var isFavorite: Bool

        /// The collection of these records.
        public static let collection = "cocktailTastingNotes"
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("CocktailTastingNote", NotesV2.noteFields(
            FieldSchema("alcoholByVolume", .double, range: 0...100, originalName: "alcohol"),
            FieldSchema("tastes", .array(.object(Taste.recordType))),
            FieldSchema("ingredients", .array(.object(Ingredient.recordType))),
            FieldSchema("isContainsIce", .bool)))

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("title", title)
            b.add("category", category)
            b.add("createdAt", createdAt)
            b.addOptional("imageData", imageData)
            b.add("alcoholByVolume", alcoholByVolume)
            b.add("tastes", tastes)
            b.add("ingredients", ingredients)
            b.add("isContainsIce", isContainsIce)
            b.add("think", think)
            b.add("rating", rating)
            b.add("isFavorite", isFavorite)
        }
    }
}

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the note in one piece; one that sets the fields one by one copies a note this large once
// more on its way out (Docs/performance.md, "Models built in one piece").
extension NotesV2.CocktailTastingNote {
    /// A note of these fields. The last parameter (left out by callers; `()` from `init(from:)`,
    /// which being `@inlinable` cannot call the internal memberwise initializer) keeps this public
    /// initializer apart from the memberwise one of the same labels.
    public init(id: String, title: String, category: String, createdAt: Instant, imageData: Base64Data? = nil, alcoholByVolume: Double, tastes: [NotesV2.Taste], ingredients: [NotesV2.Ingredient], isContainsIce: Bool, think: String, rating: Double, isFavorite: Bool, _: Void = ()) {
        self.init(id: id, title: title, category: category, createdAt: createdAt, imageData: imageData, alcoholByVolume: alcoholByVolume, tastes: tastes, ingredients: ingredients, isContainsIce: isContainsIce, think: think, rating: rating, isFavorite: isFavorite)
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
            tastes: r.array("tastes", of: NotesV2.Taste.self),
            ingredients: r.array("ingredients", of: NotesV2.Ingredient.self),
            isContainsIce: r.bool("isContainsIce"),
            think: r.string("think"),
            rating: r.double("rating"),
            isFavorite: r.bool("isFavorite"), ())
    }
}
