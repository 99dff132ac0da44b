extension ModelReader {
    /// The members and elements entered from the reader's root down to the object read now, kept
    /// in place for the usual depth (four steps: a member's list's element's member) so that
    /// reading a record allocates nothing for its way down; deeper steps go to an array.
    ///
    /// A step left (`removeLast`) keeps its slot's key until the slot is used again: the keys are
    /// the models' field names, held by the models anyway.
    @usableFromInline
    struct PathSteps {
        @usableFromInline var slots: (PathStep, PathStep, PathStep, PathStep) = (.index(0), .index(0), .index(0), .index(0))
        /// The steps past the fourth.
        @usableFromInline var deeper: [PathStep] = []
        @usableFromInline var count = 0

        @inlinable init() {}

        @inlinable var isEmpty: Bool { count == 0 }

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
}
