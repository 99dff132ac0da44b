extension PetStoryV2 {
    /// Where a story happened.
    ///
    /// Fields in canonical order (SCHEMAS.md): latitude, longitude, toponym, address.
    public struct GeoLocation: SchemaModel, FieldCodable {
        public var latitude: Double
        public var longitude: Double
        public var toponym: String?
        public var address: String?

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("GeoLocation", [
            FieldSchema("latitude", .double, range: -90...90, originalName: "lat"),
            FieldSchema("longitude", .double, range: -180...180, originalName: "lng"),
            .optional("toponym", .string),
            .optional("address", .string),
        ])

        /// The placeholder of an invalid required value.
        @usableFromInline
        static let placeholder = GeoLocation(latitude: 0, longitude: 0, toponym: nil, address: nil)

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("latitude", latitude)
            b.add("longitude", longitude)
            b.addOptional("toponym", toponym)
            b.addOptional("address", address)
        }
    }
}

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the model in one piece; one that sets the fields one by one copies the model once more on
// its way out (as NotesV2+WineTastingNote.swift, Docs/performance.md "Models built in one piece").
extension PetStoryV2.GeoLocation {
    /// A geo location of these fields. The last parameter (left out by callers; `()` from
    /// `init(from:)`, which being `@inlinable` cannot call the internal memberwise initializer) keeps
    /// this public initializer apart from the memberwise one of the same labels.
    public init(latitude: Double, longitude: Double, toponym: String? = nil, address: String? = nil, _: Void = ()) {
        self.init(latitude: latitude, longitude: longitude, toponym: toponym, address: address)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the model is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            latitude: r.double("latitude"),
            longitude: r.double("longitude"),
            toponym: r.optionalString("toponym"),
            address: r.optionalString("address"), ())
    }
}
