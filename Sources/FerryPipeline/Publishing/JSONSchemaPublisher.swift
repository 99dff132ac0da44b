import FerryCore
import FerrySchemas
import FormatJSON

/// Publishes a dataset schema as one JSON Schema (draft 2020-12) document for the JSON form of
/// SCHEMAS.md "Formats": the envelope, one array per collection, and a `$defs` entry per record type.
/// It describes what Ferry writes (canonical RFC 3339 instants, base64 data); every JSON file Ferry
/// writes for that domain and version validates against it.
public enum JSONSchemaPublisher {
    /// The JSON Schema document as `ferry schema` prints it: pretty-printed JSON, UTF-8.
    public static func text(for schema: DatasetSchema) -> String {
        // Encoding fails only on a non-finite number, and the document holds none.
        let bytes = (try? JSONText.encode(document(for: schema), pretty: true)) ?? []
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The JSON Schema document as a `Value` (write it with the JSON adapter for canonical bytes).
    public static func document(for schema: DatasetSchema) -> Value {
        var definitions = DefinitionTable()
        var properties = ValueObject()
        properties.append("domain", ["const": .string(schema.domain.rawValue)])
        properties.append("schemaVersion", ["const": .integer(Int64(schema.version))])
        for collection in schema.collections {
            let reference = definitions.reference(to: collection.recordType)
            properties.append(collection.name, ["type": "array", "items": reference])
        }
        var root = ValueObject()
        root.append("$schema", "https://json-schema.org/draft/2020-12/schema")
        root.append("$id", .string("urn:ferry:schema:\(schema.domain.rawValue):\(schema.version)"))
        root.append("title", .string("Ferry \(schema.domain.rawValue) dataset, schema version \(schema.version)"))
        root.append("type", "object")
        root.append("properties", .object(properties))
        root.append("required", ["domain", "schemaVersion"])
        root.append("additionalProperties", false)
        root.append("$defs", .object(definitions.definitions))
        return .object(root)
    }

    /// Record types turned into `$defs` entries, each once, nested types included.
    struct DefinitionTable {
        var definitions = ValueObject()
        private var done: Set<String> = []

        mutating func reference(to type: RecordType) -> Value {
            if !done.contains(type.name) {
                done.insert(type.name)
                let definition = recordDefinition(type)
                definitions.append(type.name, definition)
            }
            return ["$ref": .string("#/$defs/\(type.name)")]
        }

        private mutating func recordDefinition(_ type: RecordType) -> Value {
            var properties = ValueObject()
            for field in type.fields { properties.append(field.name, fieldSchema(field)) }
            var object = ValueObject()
            object.append("type", "object")
            object.append("properties", .object(properties))
            object.append("required", .array(type.fields.filter(\.isRequired).map { .string($0.name) }))
            object.append("additionalProperties", false)
            return .object(object)
        }

        private mutating func fieldSchema(_ field: FieldSchema) -> Value {
            var schema = typeSchema(field.type)
            if case .object(var object) = schema {
                if let range = field.range {
                    object.append("minimum", .double(range.lowerBound))
                    object.append("maximum", .double(range.upperBound))
                }
                if let step = field.step { object.append("multipleOf", .double(step)) }
                if field.isExternalStorage {
                    object.append("description", "external storage: base64 in a plain JSON file, a media path inside a bundle")
                }
                schema = .object(object)
            }
            return schema
        }

        private mutating func typeSchema(_ type: FieldType) -> Value {
            switch type {
            case .string: return ["type": "string"]
            case .nonEmptyString: return ["type": "string", "minLength": 1]
            case .integer: return ["type": "integer"]
            case .double: return ["type": "number"]
            case .bool: return ["type": "boolean"]
            case .instant: return ["type": "string", "format": "date-time"]
            case .day: return ["type": "string", "format": "date"]
            case .instantOrDay:
                return ["type": "string", "anyOf": [["format": "date-time"], ["format": "date"]]]
            case .data: return ["type": "string", "contentEncoding": "base64"]
            case .timestamp:
                return [
                    "type": "object",
                    "properties": ["_seconds": ["type": "integer"], "_nanoseconds": ["type": "integer", "minimum": 0, "maximum": 999_999_999]],
                    "required": ["_seconds", "_nanoseconds"], "additionalProperties": false,
                ]
            case .url: return ["type": "string", "pattern": "^(|https?://.+)$"]
            case .enumeration(let names): return ["type": "string", "enum": .array(names.map { .string($0) })]
            case .object(let record): return reference(to: record)
            case .array(let element): return ["type": "array", "items": typeSchema(element)]
            }
        }
    }
}
