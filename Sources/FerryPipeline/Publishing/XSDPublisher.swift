import Foundation
import FerryCore
import FerrySchemas

/// Publishes a dataset schema as a W3C XML Schema (XSD 1.0) for the XML form of SCHEMAS.md
/// "Formats" and Docs/xml.md: `<dataset domain schemaVersion>`, an element per collection, an
/// element per record named after its record type, fields in canonical order, lists of `<item>`
/// (an empty list is `<name type="list"/>`). Every XML file Ferry writes for that domain and version
/// validates against it. Steps (`rating` in steps of 0.5) have no XSD facet for doubles and are
/// left to `ferry validate`.
public enum XSDPublisher {
    /// The XSD document text, 2-space indented, with a final newline.
    public static func document(for schema: DatasetSchema) -> String {
        var types = TypeTable()
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n"
        out += "  <xs:annotation><xs:documentation>Ferry \(schema.domain.rawValue) dataset, schema version \(schema.version) (XML form)</xs:documentation></xs:annotation>\n"
        out += "  <xs:element name=\"dataset\">\n    <xs:complexType>\n      <xs:sequence>\n"
        for collection in schema.collections {
            let typeName = types.name(for: collection.recordType)
            out += "        <xs:element name=\"\(collection.name)\" minOccurs=\"0\">\n"
            out += "          <xs:complexType>\n            <xs:sequence>\n"
            out += "              <xs:element name=\"\(collection.recordType.name)\" type=\"\(typeName)\" minOccurs=\"0\" maxOccurs=\"unbounded\"/>\n"
            out += "            </xs:sequence>\n          </xs:complexType>\n        </xs:element>\n"
        }
        out += "      </xs:sequence>\n"
        out += "      <xs:attribute name=\"domain\" type=\"xs:string\" use=\"required\" fixed=\"\(schema.domain.rawValue)\"/>\n"
        out += "      <xs:attribute name=\"schemaVersion\" type=\"xs:integer\" use=\"required\" fixed=\"\(schema.version)\"/>\n"
        out += "    </xs:complexType>\n  </xs:element>\n"
        out += types.definitions
        out += "</xs:schema>\n"
        return out
    }

    /// Complex types for record types, each defined once.
    struct TypeTable {
        var definitions = ""
        private var done: Set<String> = []

        mutating func name(for type: RecordType) -> String {
            if done.insert(type.name).inserted {
                var body = "  <xs:complexType name=\"\(type.name)\">\n    <xs:sequence>\n"
                for field in type.fields {
                    body += element(field.name, field.type, field: field, optional: !field.isRequired, indent: "      ")
                }
                body += "    </xs:sequence>\n    <xs:attribute name=\"type\" type=\"xs:string\" fixed=\"object\"/>\n  </xs:complexType>\n"
                definitions += body
            }
            return type.name
        }

        private mutating func element(_ name: String, _ type: FieldType, field: FieldSchema?, optional: Bool, indent: String) -> String {
            let occurs = optional ? " minOccurs=\"0\"" : ""
            switch type {
            case .object(let record):
                return "\(indent)<xs:element name=\"\(name)\" type=\"\(self.name(for: record))\"\(occurs)/>\n"
            case .array(let elementType):
                var out = "\(indent)<xs:element name=\"\(name)\"\(occurs)>\n\(indent)  <xs:complexType>\n\(indent)    <xs:sequence>\n"
                out += element("item", elementType, field: nil, optional: true, indent: indent + "      ")
                    .replacingFirst(" minOccurs=\"0\"", with: " minOccurs=\"0\" maxOccurs=\"unbounded\"")
                out += "\(indent)    </xs:sequence>\n\(indent)    <xs:attribute name=\"type\" type=\"xs:string\" fixed=\"list\"/>\n"
                out += "\(indent)  </xs:complexType>\n\(indent)</xs:element>\n"
                return out
            case .timestamp:
                return "\(indent)<xs:element name=\"\(name)\"\(occurs)>\n\(indent)  <xs:complexType>\n\(indent)    <xs:sequence>\n"
                    + "\(indent)      <xs:element name=\"_seconds\" type=\"xs:long\"/>\n\(indent)      <xs:element name=\"_nanoseconds\" type=\"xs:long\"/>\n"
                    + "\(indent)    </xs:sequence>\n\(indent)  </xs:complexType>\n\(indent)</xs:element>\n"
            default:
                let (base, facets) = simpleType(type, field: field)
                if facets.isEmpty { return "\(indent)<xs:element name=\"\(name)\" type=\"\(base)\"\(occurs)/>\n" }
                var out = "\(indent)<xs:element name=\"\(name)\"\(occurs)>\n\(indent)  <xs:simpleType>\n"
                out += "\(indent)    <xs:restriction base=\"\(base)\">\n"
                for facet in facets { out += "\(indent)      \(facet)\n" }
                out += "\(indent)    </xs:restriction>\n\(indent)  </xs:simpleType>\n\(indent)</xs:element>\n"
                return out
            }
        }

        /// The facets of a number field's `range` (none without one).
        private func bounds(_ range: ClosedRange<Double>?) -> [String] {
            guard let range else { return [] }
            return [
                "<xs:minInclusive value=\"\(NumberText.ecmaScript(range.lowerBound) ?? "0")\"/>",
                "<xs:maxInclusive value=\"\(NumberText.ecmaScript(range.upperBound) ?? "0")\"/>",
            ]
        }

        private func simpleType(_ type: FieldType, field: FieldSchema?) -> (String, [String]) {
            switch type {
            case .string: return ("xs:string", [])
            case .nonEmptyString: return ("xs:string", ["<xs:minLength value=\"1\"/>"])
            case .integer: return ("xs:long", bounds(field?.range))
            case .double: return ("xs:double", bounds(field?.range))
            case .bool: return ("xs:boolean", ["<xs:pattern value=\"true|false\"/>"])
            case .instant: return ("xs:dateTime", [])
            case .day: return ("xs:date", [])
            case .instantOrDay: return ("xs:string", ["<xs:pattern value=\"\\d{4}-\\d{2}-\\d{2}(T.+)?\"/>"])
            case .data: return ("xs:base64Binary", [])
            case .url: return ("xs:string", ["<xs:pattern value=\"(https?://.+)?\"/>"])
            case .enumeration(let names): return ("xs:string", names.map { "<xs:enumeration value=\"\($0)\"/>" })
            case .timestamp, .object, .array: return ("xs:string", [])
            }
        }
    }
}

extension String {
    /// This string with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
