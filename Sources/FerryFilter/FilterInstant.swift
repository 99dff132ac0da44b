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
        guard b.count >= 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
            (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        if b.count == 10 {
            return midnight(days: days, timeZone: timeZone)
        }
        let t = b[10]
        guard b.count >= 20, t == UInt8(ascii: "T") || t == UInt8(ascii: "t") || t == UInt8(ascii: " "),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let hour = digits(b, 11, 2), let minute = digits(b, 14, 2), let second = digits(b, 17, 2),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var i = 19
        var nanos: Int64 = 0
        if b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            var scale: Int64 = 100_000_000
            while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
                nanos += Int64(b[i] - UInt8(ascii: "0")) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        guard i < b.count else { return nil }
        var offset: Int64 = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard i + 1 == b.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard i + 6 == b.count, b[i + 3] == UInt8(ascii: ":"),
                let oh = digits(b, i + 1, 2), let om = digits(b, i + 4, 2), oh <= 23, om <= 59
            else { return nil }
            offset = Int64(oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - offset
        return FilterInstant(seconds: seconds, nanoseconds: Int32(nanos))
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

    private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= b.count else { return nil }
        var value = 0
        for i in start..<(start + count) {
            let d = b[i] &- UInt8(ascii: "0")
            guard d <= 9 else { return nil }
            value = value * 10 + Int(d)
        }
        return value
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
