import FerryCore
import Foundation

/// A point in time as whole seconds since 1970-01-01T00:00:00Z plus nanoseconds, for comparing
/// instants exactly (SCHEMAS.md "Instants": Foundation's `Date` is a Double and turns `.250` into
/// `.2499…`). A private minimal copy: FerrySchemas' `Instant` is not a dependency of this target.
struct FilterInstant: Sendable, Hashable, Comparable {
    var seconds: Int64
    /// 0 ..< 1_000_000_000.
    var nanoseconds: Int32

    static func < (lhs: FilterInstant, rhs: FilterInstant) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// Parses an RFC 3339 date-time (`2024-01-01T09:30:00.25+09:00`, `Z`, `t`/`z`/space allowed,
    /// any number of fraction digits, cut to nanoseconds) or a full-date (`2024-01-01`, midnight
    /// in `timeZone`). Nil for anything else, including a date-time with no offset (never a guess).
    static func parse(_ text: String, timeZone: TimeZone) -> FilterInstant? {
        var text = text
        return text.withUTF8 { parse(utf8: $0, timeZone: timeZone) }
    }

    /// `parse(_:timeZone:)` over UTF-8 bytes.
    static func parse(utf8 b: UnsafeBufferPointer<UInt8>, timeZone: TimeZone) -> FilterInstant? {
        let bytes = UnsafeRawBufferPointer(b)
        if let (year, month, day) = RFC3339Fields.parseFullDate(bytes) {
            guard CivilDate.exists(year: year, month: month, day: day) else { return nil }
            return midnight(days: CivilDate.days(year: year, month: month, day: day), timeZone: timeZone)
        }
        // A leap second (`:60`) is read as the next minute's 00: comparing it is no guess.
        guard case .success(let fields) = RFC3339Fields.parse(bytes, spaceSeparator: true),
            fields.hasValidDateAndTime(allowingLeapSecond: true)
        else { return nil }
        return FilterInstant(seconds: fields.epochSeconds, nanoseconds: fields.nanoseconds)
    }

    /// Midnight starting the civil day `days` (since 1970-01-01) in `timeZone`.
    private static func midnight(days: Int64, timeZone: TimeZone) -> FilterInstant {
        let local = days * 86_400
        if timeZone.identifier == "UTC" || timeZone.identifier == "GMT" {
            return FilterInstant(seconds: local, nanoseconds: 0)
        }
        // The offset at the instant itself: guess with the offset at local-as-UTC, then refine once.
        var offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local))))
        offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local - offset))))
        return FilterInstant(seconds: local - offset, nanoseconds: 0)
    }
}
