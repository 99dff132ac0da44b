import Foundation

/// RFC 3339 (section 5.6) date-time text for the `.iso8601` strategies of `ValueEncoder` /
/// `ValueDecoder`, in the form SCHEMAS.md "Values: Instants" fixes.
///
/// Works on whole milliseconds since 1970 in the proleptic Gregorian calendar (`CivilDate`,
/// `RFC3339Fields`), so no time zone database, locale or formatter is involved and the machine's
/// `TZ` never matters.
enum RFC3339DateText {
    /// `2024-05-01T09:30:00Z`, or `2024-05-01T09:30:00.250Z` when the milliseconds are non-zero.
    ///
    /// The date is rounded to the nearest millisecond. Returns nil when the date is not finite or
    /// falls outside the years 0000...9999 that RFC 3339 can write.
    static func format(_ date: Date) -> String? {
        let scaled = (date.timeIntervalSince1970 * 1000).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15, let milliseconds = Int64(exactly: scaled) else { return nil }
        let (seconds, millisecond) = CivilDate.floorDivide(milliseconds, 1000)
        guard seconds >= minimumSeconds, seconds <= maximumSeconds else { return nil }
        return RFC3339Fields.timestamp(seconds: seconds, milliseconds: Int(millisecond))
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)` (`T` and `Z` in either case).
    ///
    /// Any number of fraction digits is accepted; digits past nanoseconds are ignored. A time with
    /// no offset, a leap second (`:60`) and out-of-range fields are refused (nil), never guessed.
    static func parse(_ text: String) -> Date? {
        var text = text
        let parsed = text.withUTF8 { RFC3339Fields.parse(UnsafeRawBufferPointer($0), spaceSeparator: false) }
        guard case .success(let fields) = parsed, fields.hasValidDateAndTime(allowingLeapSecond: false) else {
            return nil
        }
        return Date(timeIntervalSince1970: Double(fields.epochSeconds) + Double(fields.nanoseconds) / 1e9)
    }

    /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z in seconds since 1970.
    private static let minimumSeconds: Int64 = -62_167_219_200
    private static let maximumSeconds: Int64 = 253_402_300_799
}
