import FerryCore
import FerrySchemas
import FormatJSON

/// The `notes` V1 -> V2 stage (SCHEMAS.md "V1 -> V2 migration") as a JSON Lines transcoder, for
/// routes that write JSON Lines (issue 7: the typed path's fastest form of a migration). A V1
/// note's line becomes its V2 note's line member by member: text the V2 note holds unchanged
/// (title, category, think, smells, labels, grape, ...) is copied as it stands in the line, so a
/// note costs no model, no array and no `String` but its id.
///
/// Exact for the lines it takes: the line is the one `TypedPairCodec` gives for the note's pair,
/// byte for byte. The V1 members are found and checked by `JSONFieldSource`'s own reads (order,
/// required and null rules, grammar, nesting); the stage's rules are `NotesMigrationPlan`'s
/// (`lookPartsASCII` / `splitLook`, `finishLength`, `dropIsLossy`); the V2 rules are the range and
/// step of the V2 descriptor's number fields (`FieldSchema.isInRange`, `isOnStep`), the only V2
/// rules a V1 note that reads plainly can break besides an empty title; the line is written with
/// `JSONLinesFieldSink`'s pieces (`appendJSONNumber`, which copies a number already in its written
/// form; `RFC3339Text.appendQuoted`, or the instant's text when it is that already:
/// `RFC3339Text.isDescription`).
///
/// It gives up (nil, nothing appended) wherever that codec gives up, and on more: a note with
/// `imageData` (its base64 is left to the model path). The note then takes the codec, which
/// falls back to the general stage in turn. Text is copied only when the writer would write the
/// same bytes: no escape, or only the escapes it writes itself (`\"`, `\\`, `\b`, `\f`, `\n`,
/// `\r`, `\t`); other text is unescaped and written again.
final class NotesLineMigration: @unchecked Sendable {
    // @unchecked: the buffers are written once, in `init`, and only read after.

    /// The four V1 -> V2 pairs.
    enum Kind {
        case wine, coffee, whiskey, cocktail
    }

    private let kind: Kind
    /// The fields of the V1 note, `Taste`, `Finish` and `Ingredient`, as `JSONFieldSource` reads them.
    private let noteFields: UnsafeBufferPointer<FieldSchema>
    private let tasteFields: UnsafeBufferPointer<FieldSchema>
    private let finishFields: UnsafeBufferPointer<FieldSchema>
    private let ingredientFields: UnsafeBufferPointer<FieldSchema>
    /// The V2 rules of `alcoholByVolume`, `rating` and a taste's `value`.
    private let alcoholRule: NumberRule
    private let ratingRule: NumberRule
    private let tasteValueRule: NumberRule

    /// The transcoder of `route`; nil unless it runs exactly the `notes` stage to version 2 for one
    /// of the four pairs into the pair's V2 collection.
    init?(_ route: TypedRoute) {
        guard route.domain == .notes, let (_, environment, _) = route.singleStage,
            let (kind, source, target) = Self.pair(route.sourceModel, route.targetModel),
            environment.targetCollection == target.collection
        else { return nil }
        self.kind = kind
        noteFields = .copying(source.recordType.fields)
        tasteFields = .copying(NotesV1.Taste.recordType.fields)
        finishFields = .copying(NotesV1.Finish.recordType.fields)
        ingredientFields = .copying(NotesV1.Ingredient.recordType.fields)
        func rule(_ type: RecordType, _ name: String) -> NumberRule { NumberRule(type.fields.first { $0.name == name }) }
        alcoholRule = rule(target.recordType, "alcoholByVolume")
        ratingRule = rule(target.recordType, "rating")
        tasteValueRule = rule(NotesV2.Taste.recordType, "value")
    }

    deinit {
        for fields in [noteFields, tasteFields, finishFields, ingredientFields] { fields.freeCopy() }
    }

