import Foundation

/// A calendar day `YYYY-MM-DD` in the proleptic Gregorian calendar (SCHEMAS.md "Calendar dates":
/// a pet's `birthDate`, `since`). Years 0001...9999.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Creates a day; nil when it does not exist (February 30) or the year is outside 1...9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= CalendarDay.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`; nil for any other text or a day that does not exist.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard bytes[i] >= 0x30, bytes[i] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[i] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day of `instant` on the wall calendar of `timeZone` (its offset at that instant, from
    /// Foundation's time-zone database; never the machine's `TZ`).
    public init(instant: Instant, in timeZone: TimeZone) {
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant.seconds)))
        let local = instant.seconds + Int64(offset)
        let (year, month, day) = CalendarDay.civil(fromDays: Instant.floorDivide(local, 86_400))
        // Instants are limited to the years 1...9999; an offset may step one day outside: clamp.
        self.year = min(max(year, 1), 9999)
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        var bytes: [UInt8] = []
        Instant.appendDigits(Int64(year), width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Instant.appendDigits(Int64(month), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Instant.appendDigits(Int64(day), width: 2, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// True for a leap year of the proleptic Gregorian calendar (RFC 3339 appendix C).
    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// The number of days of `month` (1...12) in `year` (RFC 3339 section 5.7's table).
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a civil date (H. Hinnant's `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date (year, month 1...12, day 1...31) of a day count since 1970-01-01 (H.
    /// Hinnant's `civil_from_days`); also used by the typed path's instant rendering.
    @inlinable
    public static func civil(fromDays z0: Int64) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }
}
