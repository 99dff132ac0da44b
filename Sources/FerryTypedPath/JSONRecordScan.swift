import FerryCore
import FerrySchemas
import FormatJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One JSON Lines line on its way to a model (issue 7's typed path: a line's bytes straight to its
/// model, no `Value` in between), read once.
///
/// The scan reads the opening brace and a leading `$collection` member (how the JSON Lines writer
/// starts a line); `decode` reads the model with the one model reader over a `JSONLineCursor`,
/// which checks every byte against the grammar `FormatJSON`'s `JSONParser` accepts
/// (`JSONLineValidator`) as it passes it, and then the end of the line. An accepted line has had
/// every byte checked: the cursor gives up on any member it does not read in order (unknown,
/// repeated, out of order, a `$collection` elsewhere).
///
/// Holds the line's bytes without copying them: use it only while they live (the
/// `RawRecordTaker.take(_:)` call the line is passed to).
public struct JSONRecordScan {
    private let validator: JSONLineValidator
    /// The opening brace of the line's object.
    private let origin: Int
    /// What follows the opening brace, or the leading `$collection` member when there is one.
    private let members: JSONLineValidator.Next

    /// Where the leading `$collection` member's string value stands (its opening quote, and the
    /// offset past its closing quote) and whether it holds escapes; nil when the line has none.
    private let collectionValue: (start: Int, end: Int, escaped: Bool)?

    /// The leading `$collection` member's text; nil when the line has none. Made on each call
    /// (`collectionIs(_:)` compares it without making it).
    public var collection: String? {
        guard let value = collectionValue else { return nil }
        return ValidatedJSONText(p: validator.p, end: value.end - 1).text(from: value.start + 1, escaped: value.escaped)
    }

    /// True when the line has a leading `$collection` member (`collection` is then not nil).
    public var namesCollection: Bool { collectionValue != nil }

    /// True when the line has a leading `$collection` member whose text is `name`, compared on
    /// the bytes (a text holding escapes is made first).
    public func collectionIs(_ name: String) -> Bool {
        guard let value = collectionValue else { return false }
        if value.escaped { return collection == name }
        let length = value.end - value.start - 2
        guard name.utf8.count == length else { return false }
        var name = name
        return name.withUTF8 { utf8 in
            guard let bytes = utf8.baseAddress else { return length == 0 }
            return memcmp(bytes, validator.p + value.start + 1, length) == 0
        }
    }

    /// `collectionIs(_:)` for a name given as its UTF-8 bytes: compared with the member's bytes
    /// (length first), no string made unless the member holds escapes.
    @inline(__always)
    func collectionIs(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let value = collectionValue else { return false }
        if value.escaped { return collection == String(decoding: name, as: UTF8.self) }
        let length = value.end - value.start - 2
        guard name.count == length else { return false }
        guard let bytes = name.baseAddress else { return true }
        return memcmp(bytes, validator.p + value.start + 1, length) == 0
    }

    /// The default nesting limit of `ReadOptions.maximumDepth` (Docs/json.md "Limits").
    public static let defaultMaximumDepth = 512

    /// Scans the start of `bytes` (one line, no line break): nil unless it starts (after
    /// whitespace) with an object's opening brace and, when its first member is `$collection`,
    /// that member is well-formed with a plain string value.
    ///
    /// A `$collection` member anywhere but first is left to the general path (`decode` gives up on
    /// it, as on any member it does not read). `maximumDepth` is the reader's nesting limit
    /// (`ReadOptions.maximumDepth`): deeper nesting is `too-deep` in the general path.
    public init?(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = JSONRecordScan.defaultMaximumDepth) {
        guard let base = bytes.baseAddress, maximumDepth >= 1 else { return nil }
        let validator = JSONLineValidator(p: base, end: bytes.count, maximumDepth: maximumDepth)
        let start = validator.skipWhitespace(0)
        guard start < bytes.count, base[start] == JSONSyntax.openBrace,
              let first = validator.firstItem(afterOpen: start, close: JSONSyntax.closeBrace)
        else { return nil }
        self.validator = validator
        origin = start
        guard case .item(let key) = first, Self.isCollectionKey(validator, at: key) else {
            members = first
            collectionValue = nil
            return
        }
        // `"$collection": "text"`, then what follows it.
        guard let value = validator.memberValue(afterKey: key + Self.collectionKey.utf8CodeUnitCount),
              base[value] == JSONSyntax.quote, let (end, escaped) = validator.string(value),
              let next = validator.afterItem(end, close: JSONSyntax.closeBrace)
        else { return nil }
        members = next
        collectionValue = (value, end, escaped)
    }

    /// `"$collection"` with its quotes.
    private static let collectionKey: StaticString = "\"$collection\""

    /// True when the key at `i` (its opening quote) is `"$collection"`, unescaped.
    @inline(__always)
    private static func isCollectionKey(_ v: JSONLineValidator, at i: Int) -> Bool {
        let count = collectionKey.utf8CodeUnitCount
        return i + count <= v.end && memcmp(v.p + i, collectionKey.utf8Start, count) == 0
    }

    /// The record read as `T` (the leading `$collection` member left out) by `reading`'s model
    /// reader over the line's `JSONLineCursor`, or nil when the reader reports anything (error,
    /// warning or note), the cursor gives up (see `JSONLineProgress.gaveUp`), or anything but
    /// whitespace follows the object: the general path then parses the line and reports it.
    /// Nil at once for `scalarsAsText` (CSV's rules).
    public func decode<T: FieldCodable>(_ type: T.Type, reading: JSONLineReading) -> T? {
        guard !reading.context.scalarsAsText else { return nil }
        var progress = JSONLineProgress()
        return withUnsafeMutablePointer(to: &progress) { progress -> T? in
            let cursor = JSONLineCursor(line: validator, at: origin, members: members, progress: progress)
            // Every member read, nothing given up, and only whitespace after the closing brace.
            guard let model = reading.read(T.self, cursor), !progress.pointee.gaveUp, progress.pointee.start == origin,
                  validator.skipWhitespace(progress.pointee.end) == validator.end
            else { return nil }
            // Returned by its last use (moved), not copied by a conditional expression.
            return model
        }
    }
}
