import FerryCore

/// Lightweight mapping: an old value copied into a new type, for the migration plans.
extension DatasetProcessor {
    /// The lightweight copy of an old value into a new type: the members the new type has, by name.
    static func lightweight(_ value: Value, to type: RecordType) -> Value {
        guard case .object(let object) = value else { return value }
        var result = ValueObject()
        result.reserveCapacity(object.count)
        let fields = type.fields
        var hint = 0
        for member in object.members {
            // Members usually come in field order: look where the previous one was found first.
            if hint < fields.count, fields[hint].name == member.key {
                hint += 1
                result.append(member.key, member.value)
                continue
            }
            if let index = fields.firstIndex(where: { $0.name == member.key }) {
                hint = index + 1
                result.append(member.key, member.value)
            }
        }
        return .object(result)
    }

    /// A type's default: null, false, 0, a blank string, an empty list or object.
    static func isDefault(_ value: Value) -> Bool {
        switch value {
        case .null: return true
        case .bool(let flag): return !flag
        case .integer, .double, .number: return value.doubleValue == 0
        case .string(let text): return NotesMigrationPlan.isBlank(text)
        case .array(let items): return items.isEmpty
        case .object(let members): return members.isEmpty
        }
    }
}
