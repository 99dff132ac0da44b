import FerryCore
import FerrySchemas
import FormatJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The documents of a nested record (`RawRecord.jsonNested`: a member of an object keyed by
/// document id, a Firestore export's word book with its words) taken by the lane: each document
/// is cut from the record's bytes as `FirestoreLayout` cuts it from the record's value (its `id`
/// from its key when it has none, a word's `wordBookID` from its book, its sub-collections left
/// out and read as documents of their own, after it), and taken as a document element is.
extension TypedLane {
    /// Takes every document of a nested record, appending their preparations to `state`'s in the
    /// order `FirestoreLayout.documents(of:context:nested:)` finds them; how many, or nil (nothing
    /// appended, nothing rendered) when any document is one the lane does not take, or the record
    /// is one the layout would report a problem about: the general path then reads it whole.
    func takeNested(_ record: RawRecord, _ state: UnsafeMutablePointer<LaneBatchState>) -> Int? {
        guard case .jsonNested(let bytes, let start, let collection, let documentID, let nesting, let maximumDepth) = record,
              !options.scalarsAsText, let base = bytes.baseAddress
        else { return nil }
        if case .values = output { return nil }
        if declinesMediaNames, MediaNameScan.mayNameMedia(bytes) { return nil }
        // The record's documents as `FirestoreLayout.documents(of:context:nested:)` dispatches them.
        var root = (collection: collection ?? "", documentID: documentID, parent: String?.none,
            pointer: [collection ?? "", documentID ?? ""])
        if splitsFirestoreLayouts, collection == "__collections__" || collection == "subCollection" {
            guard let name = documentID, let nesting else { return nil }
            let (parent, inner) = collection == "subCollection"
                ? FirestoreLayout.subCollectionParent(name).map { (Optional($0.parent), $0.collection) } ?? (nil, name)
                : (nil, name)
            root = (inner, nesting.documentID, parent, [collection!, name, nesting.token])
        } else if documentID == nil {
            // Placed by its index in its collection, which the record knows and the lane does not.
            return nil
        } else if splitsFirestoreLayouts, let (parent, inner) = FirestoreLayout.subCollectionParent(root.collection) {
            root.collection = inner
            root.parent = parent
        }
        let mark = state.pointee.buffer.count
        let before = state.pointee.preparations.count
        var split = NestedSplit(
            json: JSONLineValidator(p: base, end: bytes.count, maximumDepth: maximumDepth), start: start,
            nested: splitsFirestoreLayouts)
        let open = split.json.skipWhitespace(0)
        guard open < bytes.count,
              split.document(at: open, collection: root.collection, documentID: root.documentID, parent: root.parent,
                  pointer: root.pointer, level: 1, lane: self, state: state),
              split.json.skipWhitespace(split.end) == bytes.count
        else {
            state.pointee.buffer.truncate(to: mark)
            for payload in before..<state.pointee.preparations.count { state.pointee.documentPointers[payload] = nil }
            state.pointee.preparations.removeSubrange(before...)
            return nil
        }
        return state.pointee.preparations.count - before
    }
}

/// One nested record being cut into documents (`TypedLane.takeNested`).
struct NestedSplit {
    /// The record's bytes, checked against the parser's grammar as they are passed.
    let json: JSONLineValidator
    /// The line and column of the record's first byte.
    let start: TextPosition
    /// True when sub-collections are documents of their own (a Firestore layout).
    let nested: Bool
    /// The offset past the record's value, once `document` read it.
    private(set) var end = 0
    /// The line of `lineOffset`, counted on from there.
    private var line = 0
    private var lineOffset = 0

    init(json: JSONLineValidator, start: TextPosition, nested: Bool) {
        self.json = json
        self.start = start
        self.nested = nested
        line = start.line
    }

    typealias Member = JSONLineValidator.Member

    /// Appends a `wordBookID` member after those in `text` (an object's opening brace and members).
    static func appendMember(wordBookID: String, to text: inout ByteBuffer) {
        if text.count > 1 { text.append(JSONSyntax.comma) }
        text.append("\"wordBookID\":")
        text.appendJSONString(wordBookID)
    }

    /// The offset past the well-formed value at `i` at nesting `level` (1: the record), or nil.
    func skip(_ i: Int, level: Int = 1) -> Int? { JSONLineCursor.skip(json, i, level: level) }

    /// The members of the object whose opening brace is at `open`, and the offset past its
    /// closing brace (`JSONLineValidator.members(ofObjectAt:)`); each value is a document or a
    /// member of one, checked where that is read (`document`), or by whoever passes over it.
    func members(at open: Int) -> (members: [Member], end: Int)? { json.members(ofObjectAt: open) }

    /// The text of a member's key.
    func keyText(_ member: Member) -> String {
        ValidatedJSONText(p: json.p, end: member.keyEnd - 1).text(from: member.key + 1, escaped: member.escaped)
    }

    /// True when the member's key is `name` (ASCII).
    func key(_ member: Member, is name: StaticString) -> Bool {
        member.escaped ? keyText(member) == name.description : json.key(member, is: name)
    }

    /// The text of the string at `i`, or nil when the value there is not a string.
    func string(at i: Int) -> String? {
        guard json.p[i] == JSONSyntax.quote, let (end, escaped) = json.string(i) else { return nil }
        return ValidatedJSONText(p: json.p, end: end - 1).text(from: i + 1, escaped: escaped)
    }

    /// The line of the byte at `offset`.
    mutating func line(at offset: Int) -> Int {
        if offset < lineOffset {
            line = start.line
            lineOffset = 0
        }
        var i = lineOffset
        while i < offset, let found = memchr(json.p + i, Int32(JSONSyntax.newline), offset - i) {
            line += 1
            i = UnsafeRawPointer(found) - UnsafeRawPointer(json.p) + 1
        }
        lineOffset = offset
        return line
    }

    /// Takes the document whose value starts at `open` (at `level`; `pointer`: its tokens from
    /// the input's root) and then the documents of its sub-collections, as
    /// `FirestoreLayout.document` makes them; false at the first one not taken.
    mutating func document(at open: Int, collection: String, documentID: String?, parent: String?, pointer: [String],
        level: Int, lane: TypedLane, state: UnsafeMutablePointer<LaneBatchState>) -> Bool
    {
        // A document that is not an object is a problem the layout reports.
        guard let (members, end) = members(at: open) else { return false }
        if level == 1 { self.end = end }
        var idIndex: Int?
        var bookIndex: Int?
        var subsIndex: Int?
        var pathsIndex: Int?
        for i in members.indices {
            let member = members[i]
            // The layout reads the first member of each name; a second is left to it.
            if key(member, is: "id") {
                guard idIndex == nil else { return false }
                idIndex = i
            } else if key(member, is: "wordBookID") {
                guard bookIndex == nil else { return false }
                bookIndex = i
            } else if nested, key(member, is: "__collections__") {
                guard subsIndex == nil else { return false }
                subsIndex = i
            } else if nested, key(member, is: "subCollection") {
                guard pathsIndex == nil else { return false }
                pathsIndex = i
            }
        }
        // An `id` that is not a non-empty string is replaced by the layout: left to it.
        var ownID: String?
        if let idIndex {
            guard let text = string(at: members[idIndex].value), !text.isEmpty else { return false }
            ownID = text
        }
        let fillsID = ownID == nil && documentID != nil
        var fillsBook = false
        if let parent, collection == "words" {
            if let bookIndex {
                // A `wordBookID` other than its book's is an error, one not a string is replaced.
                guard string(at: members[bookIndex].value) == parent else { return false }
            } else {
                fillsBook = true
            }
        }
        // The document as the layout makes it: the filled members, the others as they are but
        // the sub-collections; the filled `wordBookID` after a leading `id` (canonical order).
        // Made in the batch's buffer for it, which no read of the document writes.
        let taken = withUnsafeMutablePointer(to: &state.pointee.documentText) { text -> TypedPreparation? in
            text.pointee.removeAll()
            text.pointee.append(JSONSyntax.openBrace)
            if fillsID, let documentID {
                text.pointee.append("\"id\":")
                text.pointee.appendJSONString(documentID)
            }
            var bookPending = fillsBook
            for i in members.indices where i != subsIndex && i != pathsIndex {
                if bookPending, i != idIndex, let parent {
                    Self.appendMember(wordBookID: parent, to: &text.pointee)
                    bookPending = false
                }
                if text.pointee.count > 1 { text.pointee.append(JSONSyntax.comma) }
                text.pointee.append(json.p + members[i].key, count: members[i].valueEnd - members[i].key)
            }
            if bookPending, let parent { Self.appendMember(wordBookID: parent, to: &text.pointee) }
            text.pointee.append(JSONSyntax.closeBrace)
            // Taken as a document element is, at its depth in the record.
            let depth = json.maximumDepth - level + 1
            return text.pointee.withBytes { bytes -> TypedPreparation? in
                if !state.pointee.reorders, let (preparation, _) = lane.takeElement(bytes, collection: collection, maximumDepth: depth, state) {
                    return preparation
                }
                return lane.takeJSON(bytes, isLine: false, collection: collection, line: 0, maximumDepth: depth, state) {
                    lane.takeElement(bytes, collection: collection, maximumDepth: depth, state)
                }?.0
            }
        }
        guard var preparation = taken else { return false }
        if preparation.id != nil {
            // Where the id stands, as the commit of the layout's document finds it: its own `id`'s
            // value, else the document (whose key gave it); the pointer without a last `id`.
            let line = line(at: idIndex.map { members[$0].value } ?? open)
            var documentPointer = JSONPointer(tokens: pointer)
            if documentPointer.last == "id" { documentPointer.tokens.removeLast() }
            preparation = preparation.onLine(line)
            state.pointee.documentPointers[state.pointee.preparations.count] = documentPointer
        }
        state.pointee.preparations.append(preparation)
        let ownKey = ownID ?? documentID
        // Sub-collections that are not objects are left out of the document and not read: still
        // checked, as the parser checks every byte of the record.
        for index in [subsIndex, pathsIndex] {
            guard let index, json.p[members[index].value] != JSONSyntax.openBrace else { continue }
            guard skip(members[index].value, level: level + 1) == members[index].valueEnd else { return false }
        }
        if let subsIndex, json.p[members[subsIndex].value] == JSONSyntax.openBrace {
            guard json.allowsContainer(atLevel: level + 2), let named = self.members(at: members[subsIndex].value)?.members
            else { return false }
            for member in named {
                let name = keyText(member)
                guard container(at: member.value, collection: name, parent: ownKey,
                    pointer: pointer + ["__collections__", name], level: level + 2, lane: lane, state: state)
                else { return false }
            }
        }
        if let pathsIndex, json.p[members[pathsIndex].value] == JSONSyntax.openBrace {
            guard json.allowsContainer(atLevel: level + 2), let paths = self.members(at: members[pathsIndex].value)?.members
            else { return false }
            for member in paths {
                let path = keyText(member)
                let (pathParent, name) = FirestoreLayout.subCollectionParent(path) ?? (ownKey ?? "", path)
                guard container(at: member.value, collection: name, parent: pathParent,
                    pointer: pointer + ["subCollection", path], level: level + 2, lane: lane, state: state)
                else { return false }
            }
        }
        return true
    }

    /// Takes the documents of a collection value at `open` (at `level`): an object keyed by
    /// document id, or a list; false for anything else (the layout reports it) or at the first
    /// document not taken.
    mutating func container(at open: Int, collection: String, parent: String?, pointer: [String], level: Int,
        lane: TypedLane, state: UnsafeMutablePointer<LaneBatchState>) -> Bool
    {
        switch json.p[open] {
        case JSONSyntax.openBrace:
            guard json.allowsContainer(atLevel: level), let documents = members(at: open)?.members else { return false }
            for member in documents {
                let key = keyText(member)
                guard document(at: member.value, collection: collection, documentID: key, parent: parent,
                    pointer: pointer + [key], level: level + 1, lane: lane, state: state)
                else { return false }
            }
            return true
        case JSONSyntax.openBracket:
            guard json.allowsContainer(atLevel: level) else { return false }
            let bytes = UnsafeBufferPointer(start: json.p, count: json.end)
            var next = json.firstItem(afterOpen: open, close: JSONSyntax.closeBracket)
            var index = 0
            while case .item(let element)? = next {
                guard let end = JSONSyntax.endOfValue(in: bytes, from: element),
                      document(at: element, collection: collection, documentID: nil, parent: parent,
                          pointer: pointer + [String(index)], level: level + 1, lane: lane, state: state)
                else { return false }
                index += 1
                next = json.afterItem(end, close: JSONSyntax.closeBracket)
            }
            guard case .closed? = next else { return false }
            return true
        default:
            return false
        }
    }
}
