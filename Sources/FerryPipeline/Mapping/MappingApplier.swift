import FerryCore
import FerrySchemas
import Foundation

/// Applies a `FieldMapping` to the records of one input: constant records first, then one target
/// record per source record; at the end, one `unmapped-field` warning per source column no rule read.
final class MappingApplier {
    private let mapping: FieldMapping
    private let log: DiagnosticLog
    private var index = 0
    private var seenColumns: [String] = []
    private var seenSet: Set<String> = []
    private let used: Set<String>
    private var firstLocation: SourceLocation?
    private let sourceColumnOfField: [String: String]

    init(mapping: FieldMapping, log: DiagnosticLog) {
        self.mapping = mapping
        self.log = log
        self.used = mapping.usedColumns
        var columns: [String: String] = [:]
        for field in mapping.fields {
            if case .column(let column, _) = field.rule { columns[field.name] = column }
        }
        sourceColumnOfField = columns
    }

    /// The mapping's constant records, located in the mapping file.
    func constantRecords() -> [Record] {
        var result: [Record] = []
        for (collection, values) in mapping.records {
            for (i, value) in values.enumerated() {
                let location = SourceLocation(file: mapping.path, collection: collection, recordIndex: i,
                                              field: JSONPointer(tokens: ["records", collection, String(i)]))
                result.append(Record(collection: collection, value: value, location: location))
            }
        }
        return result
    }

    /// The target record built from `record`.
    func apply(_ record: Record) -> Record {
        if firstLocation == nil { firstLocation = record.location }
        noteColumns(of: record.value)
        let context = RuleContext(record: record, index: index, mapping: mapping, log: log)
        index += 1
        var object = ValueObject()
        object.reserveCapacity(mapping.fields.count)
        for field in mapping.fields {
            if let value = context.evaluate(field.rule, field: JSONPointer(tokens: [field.name])) {
                object.append(field.name, value)
            }
        }
        var location = record.location
        location.collection = mapping.collection
        let locator = MappedFieldLocator(source: record.locator, sourceColumnOfField: sourceColumnOfField)
        return Record(collection: mapping.collection, value: .object(object), location: location, locator: locator)
    }

    /// Warns once for each source column that no rule reads, at its header cell when known.
    /// - Parameter columnPositions: where each column's header cell stands (CSV input).
    func finish(columnPositions: [String: TextPosition] = [:]) {
        for column in seenColumns where !used.contains(column) {
            var location = firstLocation ?? SourceLocation()
            location.line = 1
            location.column = nil
            location.position = columnPositions[column] ?? location.position
            location.recordIndex = nil
            location.collection = nil
            log.report(.warning(.unmappedField, "source column '\(column)' is not used by the mapping \(mapping.path)", at: location))
        }
    }

    private func noteColumns(of value: Value) {
        for name in ColumnPath.leafNames(of: value) where !seenSet.contains(name) {
            seenSet.insert(name)
            seenColumns.append(name)
        }
    }
}

/// Evaluates rules against one source record.
struct RuleContext {
    let record: Record
    let index: Int
    let mapping: FieldMapping
    let log: DiagnosticLog

    func evaluate(_ rule: FieldRule, field: JSONPointer) -> Value? {
        switch rule {
        case .constant(let value):
            return value
        case .column(let column, let transform):
            return apply(transform, to: text(column), column: column, field: field)
        case .join(let columns, let separator, let fallback):
            let parts = columns.compactMap { text($0) }
            return parts.isEmpty ? fallback : .string(parts.joined(separator: separator))
        case .list(let rules):
            return .array(rules.enumerated().compactMap { evaluate($0.element, field: field.appending($0.offset)) })
        case .object(let members):
            // An object fed by columns is absent when one of its column-fed members is (a taste whose
            // score is NA is left out of the list, not written without its value).
            var object = ValueObject()
            for (name, rule) in members {
                guard let value = evaluate(rule, field: field.appending(name)) else {
                    if !rule.columns.isEmpty { return nil }
                    continue
                }
                object.append(name, value)
            }
            return .object(object)
        case .derivedUUID(let columns):
            let name = "ferry:\(mapping.collection)/\(index)/" + columns.map { text($0) ?? "" }.joined(separator: "/")
            return .string(DerivedID.uuidV5(namespace: DerivedID.urlNamespace, name: name))
        }
    }