    /// The pair `source` -> `target` is, when it is one of the stage's four.
    private static func pair(_ source: any FieldCodableCollection.Type, _ target: any FieldCodableCollection.Type)
        -> (Kind, source: any FieldCodableCollection.Type, target: any FieldCodableCollection.Type)?
    {
        let pairs: [(Kind, any FieldCodableCollection.Type, any FieldCodableCollection.Type)] = [
            (.wine, NotesV1.WineNote.self, NotesV2.WineTastingNote.self),
            (.coffee, NotesV1.CoffeeNote.self, NotesV2.CoffeeTastingNote.self),
            (.whiskey, NotesV1.WhiskeyNote.self, NotesV2.WhiskeyTastingNote.self),
            (.cocktail, NotesV1.CocktailNote.self, NotesV2.CocktailTastingNote.self),
        ]
        return pairs.first { ObjectIdentifier($0.1) == ObjectIdentifier(source) && ObjectIdentifier($0.2) == ObjectIdentifier(target) }
    }

    /// Appends the V2 line (`{"$collection":"<collection>", ...}` and LF) of the V1 note `scan`
    /// holds, read with `options`: the note's id and the line's range in `buffer`. Nil, with
    /// `buffer` as it was, for a note this transcoder does not take (see the type's doc).
    func migrate(_ scan: JSONRecordScan, _ options: DecodingOptions, collection: String, into buffer: inout ByteBuffer)
        -> PassedRecord?
    {
        let mark = buffer.count
        buffer.append("{\"$collection\":" as StaticString)
        buffer.appendJSONString(collection)
        var id: String? = nil
        let taken = scan.read(fields: noteFields, options: options) { note in
            guard let span = note.stringSpan("id"), span.count > 0 else { return false }
            id = note.text(span)
            buffer.append(",\"id\":" as StaticString)
            Self.appendString(span, note, to: &buffer)
            return appendMembers(&note, into: &buffer)
        }
        guard taken, let id else {
            buffer.truncate(to: mark)
            return nil
        }
        buffer.append("}\n" as StaticString)
        return PassedRecord(id: id, rendered: mark..<buffer.count)
    }

    /// The members after the id, in V2 canonical order (which keeps the V1 order); false to give up.
    private func appendMembers(_ note: inout JSONFieldSource, into buffer: inout ByteBuffer) -> Bool {
        // V2 `title` is non-empty (an escaped string never is).
        guard let title = note.stringSpan("title"), title.count > 0 else { return false }
        buffer.append(",\"title\":" as StaticString)
        Self.appendString(title, note, to: &buffer)
        guard appendString("category", &note, &buffer) else { return false }
        guard let createdAt = note.stringSpan("createdAt") else { return false }
        buffer.append(",\"createdAt\":" as StaticString)
        let written = UnsafeBufferPointer(start: note.json.p + createdAt.start, count: createdAt.count)
        if !createdAt.escaped, RFC3339Text.isDescription(written) {
            // Already the instant's `description`: copied.
            Self.appendQuoted(written, to: &buffer)
        } else {
            guard let instant = note.instant(of: createdAt) else { return false }
            RFC3339Text.appendQuoted(instant, to: &buffer)
        }
        // `imageData` is left to the model path; null is absent there too.
        guard note.stringSpan("imageData") == nil, note.isValid else { return false }
        guard appendAlcohol(&note, &buffer), appendLook(&note, &buffer), appendSmells(&note, &buffer),
            appendTastes(&note, &buffer)
        else { return false }
        switch kind {
        case .wine:
            guard let grape = note.stringSpan("grape") else { return false }
            buffer.append(",\"grape\":{\"variety\":" as StaticString)
            Self.appendString(grape, note, to: &buffer)
            buffer.append(UInt8(ascii: "}"))
        case .whiskey:
            guard appendFinish(&note, &buffer) else { return false }
        case .cocktail:
            guard appendIngredients(&note, &buffer) else { return false }
            let ice = note.bool("isContainsIce")
            buffer.append(ice ? ",\"isContainsIce\":true" as StaticString : ",\"isContainsIce\":false")
        case .coffee:
            break
        }
        guard appendString("think", &note, &buffer) else { return false }
        guard let (rating, text) = note.optionalNumber("rating"), ratingRule.keeps(rating) else { return false }
        buffer.append(",\"rating\":" as StaticString)
        _ = buffer.appendJSONNumber(rating, readFrom: text)  // finite: read as such
        let favorite = note.bool("isFavorite")
        buffer.append(favorite ? ",\"isFavorite\":true" as StaticString : ",\"isFavorite\":false")
        return note.isValid
    }

