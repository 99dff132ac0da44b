import FerryCore

/// The locator of a record a processor returned for a document it found keyed by id or nested in
/// a raw record (a Firestore export's word, a word book keyed by its id), when asked to
/// (`DatasetProcessor.marksDocumentSources`): it locates as `base` does, and says where the
/// document stands in the input, which the returned record's own pointer (`/words/3`, its place
/// among the records returned) does not. A processor reading such records again
/// (`ProcessingOptions.namesDocumentsBySource`: the references a filter left dangling) names
/// them by it, as the first one did. (The typed lane takes no nested record when it is to hand on
/// values, so every such record of a filtered run is returned by `commit(_:)`.)
struct DocumentSourceLocator: FieldLocating {
    let base: (any FieldLocating)?
    /// The document's pointer from the input's root.
    let pointer: JSONPointer
    /// The members the layout filled in from the key or the parent (`RecordContext.filledMembers`),
    /// which the document lacks.
    let filledMembers: [String]

    init(base: (any FieldLocating)?, document context: RecordContext) {
        self.base = base
        pointer = context.pointer(of: .root)
        filledMembers = context.filledMembers
    }

    func position(of field: JSONPointer) -> TextPosition? { base?.position(of: field) }

    var singleLine: Int? { base?.singleLine }

    func line(of field: JSONPointer) -> Int? { base?.line(of: field) }

    func childLocators(of field: JSONPointer) -> [String: any FieldLocating]? { base?.childLocators(of: field) }

    func childLocatorsInOrder(of field: JSONPointer) -> [(token: String, locator: any FieldLocating)]? {
        base?.childLocatorsInOrder(of: field)
    }
}

extension RecordContext {
    /// This context (a returned record's root) named as the document `source` says: its pointer
    /// from the input's root, its filled-in members naming the document itself.
    func naming(_ source: DocumentSourceLocator) -> RecordContext {
        var copy = self
        let id = record.id
        copy.base = source.pointer
        copy.filledMembers = source.filledMembers
        copy.recordID = id
        return copy
    }
}
