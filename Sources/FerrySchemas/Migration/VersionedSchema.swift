/// Namespace of schema version identifiers, shaped like SwiftData's `Schema.Version`.
public enum Schema {
    /// A semantic version `(major, minor, patch)`; Ferry's schema versions are `1.0.0` and `2.0.0`.
    public struct Version: Sendable, Hashable, Comparable, CustomStringConvertible {
        public var major: Int
        public var minor: Int
        public var patch: Int

        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }

        public var description: String { "\(major).\(minor).\(patch)" }
    }
}

/// One version of a domain's schema, as SwiftData's `VersionedSchema`: its version and its model
/// types (one per collection, in canonical order).
public protocol VersionedSchema: Sendable {
    /// The version (`Schema.Version(2, 0, 0)`); `major` is SCHEMAS.md's schema version.
    static var versionIdentifier: Schema.Version { get }
    /// Visits the record types of the collections, in canonical order, with their concrete types:
    /// the one list of a version's models (`models` follows from it). Implementations are
    /// `@inlinable`, so that a visitor is specialized for each model (`CollectionModelVisitor`).
    static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor)
    /// The domain this schema belongs to.
    static var domain: Domain { get }
}

extension VersionedSchema {
    /// The record types of the collections, in canonical order.
    public static var models: [any CollectionModel.Type] {
        var list = CollectionModelList()
        forEachModel(&list)
        return list.models
    }

    /// The descriptor of this version (collections in canonical order).
    public static var datasetSchema: DatasetSchema {
        DatasetSchema(
            domain: domain, version: versionIdentifier.major,
            collections: models.map { CollectionSchema(name: $0.collection, recordType: $0.recordType) })
    }

    /// The model type of a collection, if this version has it.
    public static func model(forCollection name: String) -> (any CollectionModel.Type)? {
        for model in models where model.collection == name { return model }
        return nil
    }
}
