import FerryCore
import FerrySchemas
import FormatJSON

/// The V1 date fields of a JSON Lines line read from its bytes, as `FieldReader` reads them from
/// the parsed value when it reports nothing: a Firestore Timestamp (vocabulary V1) and an instant
/// or day (pet-story V1). What it does not handle, or what the general path would report, fails
/// the record, which then goes the general path.
extension JSONFieldSource {
    /// A Firestore Timestamp (`FieldReader.timestamp`): `{"_seconds": S, "_nanoseconds": N}` or
    /// `{"seconds": S, "nanoseconds": N}` (the nanoseconds member may come first or be absent; S
    /// and N integers of up to 18 digits, N in 0...999,999,999, the instant in the years
    /// 0001...9999), or an RFC 3339 string (any precision: the migration cuts it and warns).
    ///
    /// Fails at: `""` (missing), a number (read as Unix time with an `assumption` warning), the
    /// `__datatype__` shape, any other member or a member repeated, a key holding an escape, an
    /// integer written otherwise (`1.0`, `1e3`), and text that does not parse.
    mutating func timestamp(_ name: String) -> FirestoreTimestamp? {
        guard let (_, value) = locate(name) else { return nil }
        switch json.p[value] {
        case JSONSyntax.quote:
            guard let (end, escaped) = json.string(value), end - value > 2,
                  let instant = anyInstant(of: JSONStringSpan(start: value + 1, end: end - 1, escaped: escaped))
            else { break }
            advance(end)
            return FirestoreTimestamp(instant: instant)
        case JSONSyntax.openBrace:
            guard let (timestamp, end) = timestampObject(at: value) else { break }
            advance(end)
            return timestamp
        default:
            break
        }
        fail()
        return nil
    }

    /// The Timestamp object whose opening brace is at `start` and the offset past its closing
    /// brace; nil for any other shape (see `timestamp(_:)`).
    private mutating func timestampObject(at start: Int) -> (FirestoreTimestamp, end: Int)? {
        // Each member: which key (0: seconds, 1: nanoseconds) of which naming (0: `_seconds`, 1: `seconds`).
        var seconds: Int64? = nil
        var nanoseconds: Int64? = nil
        var naming: Int? = nil
        var next = json.firstItem(afterOpen: start, close: JSONSyntax.closeBrace)
        while case .item(let key)? = next {
            guard let (which, style, keyEnd) = timestampKey(at: key), naming == nil || naming == style,
                  (which == 0 ? seconds : nanoseconds) == nil, let valueStart = json.memberValue(afterKey: keyEnd),
                  let (text, end) = numberText(at: valueStart), let integer = Self.plainInteger(text)
            else { return nil }
            naming = style
            if which == 0 { seconds = integer } else { nanoseconds = integer }
            next = json.afterItem(end, close: JSONSyntax.closeBrace)
        }
        guard case .closed(let end)? = next, let seconds else { return nil }
        let nanos = nanoseconds ?? 0
        guard (0..<1_000_000_000).contains(nanos), let instant = Instant(seconds: seconds, nanoseconds: Int32(nanos))
        else { return nil }
        return (FirestoreTimestamp(instant: instant), end)
    }

    /// The keys of a Timestamp object, with their quotes, by (member, naming).
    private static let timestampKeys: [(key: StaticString, member: Int, naming: Int)] = [
        ("\"_seconds\"", 0, 0), ("\"_nanoseconds\"", 1, 0), ("\"seconds\"", 0, 1), ("\"nanoseconds\"", 1, 1),
    ]

    /// Which member and naming the key at `i` (its opening quote) is, and the offset past its
    /// closing quote; nil for any other key (or one holding an escape).
    private func timestampKey(at i: Int) -> (member: Int, naming: Int, end: Int)? {
        for (key, member, naming) in Self.timestampKeys {
            let count = key.utf8CodeUnitCount
            guard i + count <= json.end else { continue }
            var same = true
            for k in 0..<count where json.p[i + k] != key.utf8Start[k] {
                same = false
                break
            }
            if same { return (member, naming, i + count) }
        }
        return nil
    }

    /// An instant or a day (`FieldReader.instantOrDay`): a string that is a day `YYYY-MM-DD`, else
    /// an RFC 3339 instant to the millisecond. Fails at a non-string (a numeric date, noted by the
    /// general path), an instant finer than a millisecond (a `lossy-precision` warning) and text
    /// that is neither.
    mutating func instantOrDay(_ name: String) -> InstantOrDay {
        guard let (_, value) = locate(name) else { return .instant(Self.epoch) }
        guard json.p[value] == JSONSyntax.quote, let (text, end) = readString(value) else {
            fail()
            return .instant(Self.epoch)
        }
        advance(end)
        if let day = CalendarDay(text) { return .day(day) }
        guard case .success(let instant) = Instant.parse(text), instant.nanoseconds % 1_000_000 == 0 else {
            fail()
            return .instant(Self.epoch)
        }
        return .instant(instant)
    }

    /// The instant the checked string `span` holds, as `Instant.parse` reads it, whatever its
    /// precision; nil for text that is not an RFC 3339 instant.
    private func anyInstant(of span: JSONStringSpan) -> Instant? {
        let parsed: Result<Instant, Instant.ParseError>
        if span.escaped {
            parsed = Instant.parse(text(span))
        } else {
            parsed = Instant.parse(bytes: UnsafeRawBufferPointer(start: json.p + span.start, count: span.count))
        }
        guard case .success(let instant) = parsed else { return nil }
        return instant
    }
}