    /// `alcohol` as `alcoholByVolume` (in its V2 range); coffee drops it, only when it is 0.
    private func appendAlcohol(_ note: inout JSONFieldSource, _ buffer: inout ByteBuffer) -> Bool {
        guard let (alcohol, text) = note.optionalNumber("alcohol") else { return false }
        if kind == .coffee { return !NotesMigrationPlan.dropIsLossy(alcohol: alcohol) }
        guard alcoholRule.keeps(alcohol) else { return false }
        buffer.append(",\"alcoholByVolume\":" as StaticString)
        _ = buffer.appendJSONNumber(alcohol, readFrom: text)  // finite: read as such
        return true
    }

    /// `look` split into `Look {tint, note}` (wine, whiskey); coffee and cocktail drop it, only
    /// when it is blank.
    private func appendLook(_ note: inout JSONFieldSource, _ buffer: inout ByteBuffer) -> Bool {
        guard let look = note.stringSpan("look") else { return false }
        if kind == .coffee || kind == .cocktail { return !NotesMigrationPlan.dropIsLossy(look: note.text(look)) }
        buffer.append(",\"look\":{\"tint\":" as StaticString)
        let bytes = UnsafeBufferPointer(start: note.json.p + look.start, count: look.count)
        if !look.escaped, let (tint, rest) = NotesMigrationPlan.lookPartsASCII(bytes) {
            // Parts of text with nothing to escape, cut at ASCII bytes: copied in quotes.
            Self.appendQuoted(UnsafeBufferPointer(rebasing: bytes[tint]), to: &buffer)
            buffer.append(",\"note\":" as StaticString)
            Self.appendQuoted(UnsafeBufferPointer(rebasing: bytes[rest]), to: &buffer)
        } else {
            let (tint, rest) = NotesMigrationPlan.splitLook(note.text(look))
            buffer.appendJSONString(tint)
            buffer.append(",\"note\":" as StaticString)
            buffer.appendJSONString(rest)
        }
        buffer.append(UInt8(ascii: "}"))
        return true
    }

    /// Each smell as `Smell {label}`; cocktail drops them, only when there are none.
    private func appendSmells(_ note: inout JSONFieldSource, _ buffer: inout ByteBuffer) -> Bool {
        if kind == .cocktail { return note.forEachElement("smells") { _, _ in nil } }
        buffer.append(",\"smells\":[" as StaticString)
        var first = true
        guard note.forEachElement("smells", { source, i in
            guard let smell = source.stringElement(at: i) else { return nil }
            buffer.append(first ? "{\"label\":" as StaticString : ",{\"label\":")
            first = false
            Self.appendString(smell, source, to: &buffer)
            buffer.append(UInt8(ascii: "}"))
            return smell.end + 1
        }) else { return false }
        buffer.append(UInt8(ascii: "]"))
        return true
    }

    /// Each taste as V2 `Taste {label, value}`, its value in the V2 range.
    private func appendTastes(_ note: inout JSONFieldSource, _ buffer: inout ByteBuffer) -> Bool {
        appendObjects("tastes", ",\"tastes\":[", of: tasteFields, &note, &buffer) { taste, buffer in
            guard let label = taste.stringSpan("label"), let (value, text) = taste.optionalNumber("value"),
                tasteValueRule.keeps(value)
            else { return false }
            buffer.append("{\"label\":" as StaticString)
            Self.appendString(label, taste, to: &buffer)
            buffer.append(",\"value\":" as StaticString)
            _ = buffer.appendJSONNumber(value, readFrom: text)  // finite: read as such
            buffer.append(UInt8(ascii: "}"))
            return true
        }
    }

