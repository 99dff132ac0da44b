import FerryCore

/// One difference inside a record: the field's pointer relative to the record, and its value on
/// each side (nil where the field is absent on that side).
public struct FieldChange: Sendable, Equatable {
    /// `/tastes/0/value`, relative to the record.
    public var field: JSONPointer
    /// The value in OLD (after migration to NEW's version); nil when OLD lacks the field.
    public var old: Value?
    /// The value in NEW; nil when NEW lacks the field.
    public var new: Value?

    /// A change of `field` from `old` to `new` (nil: absent on that side).
    public init(field: JSONPointer, old: Value?, new: Value?) {
        self.field = field
        self.old = old
        self.new = new
    }

    /// The differences between two values of one record, in field order: members of two objects
    /// one by one (OLD's order, then members only NEW has), elements of two arrays of one length
    /// one by one; anything else that differs (arrays of two lengths, two kinds) is one change of
    /// the whole value, so that each change is also one RFC 6902 operation on the same path.
    public static func changes(from old: Value, to new: Value, at field: JSONPointer = .root) -> [FieldChange] {
        var changes: [FieldChange] = []
        collect(old, new, at: field, into: &changes)
        return changes
    }

    private static func collect(_ old: Value, _ new: Value, at field: JSONPointer, into changes: inout [FieldChange]) {
        guard old != new else { return }
        switch (old, new) {
        case (.object(let before), .object(let after)):
            for member in before {
                if let value = after[member.key] {
                    collect(member.value, value, at: field / member.key, into: &changes)
                } else {
                    changes.append(FieldChange(field: field / member.key, old: member.value, new: nil))
                }
            }
            for member in after where before[member.key] == nil {
                changes.append(FieldChange(field: field / member.key, old: nil, new: member.value))
            }
        case (.array(let before), .array(let after)) where before.count == after.count:
            for index in before.indices { collect(before[index], after[index], at: field / index, into: &changes) }
        default:
            changes.append(FieldChange(field: field, old: old, new: new))
        }
    }
}
