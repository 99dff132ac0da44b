import Foundation

/// The `notes` migration V1 -> V2 (SCHEMAS.md "Domain notes: V1 -> V2"), as a SwiftData-style plan.
///
/// - `alcohol` -> `alcoholByVolume`; `grape` -> `Grape(variety:)`; each smell -> `Smell(label:)`.
/// - `look` -> `Look`: text before the first comma is `tint`, the rest `note`, both trimmed.
/// - `finish.length` lower-cased (and trimmed); another value is an `invalid-value` error naming the
///   record and field, or under `--lenient` `medium` with the original text put in front of `note`
///   (`"Lingering. Smoky"`) and a `lossy-change` warning.
/// - Coffee drops `alcohol` and `look`, cocktail drops `look` and `smells`: a `lossy-drop` warning
///   when the dropped value is not the default (0, a blank string, an empty list).
/// - Notes without an id get a derived id (`DerivedID.forNote`).
/// - Out-of-range `rating` or taste `value` are V2 validation errors (never clamped).
public enum NotesMigrationPlan: SchemaMigrationPlan {
    public static var schemas: [any VersionedSchema.Type] { [NotesSchemaV1.self, NotesSchemaV2.self] }

    public static let stages: [MigrationStage] = [
        .custom(fromVersion: NotesSchemaV1.self, toVersion: NotesSchemaV2.self,
                steps: [wineV1toV2, coffeeV1toV2, whiskeyV1toV2, cocktailV1toV2])
    ]

    /// Fields of a V2 note -> fields of the V1 note they came from (all four kinds).
    static let renames: [PointerRename] = [
        PointerRename("/alcoholByVolume", "/alcohol"), PointerRename("/look", "/look"), PointerRename("/grape", "/grape"),
        PointerRename("/smells/*/label", "/smells/*"),
    ]

    /// The V2 finish length of a V1 `finish.length`: the text trimmed (whitespace and newlines) and
    /// lower-cased; nil when that is not `short`, `medium` or `long` (an `invalid-value` error, or
    /// under `--lenient` `medium` with a `lossy-change` warning).
    public static func finishLength(_ text: String) -> NotesV2.FinishLength? {
        NotesV2.FinishLength(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
    }

    /// True when dropping a V1 `alcohol` (coffee) loses something: it is not 0 (a `lossy-drop` warning).
    @inline(__always)
    public static func dropIsLossy(alcohol: Double) -> Bool { alcohol != 0 }

    /// True when dropping a V1 `look` (coffee, cocktail) loses something: it is not blank (a
    /// `lossy-drop` warning).
    public static func dropIsLossy(look: String) -> Bool { !isBlank(look) }

    /// True when dropping V1 `smells` (cocktail) loses something: there are any (a `lossy-drop` warning).
    @inline(__always)
    public static func dropIsLossy(smellCount: Int) -> Bool { smellCount != 0 }

    /// Splits a V1 `look` at its first comma into `tint` and `note`, both trimmed (whitespace and newlines).
    public static func splitLook(_ look: String) -> (tint: String, note: String) {
        var look = look
        // Usually ASCII at both ends of both parts: cut on the UTF-8 bytes (a comma byte is never
        // part of a longer sequence); else trim by scalars.
        if let parts = look.withUTF8({ splitLookASCII($0) }) { return parts }
        return splitLookByScalars(look)
    }

    /// `splitLook` on the bytes, or nil when a part would begin or end in a non-ASCII scalar after its
    /// ASCII whitespace is trimmed (Unicode whitespace such as U+00A0 must be trimmed too).
    private static func splitLookASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> (tint: String, note: String)? {
        guard let (tint, note) = lookPartsASCII(utf8) else { return nil }
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: utf8[range]), as: UTF8.self)
        }
        return (text(tint), text(note))
    }

    /// Where `splitLook`'s `tint` and `note` stand in the UTF-8 bytes of a `look` (`note` is empty
    /// when there is no comma); nil when a part would begin or end in a non-ASCII scalar after its
    /// ASCII whitespace is trimmed (then only `splitLook` on the text gives the parts). A part is
    /// well-formed UTF-8 when the bytes are: it is cut at ASCII bytes only.
    public static func lookPartsASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> (tint: Range<Int>, note: Range<Int>)? {
        guard let comma = utf8.firstIndex(of: UInt8(ascii: ",")) else {
            guard let tint = trimmedASCII(utf8, 0, utf8.count) else { return nil }
            return (tint, utf8.count..<utf8.count)
        }
        guard let tint = trimmedASCII(utf8, 0, comma), let note = trimmedASCII(utf8, comma + 1, utf8.count) else { return nil }
        return (tint, note)
    }

    /// `utf8[start..<end]` without ASCII whitespace at its ends; nil when an end that is left is
    /// not ASCII.
    private static func trimmedASCII(_ utf8: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Range<Int>? {
        var start = start, end = end
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        while start < end, isSpace(utf8[start]) { start += 1 }
        while start < end, isSpace(utf8[end - 1]) { end -= 1 }
        if start < end, utf8[start] >= 0x80 || utf8[end - 1] >= 0x80 { return nil }
        return start..<end
    }

    /// `splitLook` by Unicode scalars (the rule itself).
    static func splitLookByScalars(_ look: String) -> (tint: String, note: String) {
        let scalars = look.unicodeScalars
        guard let comma = scalars.firstIndex(of: ",") else {
            return (trimmed(scalars[...]), "")
        }
        return (trimmed(scalars[..<comma]), trimmed(scalars[scalars.index(after: comma)...]))
    }

    /// The text without leading and trailing whitespace and newlines (what Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` removes), without a Foundation round trip
    /// for ASCII.
    static func trimmed(_ scalars: Substring.UnicodeScalarView) -> String {
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isWhitespaceOrNewline(scalars[start]) { start = scalars.index(after: start) }
        while start < end, isWhitespaceOrNewline(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(scalars[start..<end])
    }

    @inline(__always)
    static func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value == 0x20 || (scalar.value >= 0x09 && scalar.value <= 0x0D) }
        return CharacterSet.whitespacesAndNewlines.contains(scalar)
    }

    /// The lenient `finish.note`: the original length text (trimmed) in front of the note, joined
    /// by ". " unless the text already ends in `.`, `!`, `?` or `。` (then by a space); the text
    /// alone when the note is empty, the note alone when the text is blank.
    public static func joinFinishNote(original: String, note: String) -> String {
        let text = original.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return note }
        if note.isEmpty { return text }
        let separator = [".", "!", "?", "。"].contains(where: text.hasSuffix) ? " " : ". "
        return text + separator + note
    }

    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isWhitespaceOrNewline)
    }
}
