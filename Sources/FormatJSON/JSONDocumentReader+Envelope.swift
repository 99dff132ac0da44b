import FerryCore

extension JSONDocumentReader {
    /// Completes `header` from envelope members that stand after the first collection, read from
    /// a second copy of the input (`ReadOptions.reopen`), before that collection's first record
    /// is handed on: the records' domain and version are told by the envelope wherever its
    /// members stand, as an object's member order carries no meaning (RFC 8259 section 4). `jq -S`
    /// and `JSONEncoder`'s `.sortedKeys` write `schemaVersion` last, after every collection.
    ///
    /// A value met first stays, as when the envelope comes first. Without `reopen` (a bundle
    /// member, whose manifest says the same), or when it throws (a pipe read past the bytes it
    /// keeps), the header stays as it stands. Nor
    /// is it looked for when the first collection is a Firestore export's map of collections
    /// (`__collections__`, `ReadOptions.nestedCollections`) and no domain was named: an export
    /// carries no envelope, its layout says what it is, and the scan would only cost a second
    /// reading of it.
    func lookAheadForEnvelope(before key: String) {
        lookedAhead = true
        if header.domain == nil, options.nestedCollections?.mapMembers.contains(key) == true { return }
        guard let reopen = options.reopen, let copy = try? reopen() else { return }
        let ahead = JSONDocumentReader(lookingAheadIn: copy, options: options).envelopeAhead()
        if header.domain == nil { header.domain = ahead.domain }
        if header.schemaVersion == nil { header.schemaVersion = ahead.schemaVersion }
    }

    /// The envelope of the document this reader reads from its start, as `next()` fills `header`
    /// (a string `domain`, an integer `schemaVersion`; the last of a name given twice), with every
    /// collection skipped by a bracket scan instead of read. Whatever is wrong in the document
    /// ends the scan with what was found: the reading proper reports it where it stands.
    func envelopeAhead() -> DatasetHeader {
        var found = DatasetHeader()
        do {
            try input.skipByteOrderMark(at: options.inputLocation)
            try input.skipWhitespace()
            guard try input.peek() == JSONSyntax.openBrace else { return found }
            input.pos += 1
            var first = true
            while try memberFollows(first: first) {
                first = false
                let key = try readKey(depth: 1)
                guard let byte = try input.peek() else { break }
                if byte == JSONSyntax.openBrace || byte == JSONSyntax.openBracket {
                    guard try input.skipContainer() else { break }
                } else {
                    let value = try readRecord(collection: key, documentID: nil, index: 0, depth: 1).value
                    if key == "domain", let domain = value.stringValue {
                        found.domain = domain
                    } else if key == "schemaVersion", let version = value.int64Value, let exact = Int(exactly: version) {
                        found.schemaVersion = exact
                    }
                }
                guard try itemFollows(objectMember: true) else { break }
            }
        } catch {}
        return found
    }
}
