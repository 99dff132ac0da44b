import FerryCore

/// Maps a field of one XML record to the line and column of its element's start tag (the `<`),
/// so a diagnostic about `/tastes/1/value` points at `<value>`, not at the record's element.
///
/// Holds one entry per element of the record, in document order: its parent entry, its pointer
/// token (the key, or the index of an `<item>`) and its start position. No pointer is built while
/// reading: a pointer is matched against the entries (walking up the parents) only when a
/// position is asked for, which is per diagnostic and for the record's `/id`. A record has tens of
/// elements, so a linear search on demand costs less than an index built for every record.
public struct XMLFieldLocator: FieldLocating {
    /// One element of the record.
    public struct Element: Sendable {
        /// The entry of the enclosing element, or -1 for a member of the record itself.
        public var parent: Int32
        /// The member key (`name` of a `<field name="...">`), or nil for an `<item>`.
        public var key: String?
        /// The 0-based index among the parent's children (the pointer token of an `<item>`).
        public var index: Int32
        /// The line and column of the element's `<`.
        public var position: TextPosition

        public init(parent: Int32, key: String?, index: Int32, position: TextPosition) {
            self.parent = parent
            self.key = key
            self.index = index
            self.position = position
        }
    }

    /// The record's elements in document order.
    public let elements: [Element]

    public init(elements: [Element]) {
        self.elements = elements
    }

    /// The position of the first element (in document order) whose pointer relative to the record
    /// is `field`, or nil when the record has no such element (an absent field: the caller then
    /// uses the record's position).
    public func position(of field: JSONPointer) -> TextPosition? {
        let tokens = field.tokens
        guard !tokens.isEmpty else { return nil }
        for i in elements.indices where matches(i, tokens) { return elements[i].position }
        return nil
    }

    /// True when entry `i`'s path from the record is exactly `tokens`, compared from the innermost
    /// token outwards (most entries fail on their own token).
    private func matches(_ i: Int, _ tokens: [String]) -> Bool {
        var entry = i
        var t = tokens.count - 1
        while entry >= 0 {
            guard t >= 0 else { return false }
            // The entry is read in place: a copy of it retained and released its key.
            if elements[entry].key != nil {
                guard elements[entry].key! == tokens[t] else { return false }
            } else {
                guard let index = Int32(tokens[t]), index == elements[entry].index, tokens[t] == String(index) else { return false }
            }
            entry = Int(elements[entry].parent)
            t -= 1
        }
        return t < 0
    }
}
