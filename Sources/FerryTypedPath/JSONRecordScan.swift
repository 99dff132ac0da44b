import FerryCore
import FerrySchemas
import FormatJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The top-level members of one JSON Lines line, scanned once (issue 7's typed path: a line's
/// bytes straight to its model, no `Value` in between).
///
/// The scan checks the whole line against the grammar `FormatJSON`'s `JSONParser` accepts
/// (`JSONLineValidator`), finds the `$collection` member, and leaves the model's fields to
/// `decode`, which reads them from the bytes with a `JSONFieldSource`.
///
/// Holds the line's bytes without copying them: use it only while they live (the
/// `RawRecordTaker.take(_:)` call the line is passed to).
public struct JSONRecordScan {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the object's opening brace.
    private let objectStart: Int
    /// The `$collection` member to step over when reading fields: from the offset of its key to
    /// the next member's key (or the closing brace); -1 when the line has none.
    private let collectionFrom: Int
    private let collectionTo: Int

    /// The `$collection` member's text; nil when the line has none.
    public let collection: String?

    /// The default nesting limit of `ReadOptions.maximumDepth` (Docs/json.md "Limits").
    public static let defaultMaximumDepth = 512

    /// Scans `bytes` (one line, no line break): nil unless it is exactly one JSON object (whitespace
    /// around allowed as RFC 8259 allows) that the general parser would accept, with a `$collection`
    /// member that, if present, is a plain string, at most once.
    ///
    /// Also nil (not handled: the line goes the general path) when a top-level key holds an escape
    /// (it might spell `$collection`). `maximumDepth` is the reader's nesting limit
    /// (`ReadOptions.maximumDepth`): deeper nesting is `too-deep` in the general path.
    public init?(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = JSONRecordScan.defaultMaximumDepth) {
        guard let base = bytes.baseAddress, maximumDepth >= 1 else { return nil }
        let validator = JSONLineValidator(p: base, end: bytes.count, maximumDepth: maximumDepth)
        let start = validator.skipWhitespace(0)
        guard start < bytes.count, base[start] == JSONSyntax.openBrace else { return nil }
        // One bit per open container (below the top-level object) for the validator.
        let members = withUnsafeTemporaryAllocation(of: UInt64.self, capacity: maximumDepth / 64 + 1) { stack in
            stack.baseAddress.flatMap { Self.scanMembers(validator, objectStart: start, stack: $0) }
        }
        guard let members else { return nil }
        self.bytes = bytes
        self.objectStart = start
        self.collection = members.collection
        self.collectionFrom = members.from
        self.collectionTo = members.to
    }

    /// Checks the top-level object at `objectStart` and what follows it; its `$collection` text
    /// and the member's extent (-1 when none), or nil when the line is not handled.
    private static func scanMembers(_ v: JSONLineValidator, objectStart: Int, stack: UnsafeMutablePointer<UInt64>)
        -> (collection: String?, from: Int, to: Int)?
    {
        var collection: String?
        var from = -1
        var to = -1
        var i = v.skipWhitespace(objectStart + 1)
        guard i < v.end else { return nil }
        if v.p[i] == JSONSyntax.closeBrace {
            i += 1
        } else {
            while true {
                guard i < v.end, v.p[i] == JSONSyntax.quote, let (keyEnd, escaped) = v.string(i), !escaped else { return nil }
                let keyStart = i
                let isCollection = isCollectionKey(v.p + keyStart + 1, count: keyEnd - keyStart - 2)
                i = v.skipWhitespace(keyEnd)
                guard i < v.end, v.p[i] == JSONSyntax.colon else { return nil }
                i = v.skipWhitespace(i + 1)
                let valueStart = i
                guard let valueEnd = v.value(from: i, depth: 1, stack: stack) else { return nil }
                if isCollection {
                    // A plain string, once: otherwise the general parser leaves it in the value.
                    guard from < 0, valueStart < v.end, v.p[valueStart] == JSONSyntax.quote else { return nil }
                    collection = ValidatedJSONText(p: v.p, end: v.end).string(valueStart).text
                    from = keyStart
                }
                i = v.skipWhitespace(valueEnd)
                guard i < v.end else { return nil }
                if v.p[i] == JSONSyntax.comma {
                    i = v.skipWhitespace(i + 1)
                    if isCollection { to = i }
                    continue
                }
                guard v.p[i] == JSONSyntax.closeBrace else { return nil }
                if isCollection { to = i }
                i += 1
                break
            }
        }
        // Nothing but whitespace may follow the object.
        guard v.skipWhitespace(i) == v.end else { return nil }
        return (collection, from, to)
    }

    /// True when the key bytes are `$collection`.
    @inline(__always)
    private static func isCollectionKey(_ key: UnsafePointer<UInt8>, count: Int) -> Bool {
        count == 11 && memcmp(key, "$collection", 11) == 0
    }

    /// The record read as `T` (the `$collection` member left out), or nil when anything is off:
    /// exactly when `T(value: <the general parser's Value of the line without $collection>, at:, diagnostics:)`
    /// would append ANY diagnostic, or when you do not handle something.
    ///
    /// Not handled: `options.scalarsAsText` (CSV's rules), numeric dates (they depend on
    /// `dateStrategy` and bring a note), instants finer than a millisecond (a warning), instants
    /// or days of V1 pet stories, Firestore Timestamps, members out of canonical order, and keys
    /// holding escapes.
    public func decode<T: FieldCodable>(_ type: T.Type, options: DecodingOptions) -> T? {
        guard !options.scalarsAsText, let base = bytes.baseAddress else { return nil }
        var source = JSONFieldSource(
            text: ValidatedJSONText(p: base, end: bytes.count), objectStart: objectStart, type: T.recordType,
            timeZone: options.timeZone, skipFrom: collectionFrom, skipTo: collectionTo)
        let model = T(from: &source)
        guard source.finish() else { return nil }
        return model
    }
}
