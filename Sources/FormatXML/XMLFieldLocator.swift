import FerryCore

/// Maps a field of one XML record to the line and column of its element's start tag (the `<`),
/// so a diagnostic about `/tastes/1/value` points at `<value>`, not at the record's element.
///
/// Holds one position per element of the record, in document order; a record has tens of
/// elements, so a linear search on demand (diagnostics only) costs less than a dictionary built
/// for every record.
public struct XMLFieldLocator: FieldLocating {
    /// Each element's pointer relative to the record (`/tastes/1/value`) and its start position.
    public let positions: [(field: JSONPointer, position: TextPosition)]

    public init(positions: [(field: JSONPointer, position: TextPosition)]) {
        self.positions = positions
    }

    /// The position of the element of `field`, or nil when the record has no such element (an
    /// absent field: the caller then uses the record's position).
    public func position(of field: JSONPointer) -> TextPosition? {
        positions.first(where: { $0.field == field })?.position
    }
}
