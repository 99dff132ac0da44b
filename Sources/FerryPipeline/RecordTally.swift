import FerryCore

/// What a conversion counts as its records go by, on the calling thread only, shared by the
/// closures the batched run calls for every record. A class whose stored properties are not
/// checked for exclusivity: as local `var`s captured by those closures, every access was checked
/// at run time (three a record).
final class RecordTally {
    /// Records read per source collection (a streamed collection's documents count as one).
    @exclusivity(unchecked) var read = KeyedCounter()
    /// The collection a reader streams document by document (`Record.nesting`): its documents
    /// share its location, and count as the one record it was read as before.
    @exclusivity(unchecked) var streamedCollection: SourceLocation?
    /// Every record read, a streamed collection's documents each counted (`DatasetReport.recordsRead`).
    @exclusivity(unchecked) var records = 0
    /// Records kept per output collection.
    @exclusivity(unchecked) var kept: CollectionCounter

    /// A tally listing the collections of `order` first.
    init(order: [String]) { kept = CollectionCounter(order: order) }
}
