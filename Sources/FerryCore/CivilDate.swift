/// The proleptic Gregorian calendar on day counts since 1970-01-01: the one copy of the calendar
/// arithmetic that instants, calendar days, the filter language and bundle timestamps use.
///
/// Days before 1970 are negative; the functions hold for any year an `Int64` day count reaches
/// (Ferry's types limit them to 0000...9999 or 0001...9999). Leap years and month lengths follow
/// RFC 3339 appendix C and section 5.7; the day-count conversions are Howard Hinnant's
/// `days_from_civil` / `civil_from_days` ("chrono-Compatible Low-Level Date Algorithms").
public enum CivilDate {
    /// True for a leap year: divisible by 4, and not by 100 unless by 400 (RFC 3339 appendix C).
    @inlinable
    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// The number of days of `month` (1...12) in `year`: 28 to 31 (RFC 3339 section 5.7's table).
    @inlinable
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// True when `month` is 1...12 and `day` is a day of that month in `year` (no year limit).
    @inlinable
    public static func exists(year: Int, month: Int, day: Int) -> Bool {
        (1...12).contains(month) && day >= 1 && day <= daysIn(month: month, year: year)
    }

    /// Days since 1970-01-01 of a date (`days_from_civil`); month 1...12, day 1...31, not checked.
    @inlinable
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date (year, month 1...12, day 1...31) of a day count since 1970-01-01 (`civil_from_days`).
    @inlinable
    public static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
    }

    /// `a / b` rounded toward negative infinity and the remainder in `0..<b` (`b` > 0): splits
    /// seconds before 1970 into a day and a second of that day.
    @inlinable
    public static func floorDivide(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = a / b
        let remainder = a % b
        return remainder < 0 ? (quotient - 1, remainder + b) : (quotient, remainder)
    }
}
