import FerryCore
import Foundation

/// A calendar day `YYYY-MM-DD` in the proleptic Gregorian calendar (SCHEMAS.md "Calendar dates":
/// a pet's `birthDate`, `since`). Years 0001...9999.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Creates a day; nil when it does not exist (February 30) or the year is outside 1...9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), CivilDate.exists(year: year, month: month, day: day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`; nil for any other text or a day that does not exist.
    public init?(_ text: String) {
        var text = text
        guard let (year, month, day) = text.withUTF8({ RFC3339Fields.parseFullDate(UnsafeRawBufferPointer($0)) })
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day of `instant` on the wall calendar of `timeZone` (its offset at that instant, from
    /// Foundation's time-zone database; never the machine's `TZ`).
    public init(instant: Instant, in timeZone: TimeZone) {
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant.seconds)))
        let local = instant.seconds + Int64(offset)
        let (year, month, day) = CivilDate.civil(fromDays: CivilDate.floorDivide(local, 86_400).quotient)
        // Instants are limited to the years 1...9999; an offset may step one day outside: clamp.
        self.year = min(max(year, 1), 9999)
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        // The initializers keep the year in 1...9999; a year set outside it is clamped to four digits.
        String(unsafeUninitializedCapacity: 10) { out in
            guard let base = out.baseAddress else { return 0 }
            RFC3339Fields.writeDate(year: min(max(year, 0), 9999), month: month, day: day, to: base)
            return 10
        }
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
