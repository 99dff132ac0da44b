import FerryCore

/// A record's locator that finds the fields below `prefix` with `inner`, a locator of the value
/// at `prefix` alone, and every other field with `outer`, the record's own. A document of a
/// Firestore export inside a larger raw record is located this way, so that its diagnostics scan
/// the document's bytes and not the record's up to it (one scan of the record per document made
/// a collection's time quadratic in its documents).
struct SubtreeLocator: FieldLocating {
    /// The pointer of the value `inner` locates, relative to the record.
    let prefix: JSONPointer
    /// Positions relative to the value at `prefix` (`JSONFieldLocator.childLocators(of:)`).
    let inner: any FieldLocating
    /// The record's locator, for fields outside `prefix`.
    let outer: any FieldLocating
    /// Members known to be absent from the value at `prefix` (the ones `FirestoreLayout` fills in
    /// from the key or the parent when the source lacks them): nil without scanning for them.
    var absentMembers: [String] = []

    /// The pointer below `prefix` of `field`, nil when `field` is not below it.
    private func relative(_ field: JSONPointer) -> JSONPointer? {
        guard field.tokens.count >= prefix.tokens.count, field.tokens.starts(with: prefix.tokens) else { return nil }
        return JSONPointer(tokens: Array(field.tokens.dropFirst(prefix.tokens.count)))
    }

    func position(of field: JSONPointer) -> TextPosition? {
        // The document's own root and its filled-in members (asked for every document committed)
        // need no relative pointer built.
        let below = field.tokens.count - prefix.tokens.count
        guard below >= 0, field.tokens.starts(with: prefix.tokens) else { return outer.position(of: field) }
        if below == 0 { return inner.position(of: .root) }
        if below == 1, let last = field.tokens.last, absentMembers.contains(last) { return nil }
        return inner.position(of: JSONPointer(tokens: Array(field.tokens.suffix(below))))
    }

    var singleLine: Int? { outer.singleLine }

    func childLocators(of field: JSONPointer) -> [String: any FieldLocating]? {
        guard let inside = relative(field) else { return outer.childLocators(of: field) }
        return inner.childLocators(of: inside)
    }

    func childLocatorsInOrder(of field: JSONPointer) -> [(token: String, locator: any FieldLocating)]? {
        guard let inside = relative(field) else { return outer.childLocatorsInOrder(of: field) }
        return inner.childLocatorsInOrder(of: inside)
    }
}

/// The locator of a collection a reader streamed document by document (`RecordNesting`): only
/// its start is known, as its bytes are never held whole. It stands outside a `SubtreeLocator`
/// whose `inner` is the document's own, where only the collection's own root is ever asked for.
struct CollectionStartLocator: FieldLocating {
    /// The line and column of the collection's `{` or `[`.
    let start: TextPosition

    func position(of field: JSONPointer) -> TextPosition? { field.tokens.isEmpty ? start : nil }
}
