import FerryCore
import FerryPipeline
import FerrySchemas
import FormatJSON

/// `ferry schema DOMAIN [--schema-version N] [--as json-schema|xsd]`: the published schemas.
struct SchemaCommand: FerryCommand {
    static let configuration = CommandConfiguration(
        name: "schema",
        abstract: "Print the published schema of a domain: JSON Schema (2020-12) for the JSON form, or XSD for the XML form.",
        discussion: "Every JSON or XML file Ferry writes for that domain and version validates against it.",
        arguments: "DOMAIN", argumentCount: 1...1,
        options: [
            OptionSpec(["--schema-version"], .single, value: "N", help: "The schema version (default: the latest, 2)."),
            OptionSpec(["--as"], .single, value: "KIND", help: "json-schema (default) or xsd."),
        ],
        // It reads no input and writes only standard output.
        exitCodes: [.success, .usage, .unknown, .outputUnwritable, .internalError])

    var schema: DatasetSchema
    var asXSD: Bool

    init(_ arguments: ParsedArguments) throws {
        let name = arguments.positionals[0]
        guard let domain = Domain(rawValue: name) else {
            throw FerryError(.unknownDomain, "unknown domain '\(name)'; domains: \(Domain.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let version = try arguments.integer("schema-version", in: 1...Int.max) ?? 2
        guard let schema = DatasetSchema.schema(for: domain, version: version) else {
            throw DatasetSchema.unknownVersion(version, of: domain)
        }
        self.schema = schema
        switch arguments.value("as") ?? "json-schema" {
        case "json-schema": asXSD = false
        case "xsd": asXSD = true
        case let other: throw UsageError("--as takes json-schema or xsd, not '\(other)'")
        }
    }

    func run() throws -> ExitStatus {
        if asXSD {
            StandardOutput.write(XSDPublisher.document(for: schema))
        } else {
            let bytes = try JSONText.encode(JSONSchemaPublisher.document(for: schema), pretty: true)
            StandardOutput.write(String(decoding: bytes, as: UTF8.self))
        }
        return .success
    }
}
