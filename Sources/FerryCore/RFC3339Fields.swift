/// The fields of an RFC 3339 (section 5.6) date-time, read and written in one place for every
/// reader of instants: `Instant`, the `.iso8601` date strategy of `ValueDecoder`/`ValueEncoder`,
/// the filter language and bundle manifests. Each caller applies its own range rules on top
/// (`hasValidDateAndTime(allowingLeapSecond:)`, its year range).
public struct RFC3339Fields: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// The first nine fraction digits as nanoseconds (`.25` is 250_000_000); later digits are cut.
    public var nanoseconds: Int32
    /// The offset from UTC in seconds (`+09:00` is 32_400; `Z` is 0), already checked to be at
    /// most 23:59.
    public var offsetSeconds: Int64

    /// Fields as given (not checked).
    public init(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanoseconds: Int32, offsetSeconds: Int64
    ) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
        self.nanoseconds = nanoseconds
        self.offsetSeconds = offsetSeconds
    }

    /// Why text is not an RFC 3339 date-time, in the order the parser finds it.
    public enum Failure: Error, Sendable, Hashable {
        /// The text does not follow `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
        case malformed
        /// The text ends after the date or the time: no `Z` and no offset.
        case missingOffset
        /// An offset whose hours are over 23 or minutes over 59.
        case invalidOffset
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`: `T` or `t` (and a space when
    /// `spaceSeparator`; RFC 3339 section 5.6's note allows it), `Z` or `z`, one or more fraction
    /// digits. The date and time are read as digits only: check them with
    /// `hasValidDateAndTime(allowingLeapSecond:)`.
    public static func parse(_ bytes: UnsafeRawBufferPointer, spaceSeparator: Bool) -> Result<RFC3339Fields, Failure> {
        var index = 0
        let count = bytes.count
        func digits(_ n: Int) -> Int? {
            guard index + n <= count else { return nil }
            var value = 0
            for i in index..<(index + n) {
                let digit = bytes[i] &- 0x30
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            index += n
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
            let day = digits(2)
        else { return .failure(.malformed) }
        guard index < count else { return .failure(.missingOffset) }
        let separator = bytes[index]
        guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
            || (spaceSeparator && separator == UInt8(ascii: " "))
        else { return .failure(.malformed) }
        index += 1
        guard let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2), expect(UInt8(ascii: ":")),
            let second = digits(2)
        else { return .failure(.malformed) }
        var nanoseconds = 0
        if expect(UInt8(ascii: ".")) {
            var digitCount = 0
            while index < count, bytes[index] &- 0x30 < 10 {
                if digitCount < 9 { nanoseconds = nanoseconds * 10 + Int(bytes[index] &- 0x30) }
                digitCount += 1
                index += 1
            }
            guard digitCount > 0 else { return .failure(.malformed) }
            for _ in min(digitCount, 9)..<9 { nanoseconds *= 10 }
        }
        guard index < count else { return .failure(.missingOffset) }
        var offsetSeconds: Int64 = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let negative = bytes[index] == UInt8(ascii: "-")
            index += 1
            guard let offsetHour = digits(2), expect(UInt8(ascii: ":")), let offsetMinute = digits(2) else {
                return .failure(.malformed)
            }
            guard offsetHour <= 23, offsetMinute <= 59 else { return .failure(.invalidOffset) }
            offsetSeconds = Int64(offsetHour * 3600 + offsetMinute * 60) * (negative ? -1 : 1)
        default:
            return .failure(.malformed)
        }
        guard index == count else { return .failure(.malformed) }
        return .success(
            RFC3339Fields(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                nanoseconds: Int32(nanoseconds), offsetSeconds: offsetSeconds))
    }

    /// Reads exactly `YYYY-MM-DD` (RFC 3339 `full-date`) as digits; nil for any other text. The
    /// date is not checked: see `CivilDate.exists(year:month:day:)`.
    public static func parseFullDate(_ bytes: UnsafeRawBufferPointer) -> (year: Int, month: Int, day: Int)? {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func digits(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                let digit = bytes[i] &- 0x30
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10) else { return nil }
        return (year, month, day)
    }

    /// True when the date exists (`CivilDate.exists`) and the time is 00...23, 00...59 and
    /// 00...59, or second 60 when `allowingLeapSecond` (which then counts as the next minute's 00).
    public func hasValidDateAndTime(allowingLeapSecond: Bool) -> Bool {
        CivilDate.exists(year: year, month: month, day: day) && hour <= 23 && minute <= 59
            && (second <= 59 || (allowingLeapSecond && second == 60))
    }

    /// Whole seconds since 1970-01-01T00:00:00Z (no leap seconds; the fraction is not included).
    public var epochSeconds: Int64 {
        CivilDate.days(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
            - offsetSeconds
    }

    // MARK: - Writing

    /// The longest timestamp `writeTimestamp` writes: `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    public static let maximumTimestampLength = 24

    /// Writes `YYYY-MM-DDTHH:MM:SSZ` in UTC for `seconds` since 1970, with `.mmm` before the `Z`
    /// when `milliseconds` (0...999) is not zero (SCHEMAS.md "Values: Instants"), at `out`, which
    /// has room for `maximumTimestampLength` bytes.
    /// - Returns: the bytes written, 20 or 24.
    /// - Precondition: the year of `seconds` is 0000...9999 (callers check their range first).
    @inlinable
    public static func writeTimestamp(seconds: Int64, milliseconds: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let (days, secondOfDay) = CivilDate.floorDivide(seconds, 86_400)
        let (year, month, day) = CivilDate.civil(fromDays: days)
        writeDate(year: year, month: month, day: day, to: out)
        let second = Int(secondOfDay)
        out[10] = UInt8(ascii: "T")
        writePair(second / 3600, to: out + 11)
        out[13] = UInt8(ascii: ":")
        writePair(second / 60 % 60, to: out + 14)
        out[16] = UInt8(ascii: ":")
        writePair(second % 60, to: out + 17)
        var n = 19
        if milliseconds != 0 {
            out[19] = UInt8(ascii: ".")
            out[20] = UInt8(truncatingIfNeeded: milliseconds / 100) &+ 0x30
            writePair(milliseconds % 100, to: out + 21)
            n = 23
        }
        out[n] = UInt8(ascii: "Z")
        return n + 1
    }

    /// `writeTimestamp` as a `String`.
    public static func timestamp(seconds: Int64, milliseconds: Int) -> String {
        String(unsafeUninitializedCapacity: maximumTimestampLength) { out in
            guard let base = out.baseAddress else { return 0 }
            return writeTimestamp(seconds: seconds, milliseconds: milliseconds, to: base)
        }
    }

    /// Writes `YYYY-MM-DD` (10 bytes) at `out`; the year is 0...9999.
    @inlinable
    public static func writeDate(year: Int, month: Int, day: Int, to out: UnsafeMutablePointer<UInt8>) {
        writePair(year / 100, to: out)
        writePair(year % 100, to: out + 2)
        out[4] = UInt8(ascii: "-")
        writePair(month, to: out + 5)
        out[7] = UInt8(ascii: "-")
        writePair(day, to: out + 8)
    }

    /// Writes the two decimal digits of `value` (0...99) at `out`.
    @inlinable
    static func writePair(_ value: Int, to out: UnsafeMutablePointer<UInt8>) {
        out[0] = UInt8(truncatingIfNeeded: value / 10) &+ 0x30
        out[1] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
    }
}
