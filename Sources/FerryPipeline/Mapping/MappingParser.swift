import FerryCore
import FerrySchemas

/// Reads a mapping file's `Value` into a `FieldMapping`, naming the JSON Pointer of any member at fault.
struct MappingParser {
    let path: String

    private static let ruleKeys: Set<String> = [
        "from", "const", "join", "separator", "default", "list", "object", "uuid", "split", "scale", "round", "type",
        "date", "map", "each",
    ]

    func parse(_ value: Value) throws -> FieldMapping {
        guard let root = value.objectValue else { throw error(.root, "a mapping is a JSON object") }
        for key in root.keys where !["domain", "schemaVersion", "collection", "fields", "records", "nullTokens", "trim", "timeZone", "$comment"].contains(key) {
            throw error(JSONPointer(tokens: [key]), "unknown member '\(key)'")
        }
        guard let domainName = root["domain"]?.stringValue, let domain = Domain(rawValue: domainName) else {
            throw error("/domain", "domain must be one of \(Domain.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let version = root["schemaVersion"]?.int64Value.map(Int.init) else { throw error("/schemaVersion", "schemaVersion must be an integer") }
        guard let collection = root["collection"]?.stringValue else { throw error("/collection", "collection must be a string") }
        guard let fieldsObject = root["fields"]?.objectValue else { throw error("/fields", "fields must be an object of target field -> rule") }
        var fields: [(name: String, rule: FieldRule)] = []
        for member in fieldsObject {
            fields.append((member.key, try rule(member.value, at: JSONPointer("/fields").appending(member.key))))
        }
        var records: [(collection: String, values: [Value])] = []
        if let recordsValue = root["records"] {
            guard let object = recordsValue.objectValue else { throw error("/records", "records must be an object of collection -> [record]") }
            for member in object {
                guard let list = member.value.arrayValue else { throw error(JSONPointer("/records").appending(member.key), "must be an array of records") }
                records.append((member.key, list))
            }
        }
        var nullTokens: Set<String> = []
        if let tokens = root["nullTokens"] {
            guard let list = tokens.arrayValue?.compactMap(\.stringValue), list.count == tokens.arrayValue?.count else {
                throw error("/nullTokens", "nullTokens must be an array of strings")
            }
            nullTokens = Set(list)
        }
        return FieldMapping(
            domain: domain, schemaVersion: version, collection: collection, fields: fields, records: records,
            nullTokens: nullTokens, trim: root["trim"]?.boolValue ?? true, timeZone: root["timeZone"]?.stringValue ?? "UTC",
            path: path)
    }

    private func rule(_ value: Value, at pointer: JSONPointer) throws -> FieldRule {
        if let column = value.stringValue { return .column(column, FieldTransform()) }
        guard let object = value.objectValue else {
            throw error(pointer, "a rule is a column name or an object with from, const, join, list, object or uuid")
        }
        for key in object.keys where !Self.ruleKeys.contains(key) {
            throw error(pointer.appending(key), "unknown rule member '\(key)'")
        }
        if let constant = object["const"] { return .constant(constant) }
        if let join = object["join"] {
            guard let columns = strings(join) else { throw error(pointer / "join", "join takes an array of column names") }
            return .join(columns, separator: object["separator"]?.stringValue ?? " ", fallback: object["default"])
        }
        if let list = object["list"] {
            guard let items = list.arrayValue else { throw error(pointer / "list", "list takes an array of rules") }
            return .list(try items.enumerated().map { try rule($0.element, at: pointer / "list" / $0.offset) })
        }
        if let nested = object["object"] {
            guard let members = nested.objectValue else { throw error(pointer / "object", "object takes an object of field -> rule") }
            return .object(try members.map { ($0.key, try rule($0.value, at: pointer / "object" / $0.key)) })
        }
        if let uuid = object["uuid"] {
            guard let columns = strings(uuid) else { throw error(pointer / "uuid", "uuid takes an array of column names") }
            return .derivedUUID(columns)
        }
        guard let column = object["from"]?.stringValue else {
            throw error(pointer, "a rule needs one of from, const, join, list, object or uuid")
        }
        return .column(column, try transform(object, at: pointer))
    }

    private func transform(_ object: ValueObject, at pointer: JSONPointer) throws -> FieldTransform {
        var transform = FieldTransform()
        transform.split = object["split"]?.stringValue
        transform.each = object["each"]?.stringValue
        if let scale = object["scale"] {
            guard let numbers = scale.arrayValue?.compactMap(\.doubleValue), numbers.count == 4, numbers[0] != numbers[1] else {
                throw error(pointer / "scale", "scale takes [fromLow, fromHigh, toLow, toHigh] with fromLow != fromHigh")
            }
            transform.scale = numbers
        }
        if let round = object["round"] {
            guard let step = round.doubleValue, step > 0 else { throw error(pointer / "round", "round takes a positive number") }
            transform.round = step
        }
        if let type = object["type"] {
            guard let name = type.stringValue, ["number", "integer", "boolean", "string"].contains(name) else {
                throw error(pointer / "type", "type is number, integer, boolean or string")
            }
            transform.type = name
        }
        transform.date = object["date"]?.stringValue
        if let map = object["map"] {
            guard let members = map.objectValue else { throw error(pointer / "map", "map takes an object of value -> replacement") }
            transform.valueMap = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        transform.fallback = object["default"]
        return transform
    }

    private func strings(_ value: Value) -> [String]? {
        guard let items = value.arrayValue else { return nil }
        let names = items.compactMap(\.stringValue)
        return names.count == items.count ? names : nil
    }

    private func error(_ pointer: JSONPointer, _ message: String) -> FerryError {
        FerryError(.usage, "mapping \(pointer.description.isEmpty ? "" : pointer.description + ": ")\(message)",
                   at: SourceLocation(file: path, field: pointer))
    }
}
