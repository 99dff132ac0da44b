import FerryCore

/// The Firestore export layouts of vocabulary V1 (SCHEMAS.md "Domain vocabulary: V1"), turned
/// into plain documents: collections keyed by document id, `__collections__` sub-collections
/// (node-firestore-import-export, whose root may itself be `{"__collections__": {...}}`), and
/// path-keyed `subCollection` maps (firestore-backup-restore), inside a document or at top level.
public enum FirestoreLayout {
    /// One document found in a raw record.
    struct Document {
        /// Its collection in the source schema (`words`).
        var collection: String
        /// Its value, with `__collections__` / `subCollection` removed and `id` filled from the key.
        var value: Value
        /// Where it stands inside the raw record.
        var context: RecordContext
        /// Problems found while taking it apart.
        var diagnostics: [Diagnostic] = []
    }

    /// The envelope members a JSON document reader streams document by document: their
    /// collections are never one record (memory holds a document, not a root collection).
    public static let nestedCollections = NestedCollections(
        mapMembers: ["__collections__", "subCollection"], domains: [Domain.vocabulary.rawValue])

    /// The parent word book of a sub-collection path `wordBooks/<id>/words`, nil for other names.
    public static func subCollectionParent(_ path: String) -> (parent: String, collection: String)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[1].isEmpty else { return nil }
        return (String(parts[1]), String(parts[2]))
    }

    /// Splits a raw record into documents. `nested` is false for domains without Firestore layouts
    /// (only the id from a keyed collection applies there).
    static func documents(of record: Record, context: RecordContext, nested: Bool) -> [Document] {
        let collection = record.collection ?? ""
        guard nested else {
            return document(record.value, collection: collection, context: context, documentID: record.documentID,
                parent: nil, nested: false)
        }
        if collection == "__collections__", let name = record.documentID {
            var rootContext = context
            rootContext.base = JSONPointer(tokens: ["__collections__", name])
            if let nesting = record.nesting {
                return member(of: record, nesting, collection: name, context: rootContext, parent: nil)
            }
            return container(record.value, collection: name, context: rootContext, parent: nil)
        }
        if collection == "subCollection", let path = record.documentID {
            var rootContext = context
            rootContext.base = JSONPointer(tokens: ["subCollection", path])
            let (parent, name) = subCollectionParent(path) ?? (nil, path)
            if let nesting = record.nesting {
                return member(of: record, nesting, collection: name, context: rootContext, parent: parent)
            }
            return container(record.value, collection: name, context: rootContext, parent: parent)
        }
        if let (parent, name) = subCollectionParent(collection) {
            return document(record.value, collection: name, context: context, documentID: record.documentID,
                parent: parent, nested: true)
        }
        return document(record.value, collection: collection, context: context, documentID: record.documentID,
            parent: nil, nested: true)
    }

    /// The documents of one document the reader took out of its collection (`RecordNesting`):
    /// what `container` makes of that member, located by the record's own locator inside a
    /// collection that is no longer read whole.
    static func member(of record: Record, _ nesting: RecordNesting, collection: String, context: RecordContext,
        parent: String?) -> [Document]
    {
        var appended = nesting.documentID == nil ? context.appending(Int(nesting.token) ?? 0) : context.appending(nesting.token)
        if let inner = record.locator {
            let start = TextPosition(line: record.location.line ?? 1, column: record.location.column ?? 1)
            var subtree = SubtreeLocator(prefix: context.path.appending(nesting.token), inner: inner,
                outer: CollectionStartLocator(start: start))
            if let object = record.value.objectValue { subtree.absentMembers = absentMembers(of: object) }
            appended = appended.locating(with: subtree)
        }
        return document(record.value, collection: collection, context: appended, documentID: nesting.documentID,
            parent: parent, nested: true)
    }

    /// The documents of a collection value: an object keyed by document id, or an array.
    static func container(_ value: Value, collection: String, context: RecordContext, parent: String?) -> [Document] {
        var result: [Document] = []
        container(value, collection: collection, context: context, parent: parent, into: &result)
        return result
    }

    /// `container`, appending to `result`.
    static func container(_ value: Value, collection: String, context: RecordContext, parent: String?,
        into result: inout [Document])
    {
        // Every document's base is the raw record's pointer: built once, not once per document.
        let context = context.cachingBase()
        // Each document is located by a locator of its own bytes, all found in one pass: located
        // through the record's, every document's diagnostics and id rescanned the record up to
        // it, time quadratic in the documents of one collection.
        let path = context.path
        let locator = context.record.locator
        // In order, so that a key repeated in the map locates each of its documents at its own
        // place (its duplicate id is reported there); by key when the locator cannot.
        let ordered = locator?.childLocatorsInOrder(of: path)
        let locators = ordered == nil ? locator?.childLocators(of: path) : nil
        func childContext(_ index: Int, _ token: String, _ value: Value, _ appended: RecordContext) -> RecordContext {
            let inOrder = ordered.flatMap { index < $0.count && $0[index].token == token ? $0[index].locator : nil }
            guard let locator, let child = inOrder ?? locators?[token] else { return appended }
            var subtree = SubtreeLocator(prefix: path.appending(token), inner: child, outer: locator)
            if let object = value.objectValue { subtree.absentMembers = absentMembers(of: object) }
            return appended.locating(with: subtree)
        }
        switch value {
        case .object(let members):
            for (index, member) in members.members.enumerated() {
                let memberContext = childContext(index, member.key, member.value, context.appending(member.key))
                document(member.value, collection: collection, context: memberContext, documentID: member.key,
                    parent: parent, nested: true, into: &result)
            }
        case .array(let items):
            for (index, item) in items.enumerated() {
                let itemContext = childContext(index, String(index), item, context.appending(index))
                document(item, collection: collection, context: itemContext, documentID: nil,
                    parent: parent, nested: true, into: &result)
            }
        default:
            var bad = Document(collection: collection, value: value, context: context)
            bad.diagnostics.append(.error(.typeError,
                "collection \(collection): expected an object keyed by document id or a list, found \(value.shortDescription)",
                at: context.location()))
            result.append(bad)
        }
    }

    /// One document and the documents of its sub-collections (after it).
    static func document(_ value: Value, collection: String, context: RecordContext, documentID: String?, parent: String?,
        nested: Bool) -> [Document]
    {
        var result: [Document] = []
        document(value, collection: collection, context: context, documentID: documentID, parent: parent,
            nested: nested, into: &result)
        return result
    }

    /// `document`, appending to `result`: a collection's documents go into one array, not one
    /// array a document joined into the collection's.
    static func document(_ value: Value, collection: String, context: RecordContext, documentID: String?, parent: String?,
        nested: Bool, into result: inout [Document])
    {
        guard case .object(let object) = value else {
            var context = context
            if !context.isAtRoot || !context.hasRecordBase {
                context.recordID = documentID
                context = context.asDocumentRoot()
            }
            result.append(Document(collection: collection, value: value, context: context))
            return
        }
        // One scan finds every member the layout reads (each is the first of its name, as a
        // lookup gives); the members are copied once, and only when one is filled or removed.
        let members = object.members
        var idIndex: Int?
        var bookIndex: Int?
        var subsIndex: Int?
        var pathsIndex: Int?
        for i in members.indices {
            switch members[i].key {
            case "id": if idIndex == nil { idIndex = i }
            case "wordBookID": if bookIndex == nil { bookIndex = i }
            case "__collections__": if nested, subsIndex == nil { subsIndex = i }
            case "subCollection": if nested, pathsIndex == nil { pathsIndex = i }
            default: break
            }
        }
        let ownText = idIndex.flatMap { nonEmpty(members[$0].value) }
        var context = context
        if !context.isAtRoot || !context.hasRecordBase {
            // A document inside its raw record: the raw record's id is not its own, nor its
            // place there part of a field's name in messages.
            context.recordID = ownText ?? documentID
            context = context.asDocumentRoot()
        }
        let ownID = ownText ?? documentID
        let fillsID = ownText == nil && documentID != nil
        var diagnostics: [Diagnostic] = []
        var fillsBook = false
        if let parent, collection == "words" {
            if let bookIndex, let own = nonEmpty(members[bookIndex].value) {
                if own != parent {
                    diagnostics.append(.error(.invalidValue,
                        "wordBookID \(quoted: own) differs from its parent word book \(quoted: parent)",
                        at: context.location(of: "/wordBookID")))
                }
            } else {
                fillsBook = true
            }
        }
        var documentValue = value
        if fillsID || fillsBook || subsIndex != nil || pathsIndex != nil {
            var built: [ValueObject.Member] = []
            built.reserveCapacity(members.count + 2)
            if fillsID, let documentID { built.append((key: "id", value: .string(documentID))) }
            for i in members.indices {
                let key = members[i].key
                if fillsID, key == "id" { continue }
                if nested, key == "__collections__" || key == "subCollection" { continue }
                if fillsBook, i == bookIndex, let parent {
                    built.append((key: key, value: .string(parent)))
                    continue
                }
                built.append(members[i])
            }
            if fillsBook, bookIndex == nil, let parent { built.append((key: "wordBookID", value: .string(parent))) }
            documentValue = .object(ValueObject(built))
        }
        switch (fillsID, fillsBook && bookIndex == nil) {
        case (true, true): context.filledMembers = filledMembers
        case (true, false): context.filledMembers = absentID
        case (false, true): context.filledMembers = absentWordBookID
        case (false, false): break
        }
        var document = Document(collection: collection, value: documentValue, context: context)
        document.diagnostics = diagnostics
        result.append(document)
        if let subsIndex, case .object(let named) = members[subsIndex].value {
            for member in named.members {
                container(member.value, collection: member.key,
                    context: context.appending("__collections__").appending(member.key), parent: ownID, into: &result)
            }
        }
        if let pathsIndex, case .object(let paths) = members[pathsIndex].value {
            for member in paths.members {
                let (pathParent, name) = subCollectionParent(member.key) ?? (ownID ?? "", member.key)
                container(member.value, collection: name,
                    context: context.appending("subCollection").appending(member.key), parent: pathParent, into: &result)
            }
        }
    }

    /// The members `document` fills in when the source lacks them.
    static let filledMembers = ["id", "wordBookID"]

    /// The `filledMembers` that `object` lacks, in their order: one of four arrays made once, not
    /// an array made for each document.
    static func absentMembers(of object: ValueObject) -> [String] {
        switch (object["id"] == nil, object["wordBookID"] == nil) {
        case (true, true): return filledMembers
        case (true, false): return absentID
        case (false, true): return absentWordBookID
        case (false, false): return []
        }
    }

    private static let absentID = ["id"]
    private static let absentWordBookID = ["wordBookID"]

    static func nonEmpty(_ value: Value?) -> String? {
        guard case .string(let text)? = value, !text.isEmpty else { return nil }
        return text
    }
}
