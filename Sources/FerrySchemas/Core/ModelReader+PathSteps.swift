/// One step of a `ModelReader` from a value to a member or an element of it.
@usableFromInline
enum PathStep {
    /// A member by its field's schema (in the type's table, which outlives the read): a step
    /// is a plain value, with no reference counted as a nested value is entered and left.
    case field(UnsafePointer<FieldSchema>)
    /// A member the type has no field for: its key is `PathSteps.keys[k]`.
    case key(Int)
    case index(Int)
}

/// The members and elements a `ModelReader` entered from its root down to the object read now, kept
/// in place for the usual depth (four steps: a member's list's element's member) so that
/// reading a record allocates nothing for its way down; deeper steps go to an array.
///
/// The steps are plain values (a field's schema by pointer, a key by its index in `keys`, an
/// index): entering and leaving a value counts no reference.
@usableFromInline
struct PathSteps {
    @usableFromInline var slots: (PathStep, PathStep, PathStep, PathStep) = (.index(0), .index(0), .index(0), .index(0))
    /// The steps past the fourth.
    @usableFromInline var deeper: [PathStep] = []
    @usableFromInline var count = 0
    /// The keys of `.key` steps (members a type has no field for), in the order entered.
    @usableFromInline var keys: [String] = []

    @inlinable init() {}

    @inlinable var isEmpty: Bool { count == 0 }

    /// Leaves every step (a read cut short may leave some).
    @inlinable
    mutating func reset() {
        if count > 4 { deeper.removeAll(keepingCapacity: true) }
        count = 0
        if !keys.isEmpty { keys.removeAll() }
    }

    @inlinable
    mutating func append(_ step: PathStep) {
        switch count {
        case 0: slots.0 = step
        case 1: slots.1 = step
        case 2: slots.2 = step
        case 3: slots.3 = step
        default: deeper.append(step)
        }
        count += 1
    }

    @inlinable
    mutating func removeLast() {
        count -= 1
        if count >= 4 { deeper.removeLast() }
    }

    /// The steps from the root down, in order.
    @usableFromInline
    var all: [PathStep] {
        [slots.0, slots.1, slots.2, slots.3].prefix(count) + deeper
    }
}
