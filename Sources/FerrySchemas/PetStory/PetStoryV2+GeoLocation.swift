import FerryCore
import Foundation

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

        public init(latitude: Double, longitude: Double, toponym: String? = nil, address: String? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.toponym = toponym
            self.address = address
        }

        /// The placeholder of an invalid required value.
        @usableFromInline
        static let placeholder = GeoLocation(latitude: 0, longitude: 0, toponym: nil, address: nil)

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            latitude = r.double("latitude")
            longitude = r.double("longitude")
            toponym = r.optionalString("toponym")
            address = r.optionalString("address")
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("latitude", latitude)
            b.add("longitude", longitude)
            b.addOptional("toponym", toponym)
            b.addOptional("address", address)
        }
    }
}
