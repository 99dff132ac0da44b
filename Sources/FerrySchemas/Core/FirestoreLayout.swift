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
    static func subCollectionParent(_ path: String) -> (parent: String, collection: String)? {
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
            if let object = record.value.objectValue { subtree.absentMembers = filledMembers.filter { object[$0] == nil } }
            appended = appended.locating(with: subtree)
        }
        return document(record.value, collection: collection, context: appended, documentID: nesting.documentID,
            parent: parent, nested: true)
    }

    /// The documents of a collection value: an object keyed by document id, or an array.
    static func container(_ value: Value, collection: String, context: RecordContext, parent: String?) -> [Document] {
        // Each document is located by a locator of its own bytes, all found in one pass: located
        // through the record's, every document's diagnostics and id rescanned the record up to
        // it, time quadratic in the documents of one collection.
        let path = context.path
        let locator = context.record.locator
        let locators = locator?.childLocators(of: path)
        func childContext(_ token: String, _ value: Value, _ appended: RecordContext) -> RecordContext {
            guard let locator, let child = locators?[token] else { return appended }
            var subtree = SubtreeLocator(prefix: path.appending(token), inner: child, outer: locator)
            if let object = value.objectValue { subtree.absentMembers = filledMembers.filter { object[$0] == nil } }
            return appended.locating(with: subtree)
        }
        switch value {
        case .object(let members):
            var result: [Document] = []
            for member in members.members {
                let memberContext = childContext(member.key, member.value, context.appending(member.key))
                result += document(member.value, collection: collection, context: memberContext, documentID: member.key,
                    parent: parent, nested: true)
            }
            return result
        case .array(let items):
            var result: [Document] = []
            for (index, item) in items.enumerated() {
                let itemContext = childContext(String(index), item, context.appending(index))
                result += document(item, collection: collection, context: itemContext, documentID: nil,
                    parent: parent, nested: true)
            }
            return result
        default:
            var bad = Document(collection: collection, value: value, context: context)
            bad.diagnostics.append(.error(.typeError,
                "collection \(collection): expected an object keyed by document id or a list, found \(value.shortDescription)",
                at: context.location()))
            return [bad]
        }
    }

    /// One document and the documents of its sub-collections (after it).
    static func document(_ value: Value, collection: String, context: RecordContext, documentID: String?, parent: String?,
        nested: Bool) -> [Document]
    {
        var context = context
        if !context.isAtRoot || !context.hasRecordBase {
            // A document inside its raw record: the raw record's id is not its own.
            context.recordID = nonEmpty(value.objectValue?["id"]) ?? documentID
        }
        guard case .object(var object) = value else {
            return [Document(collection: collection, value: value, context: context)]
        }
        var diagnostics: [Diagnostic] = []
        let ownID = nonEmpty(object["id"]) ?? documentID
        if nonEmpty(object["id"]) == nil, let documentID {
            object["id"] = nil
            object = ValueObject([(key: "id", value: .string(documentID))] + object.members)
        }
        if let parent, collection == "words" {
            if let own = nonEmpty(object["wordBookID"]) {
                if own != parent {
                    diagnostics.append(.error(.invalidValue,
                        "wordBookID \(quoted: own) differs from its parent word book \(quoted: parent)",
                        at: context.location(of: "/wordBookID")))
                }
            } else {
                object["wordBookID"] = .string(parent)
            }
        }
        var children: [Document] = []
        if nested {
            if let subs = object["__collections__"] {
                object["__collections__"] = nil
                if case .object(let named) = subs {
                    for member in named.members {
                        children += container(member.value, collection: member.key,
                            context: context.appending("__collections__").appending(member.key), parent: ownID)
                    }
                }
            }
            if let subs = object["subCollection"] {
                object["subCollection"] = nil
                if case .object(let paths) = subs {
                    for member in paths.members {
                        let (pathParent, name) = subCollectionParent(member.key) ?? (ownID ?? "", member.key)
                        children += container(member.value, collection: name,
                            context: context.appending("subCollection").appending(member.key), parent: pathParent)
                    }
                }
            }
        }
        var document = Document(collection: collection, value: .object(object), context: context)
        document.diagnostics = diagnostics
        if children.isEmpty { return [document] }  // the usual record: one array, not two
        return [document] + children
    }

    /// The members `document` fills in when the source lacks them.
    static let filledMembers = ["id", "wordBookID"]

    static func nonEmpty(_ value: Value?) -> String? {
        guard case .string(let text)? = value, !text.isEmpty else { return nil }
        return text
    }
}
