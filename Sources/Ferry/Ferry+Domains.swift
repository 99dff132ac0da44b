import FerryCore
import FerryPipeline
import FerrySchemas

extension Ferry {
    /// Makes an app's own domain known to everything that looks domains up by name or by their
    /// data: `Ferry.run(pipeline:)` and pipeline files (`"domain"`), detection of headerless
    /// inputs, validation, migration, schemas (`DatasetSchema.schema(for:version:)`, then
    /// `JSONSchemaPublisher` and `XSDPublisher`) and bundles. Registering the same definition
    /// again does nothing; the built-in domains are registered the same way.
    /// - Returns: the domain (`Domain(definition)`).
    /// - Throws: `FerryError(.usage)` when the name is not usable or another definition has it.
    @discardableResult
    public static func register(_ definition: any DomainDefinition.Type) throws(FerryError) -> Domain {
        try DomainRegistry.shared.register(definition)
        return Domain(definition)
    }

    /// The registered domains: the three built-in ones, then the app's, in registration order.
    public static var domains: [Domain] { Domain.allCases }
}

extension Ferry {
    /// A published schema's kind.
    public enum SchemaDocumentKind: Sendable {
        /// JSON Schema draft 2020-12, for the JSON form (`ferry schema DOMAIN`).
        case jsonSchema
        /// XML Schema 1.0, for the XML form (`ferry schema DOMAIN --as xsd`).
        case xsd
    }

    /// The schema document of a registered domain at a version, byte for byte what
    /// `ferry schema DOMAIN --schema-version N [--as xsd]` prints for a built-in domain.
    /// - Throws: `FerryError(.unknownDomain)` for a domain not registered,
    ///   `FerryError(.unknownVersion)` for a version it does not define.
    public static func schemaDocument(for domain: Domain, version: Int, as kind: SchemaDocumentKind = .jsonSchema)
        throws(FerryError) -> String
    {
        guard domain.definition != nil else {
            throw FerryError(.unknownDomain, "unknown domain \(quoted: domain.rawValue); domains: \(DomainRegistry.shared.namesList)")
        }
        guard let schema = DatasetSchema.schema(for: domain, version: version) else {
            throw DatasetSchema.unknownVersion(version, of: domain)
        }
        switch kind {
        case .jsonSchema: return JSONSchemaPublisher.text(for: schema)
        case .xsd: return XSDPublisher.document(for: schema)
        }
    }
}