    /// The cell text of a column, trimmed; nil when absent, empty or a null token.
    func text(_ column: String) -> String? {
        guard let value = ColumnPath.lookup(column, in: record.value) else { return nil }
        var text: String
        switch value {
        case .string(let s): text = s
        case .number(let n): text = n
        case .integer(let i): text = String(i)
        case .double(let d): text = NumberText.ecmaScript(d) ?? ""
        case .bool(let b): text = b ? "true" : "false"
        default: return nil
        }
        if mapping.trim { text = text.trimmingCharacters(in: .whitespacesAndNewlines) }
        if text.isEmpty || mapping.nullTokens.contains(text) { return nil }
        return text
    }

    private func apply(_ transform: FieldTransform, to text: String?, column: String, field: JSONPointer) -> Value? {
        guard let text else { return transform.fallback }
        if let mapped = transform.valueMap?[text] { return mapped }
        if let separator = transform.split {
            let parts = text.components(separatedBy: separator).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return .array(parts.map { part in transform.each.map { .object(ValueObject([($0, .string(part))])) } ?? .string(part) })
        }
        if let pattern = transform.date {
            guard let instant = NamedDateFormat.parse(text, pattern: pattern, timeZone: mapping.timeZone) else {
                report(.invalidValue, "'\(text)' in column '\(column)' does not match the date format '\(pattern)'", column: column, field: field)
                return transform.fallback
            }
            return .string(instant)
        }
        if transform.isNumeric {
            guard var number = Double(text), number.isFinite else {
                report(.typeError, "'\(text)' in column '\(column)' is not a number", column: column, field: field)
                return transform.fallback
            }
            if let s = transform.scale { number = s[2] + (number - s[0]) * (s[3] - s[2]) / (s[1] - s[0]) }
            if let step = transform.round { number = (number / step).rounded() * step }
            number = Self.clean(number)
            if transform.type == "integer" {
                guard let integer = Int64(exactly: number.rounded()) else { return transform.fallback }
                return .integer(integer)
            }
            return .double(number)
        }
        switch transform.type {
        case "boolean":
            switch text.lowercased() {
            case "true", "yes", "1", "y": return .bool(true)
            case "false", "no", "0", "n": return .bool(false)
            default:
                report(.typeError, "'\(text)' in column '\(column)' is not a boolean", column: column, field: field)
                return transform.fallback
            }
        default:
            return .string(text)
        }
    }

    /// Removes binary noise from arithmetic (`8.67 / 10` is `0.867`, not `0.8669999999999999`).
    static func clean(_ number: Double) -> Double {
        Double(String(format: "%.12g", number)) ?? number
    }

    private func report(_ code: Diagnostic.Code, _ message: String, column: String, field: JSONPointer) {
        var location = record.location(of: ColumnPath.pointer(column))
        location.field = JSONPointer(tokens: [mapping.collection, String(index)]).appending(field)
        log.report(.error(code, message, at: location))
    }
}

/// Source columns named the way CSV headers name them (`Country.of.Origin`, `tastes.1.label`),
/// found in records whether the reader unflattened the dotted names or not.
enum ColumnPath {
    /// The value of `column`: a member with that exact name, else the dotted path walked through
    /// objects and 1-based list indices.
    static func lookup(_ column: String, in value: Value) -> Value? {
        if let exact = value.objectValue?[column] { return exact }
        return value[pointer(column)]
    }

    /// The JSON Pointer of a dotted column name (1-based list indices become 0-based).
    static func pointer(_ column: String) -> JSONPointer {
        JSONPointer(tokens: column.split(separator: ".", omittingEmptySubsequences: false).map { part in
            Int(part).map { String($0 - 1) } ?? String(part)
        })
    }

    /// The dotted names of every leaf of a record, in order.
    static func leafNames(of value: Value) -> [String] {
        var names: [String] = []
        collect(value, prefix: [], into: &names)
        return names
    }

    private static func collect(_ value: Value, prefix: [String], into names: inout [String]) {
        switch value {
        case .object(let object):
            for member in object { collect(member.value, prefix: prefix + [member.key], into: &names) }
        case .array(let items):
            for (i, item) in items.enumerated() { collect(item, prefix: prefix + [String(i + 1)], into: &names) }
        default:
            names.append(prefix.joined(separator: "."))
        }
    }
}

/// Locates a mapped record's fields at the source cells they came from.
struct MappedFieldLocator: FieldLocating {
    let source: (any FieldLocating)?
    let sourceColumnOfField: [String: String]

    func position(of field: JSONPointer) -> TextPosition? {
        guard let first = field.tokens.first, let column = sourceColumnOfField[first] else { return nil }
        return source?.position(of: ColumnPath.pointer(column))
    }
}
