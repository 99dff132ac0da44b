import Foundation

/// A V1 pet-story date that may be an instant or already a day (SCHEMAS.md "Calendar dates").
public enum InstantOrDay: Sendable, Hashable {
    case instant(Instant)
    case day(CalendarDay)

    /// The day in `timeZone`: an instant's wall-calendar day there, a day as it is.
    public func day(in timeZone: TimeZone) -> CalendarDay {
        switch self {
        case .instant(let instant): return CalendarDay(instant: instant, in: timeZone)
        case .day(let day): return day
        }
    }

    /// The canonical string: an instant in RFC 3339 UTC, a day as `YYYY-MM-DD`.
    public var text: String {
        switch self {
        case .instant(let instant): return instant.description
        case .day(let day): return day.description
        }
    }
}
