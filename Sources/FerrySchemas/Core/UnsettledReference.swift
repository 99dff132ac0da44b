import FerryCore

/// A reference to an id that was not read when its record was committed, located then (so that
/// no record is held), and settled or reported after the last record (`DatasetProcessor.finish()`).
struct UnsettledReference: Sendable {
    /// The collection whose ids `id` must be among.
    var collection: String
    var id: String
    /// The referring field's location.
    var location: SourceLocation
    /// The referring field as messages name it (`wordBookID`, `taggedMemberIds[1]`).
    var label: String
    /// What a record of `collection` is called in messages (`word book`, `member`).
    var noun: String

    init(_ pending: PendingReference, at location: SourceLocation) {
        collection = pending.collection
        id = pending.id
        self.location = location
        label = pending.label
        noun = pending.rule.noun
    }

    /// The `dangling-reference` error: no record of the dataset has the id.
    var danglingMessage: String { "\(label) \(quoted: id) names no \(noun) of the dataset" }

    /// The `lossy-drop` warning of `--lenient` when the record with the id was read but not
    /// written (its own error is reported): no record naming it is written either.
    var droppedMessage: String {
        "\(label) \(quoted: id) names a \(noun) that is not written (it has errors), so no record naming it is written either"
    }
}
