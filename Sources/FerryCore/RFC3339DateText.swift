import Foundation

/// RFC 3339 (section 5.6) date-time text for the `.iso8601` strategies of `ValueEncoder` /
/// `ValueDecoder`, in the form SCHEMAS.md "Values: Instants" fixes.
///
/// Works on whole milliseconds since 1970 in the proleptic Gregorian calendar, so no time zone
/// database, locale or formatter is involved and the machine's `TZ` never matters.
enum RFC3339DateText {
    /// `2024-05-01T09:30:00Z`, or `2024-05-01T09:30:00.250Z` when the milliseconds are non-zero.
    ///
    /// The date is rounded to the nearest millisecond. Returns nil when the date is not finite or
    /// falls outside the years 0000...9999 that RFC 3339 can write.
    static func format(_ date: Date) -> String? {
        let scaled = (date.timeIntervalSince1970 * 1000).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15, let milliseconds = Int64(exactly: scaled) else { return nil }
        let (seconds, millisecond) = floorDivide(milliseconds, 1000)
        guard seconds >= minimumSeconds, seconds <= maximumSeconds else { return nil }
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        var out: [UInt8] = []
        out.reserveCapacity(24)
        append(year, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        append(month, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        append(day, width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, width: 2, to: &out)
        if millisecond != 0 {
            out.append(UInt8(ascii: "."))
            append(millisecond, width: 3, to: &out)
        }
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)` (`T` and `Z` in either case).
    ///
    /// Any number of fraction digits is accepted; digits past nanoseconds are ignored. A time with
    /// no offset, a leap second (`:60`) and out-of-range fields are refused (nil), never guessed.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        func number(_ width: Int) -> Int64? {
            guard index + width <= bytes.count else { return nil }
            var result: Int64 = 0
            for _ in 0..<width {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                result = result * 10 + Int64(byte - UInt8(ascii: "0"))
                index += 1
            }
            return result
        }
        func expect(_ allowed: UInt8...) -> Bool {
            guard index < bytes.count, allowed.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2), expect(UInt8(ascii: "T"), UInt8(ascii: "t")),
            let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
            let second = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var nanoseconds: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                if digits < 9 { nanoseconds = nanoseconds * 10 + Int64(bytes[index] - UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 9) { nanoseconds *= 10 }
        }
        var offsetSeconds: Int64 = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let offsetHour = number(2), expect(UInt8(ascii: ":")), let offsetMinute = number(2),
                offsetHour < 24, offsetMinute < 60
            else { return nil }
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = self.days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z in seconds since 1970.
    private static let minimumSeconds: Int64 = -62_167_219_200
    private static let maximumSeconds: Int64 = 253_402_300_799

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        var quotient = a / b
        var remainder = a % b
        if remainder < 0 {
            quotient -= 1
            remainder += b
        }
        return (quotient, remainder)
    }

    private static func append(_ value: Int64, width: Int, to out: inout [UInt8]) {
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
        var rest = value
        var position = width - 1
        while position >= 0 {
            digits[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            position -= 1
        }
        out.append(contentsOf: digits)
    }

    private static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (`civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