    /// `finish` with its length trimmed and lower-cased (`finishLength`); nil for any other length.
    private func appendFinish(_ note: inout JSONFieldSource, _ buffer: inout ByteBuffer) -> Bool {
        note.objectMember("finish", fields: finishFields) { finish in
            guard let length = finish.stringSpan("length"),
                let finishLength = NotesMigrationPlan.finishLength(finish.text(length)),
                let text = finish.stringSpan("note")
            else { return false }
            buffer.append(",\"finish\":{\"length\":" as StaticString)
            buffer.appendJSONString(finishLength.rawValue)
            buffer.append(",\"note\":" as StaticString)
            Self.appendString(text, finish, to: &buffer)
            buffer.append(UInt8(ascii: "}"))
            return true
        }
    }

    /// Each ingredient as V2 `Ingredient {name, amount}`.
    private func appendIngredients(_ note: inout JSONFieldSource, _ buffer: inout ByteBuffer) -> Bool {
        appendObjects("ingredients", ",\"ingredients\":[", of: ingredientFields, &note, &buffer) { ingredient, buffer in
            guard let name = ingredient.stringSpan("name"), let amount = ingredient.stringSpan("amount") else {
                return false
            }
            buffer.append("{\"name\":" as StaticString)
            Self.appendString(name, ingredient, to: &buffer)
            buffer.append(",\"amount\":" as StaticString)
            Self.appendString(amount, ingredient, to: &buffer)
            buffer.append(UInt8(ascii: "}"))
            return true
        }
    }

    /// The list member `name`, each element an object of `fields` written by `element`, as
    /// `opening` (`,"name":[`), the elements' objects with commas between them, and `]`.
    private func appendObjects(_ name: String, _ opening: StaticString, of fields: UnsafeBufferPointer<FieldSchema>,
        _ note: inout JSONFieldSource, _ buffer: inout ByteBuffer,
        _ element: (inout JSONFieldSource, inout ByteBuffer) -> Bool
    ) -> Bool {
        buffer.append(opening)
        var first = true
        guard note.forEachElement(name, { source, i in
            if !first { buffer.append(UInt8(ascii: ",")) }
            first = false
            return source.object(at: i, fields: fields, level: source.level + 2) { element(&$0, &buffer) }
        }) else { return false }
        buffer.append(UInt8(ascii: "]"))
        return true
    }

    /// The string member `name` as `,"name":<text>`; false when it is absent or not a string.
    private func appendString(_ name: String, _ note: inout JSONFieldSource, _ buffer: inout ByteBuffer) -> Bool {
        guard let span = note.stringSpan(name) else { return false }
        buffer.append(UInt8(ascii: ","))
        buffer.appendJSONMemberKey(name)
        Self.appendString(span, note, to: &buffer)
        return true
    }

    // MARK: Text

    /// Appends the string `span` as `appendJSONString` writes its text: its own bytes in quotes
    /// when they are that already (`isWrittenForm`), else the text unescaped and escaped again.
    @inline(__always)
    static func appendString(_ span: JSONStringSpan, _ source: JSONFieldSource, to buffer: inout ByteBuffer) {
        let p = source.json.p
        if !span.escaped || isWrittenForm(p, span) {
            buffer.append(p + span.start - 1, count: span.count + 2)
        } else {
            buffer.appendJSONString(source.text(span))
        }
    }

    /// Appends bytes holding nothing to escape in quotes.
    @inline(__always)
    private static func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer) {
        buffer.append(JSONSyntax.quote)
        buffer.append(bytes)
        buffer.append(JSONSyntax.quote)
    }

    /// True when every escape of the checked string `span` is one `appendJSONString` writes for the
    /// character it stands for (`\"`, `\\` and the five short control escapes): the bytes between the
    /// quotes are then exactly what it writes. `\/` and every `\u` escape are not (it writes `/`,
    /// the character itself, or `\u00XX` for a control character without a short escape).
    static func isWrittenForm(_ p: UnsafePointer<UInt8>, _ span: JSONStringSpan) -> Bool {
        var i = span.start
        while i < span.end {
            guard p[i] == JSONSyntax.backslash else {
                i += 1
                continue
            }
            switch p[i + 1] {
            case JSONSyntax.quote, JSONSyntax.backslash, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                UInt8(ascii: "r"), UInt8(ascii: "t"):
                i += 2
            default:
                return false
            }
        }
        return true
    }
}
