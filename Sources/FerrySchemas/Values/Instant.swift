import FerryCore

/// A point in time as whole seconds since 1970-01-01T00:00:00Z plus nanoseconds (SCHEMAS.md
/// "Values: Instants"). Never a Foundation `Date`: a Double turns `.250` into `.2499…`.
///
/// `nanoseconds` is always in `0..<1_000_000_000`; an instant before 1970 has negative `seconds`.
/// Instants are limited to the years 0001...9999, the range RFC 3339 can write.
public struct Instant: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z (Unix time, no leap seconds).
    public var seconds: Int64
    /// Nanoseconds after `seconds`, `0..<1_000_000_000`.
    public var nanoseconds: Int32

    /// 0001-01-01T00:00:00Z.
    public static let minimumSeconds: Int64 = -62_135_596_800
    /// 9999-12-31T23:59:59Z.
    public static let maximumSeconds: Int64 = 253_402_300_799
    /// 2001-01-01T00:00:00Z, the reference date of Foundation's `deferredToDate`.
    public static let referenceDateSeconds: Int64 = 978_307_200

    /// Creates an instant; nil when `nanoseconds` is not in `0..<1_000_000_000` or the instant is
    /// outside the years 0001...9999.
    public init?(seconds: Int64, nanoseconds: Int32 = 0) {
        guard (0..<1_000_000_000).contains(nanoseconds),
            (Instant.minimumSeconds...Instant.maximumSeconds).contains(seconds)
        else { return nil }
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// The instant cut (toward the past) to whole milliseconds, and whether anything was cut
    /// (SCHEMAS.md: finer input is cut with a `lossy-precision` warning).
    public func truncatedToMilliseconds() -> (instant: Instant, lostPrecision: Bool) {
        let remainder = nanoseconds % 1_000_000
        var cut = self
        cut.nanoseconds -= remainder
        return (cut, remainder != 0)
    }

    /// The canonical RFC 3339 form in UTC: `2024-05-01T09:30:00Z`, with exactly three fraction
    /// digits when the milliseconds are non-zero (`2024-05-01T09:30:00.250Z`). Sub-millisecond
    /// digits are not written (cut them first with `truncatedToMilliseconds()` and report it).
    public var description: String {
        String(unsafeUninitializedCapacity: Instant.descriptionCapacity) { out in
            guard let base = out.baseAddress else { return 0 }
            return writeDescription(to: base)
        }
    }

    /// Calls `body` with the UTF-8 bytes of `description`, built on the stack (no `String`): for
    /// writers that append them to their output (the typed path's JSON Lines sink, issue 7).
    public func withDescriptionBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        var storage: (UInt64, UInt64, UInt64) = (0, 0, 0)  // descriptionCapacity bytes
        return try withUnsafeMutableBytes(of: &storage) { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
                return try body(UnsafeBufferPointer(start: nil, count: 0))
            }
            let count = writeDescription(to: base)
            return try body(UnsafeBufferPointer(start: base, count: count))
        }
    }

    /// The longest `description`: `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    private static let descriptionCapacity = 24

    /// Writes `description` at `out`, which has room for `descriptionCapacity` bytes; returns the
    /// bytes written (20, or 24 with milliseconds).
    private func writeDescription(to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Years are 0001...9999 (the initializer's range): every part has a fixed width.
        RFC3339Fields.writeTimestamp(seconds: seconds, milliseconds: Int(nanoseconds / 1_000_000), to: out)
    }

    /// Why a text is not an RFC 3339 instant.
    public enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The text does not follow `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
        case malformed
        /// The date or time does not exist (February 30, hour 24, second 60).
        case invalidDate
        /// No `Z` and no offset: the instant would be a guess (SCHEMAS.md "Instants").
        case missingOffset
        /// Before year 0001 or after 9999 once in UTC.
        case outOfRange

        public var description: String {
            switch self {
            case .malformed: return "is not an RFC 3339 instant (YYYY-MM-DDTHH:MM:SSZ)"
            case .invalidDate: return "names a date or time that does not exist"
            case .missingOffset: return "has no offset and no Z; add Z for UTC or an offset such as +09:00"
            case .outOfRange: return "is outside the years 0001...9999"
            }
        }
    }

    /// Parses RFC 3339 (section 5.6): `2024-05-01T18:30:00.25+09:00`. Accepts `t`/space for `T`, `z`
    /// for `Z`, any number of fraction digits (digits beyond nanoseconds are dropped; the caller
    /// reports the cut to milliseconds). An instant without `Z` or offset is `missingOffset`.
    public static func parse(_ text: String) -> Result<Instant, ParseError> {
        var text = text
        return text.withUTF8 { parse(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Parses RFC 3339 from UTF-8 bytes; see `parse(_:)`.
    public static func parse(bytes: UnsafeRawBufferPointer) -> Result<Instant, ParseError> {
        if let instant = parseWholeSecondsUTC(bytes) { return instant }
        return parseAnyForm(bytes)
    }

    /// The usual form, `YYYY-MM-DDTHH:MM:SSZ` (20 bytes, what `description` writes for whole
    /// seconds), read in one straight pass; nil for any other text, which `parseAnyForm` reads
    /// (with the same result for this form: the same fields, checked by the same `instant`).
    @inline(__always)
    private static func parseWholeSecondsUTC(_ bytes: UnsafeRawBufferPointer) -> Result<Instant, ParseError>? {
        guard bytes.count == 20, let base = bytes.baseAddress else { return nil }
        let p = base.assumingMemoryBound(to: UInt8.self)
        guard p[4] == UInt8(ascii: "-"), p[7] == UInt8(ascii: "-"), p[10] == UInt8(ascii: "T"),
            p[13] == UInt8(ascii: ":"), p[16] == UInt8(ascii: ":"), p[19] == UInt8(ascii: "Z"),
            let century = twoDigits(p, 0), let yearOfCentury = twoDigits(p, 2), let month = twoDigits(p, 5),
            let day = twoDigits(p, 8), let hour = twoDigits(p, 11), let minute = twoDigits(p, 14),
            let second = twoDigits(p, 17)
        else { return nil }
        return instant(
            year: century * 100 + yearOfCentury, month: month, day: day, hour: hour, minute: minute, second: second,
            nanoseconds: 0, offsetSeconds: 0)
    }

    /// The two decimal digits at `p[i]`, `p[i + 1]`; nil unless both are digits.
    @inline(__always)
    private static func twoDigits(_ p: UnsafePointer<UInt8>, _ i: Int) -> Int64? {
        let (high, low) = (p[i] &- 0x30, p[i + 1] &- 0x30)
        guard high < 10, low < 10 else { return nil }
        return Int64(high) * 10 + Int64(low)
    }

    /// Every form `parse(_:)` accepts, scanned piece by piece.
    static func parseAnyForm(_ bytes: UnsafeRawBufferPointer) -> Result<Instant, ParseError> {
        switch RFC3339Fields.parse(bytes, spaceSeparator: true) {
        case .failure(.malformed): return .failure(.malformed)
        case .failure(.missingOffset):
            // Advice to add Z would be wrong for a date or time that does not exist: say that.
            let withZ = Array(bytes) + [UInt8(ascii: "Z")]
            let completed = withZ.withUnsafeBytes { RFC3339Fields.parse($0, spaceSeparator: true) }
            if case .success(let fields) = completed, !fields.hasValidDateAndTime(allowingLeapSecond: false) {
                return .failure(.invalidDate)
            }
            if bytes.count == 10, let day = RFC3339Fields.parseFullDate(bytes),
                !CivilDate.exists(year: day.year, month: day.month, day: day.day)
            {
                return .failure(.invalidDate)
            }
            return .failure(.missingOffset)
        case .failure(.invalidOffset): return .failure(.invalidDate)
        case .success(let fields):
            return instant(
                year: Int64(fields.year), month: Int64(fields.month), day: Int64(fields.day), hour: Int64(fields.hour),
                minute: Int64(fields.minute), second: Int64(fields.second), nanoseconds: Int64(fields.nanoseconds),
                offsetSeconds: fields.offsetSeconds)
        }
    }

    /// The instant of well-formed fields: `invalidDate` for a date or time that does not exist,
    /// `outOfRange` outside the years 0001...9999 once in UTC.
    @inline(__always)
    private static func instant(
        year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64, nanoseconds: Int64,
        offsetSeconds: Int64
    ) -> Result<Instant, ParseError> {
        guard CivilDate.exists(year: Int(year), month: Int(month), day: Int(day)), hour <= 23, minute <= 59, second <= 59
        else { return .failure(.invalidDate) }
        let days = CivilDate.days(year: Int(year), month: Int(month), day: Int(day))
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        guard let instant = Instant(seconds: seconds, nanoseconds: Int32(nanoseconds)) else { return .failure(.outOfRange) }
        return .success(instant)
    }

    /// Reads a numeric date with a strategy (SCHEMAS.md "Numeric dates"), from exact decimal text
    /// (`736000000.25`, `1.7e9`): no Double rounding. Nil for `.iso8601` (numbers are not dates
    /// there), for text that is not a number, and for instants outside the years 0001...9999.
    /// - Returns: the instant, and whether digits finer than a nanosecond were dropped.
    public static func fromNumber(_ text: String, strategy: DateStrategy) -> Instant? {
        let scale: Int
        let offset: Int64
        switch strategy {
        case .deferredToDate: (scale, offset) = (0, referenceDateSeconds)
        case .secondsSince1970: (scale, offset) = (0, 0)
        case .millisecondsSince1970: (scale, offset) = (3, 0)
        case .iso8601: return nil
        }
        guard let decimal = DecimalText(text) else { return nil }
        // value = digits × 10^(exponent) seconds × 10^-scale; nanoseconds need 10^9.
        guard let (whole, nanos) = decimal.secondsAndNanoseconds(shift: -scale) else { return nil }
        let (sum, overflow) = whole.addingReportingOverflow(offset)
        guard !overflow else { return nil }
        return Instant(seconds: sum, nanoseconds: nanos)
    }

    /// This instant as a number of the strategy's unit, in ECMAScript number text (for writers of
    /// numeric dates); nil for `.iso8601`.
    public func numberText(strategy: DateStrategy) -> String? {
        let base: Int64
        switch strategy {
        case .deferredToDate: base = seconds - Instant.referenceDateSeconds
        case .secondsSince1970: base = seconds
        case .millisecondsSince1970:
            let millis = Double(seconds) * 1000 + Double(nanoseconds / 1_000_000)
            return NumberText.ecmaScript(millis)
        case .iso8601: return nil
        }
        return NumberText.ecmaScript(Double(base) + Double(nanoseconds) / 1e9)
    }
}

/// Exact decimal number text split into sign, digits and exponent (RFC 8259 number grammar, with
/// an optional leading `+` as CSV cells may carry).
package struct DecimalText {
    var negative: Bool
    /// Significant digits, most significant first (leading zeros removed).
    var digits: [UInt8]
    /// value = digits (as an integer) × 10^exponent
    var exponent: Int

    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var digits: [UInt8] = []
        var exponent = 0
        var sawDigit = false
        var afterPoint = false
        while let byte = bytes.first {
            if byte >= 0x30 && byte <= 0x39 {
                sawDigit = true
                if !(digits.isEmpty && byte == 0x30) { digits.append(byte - 0x30) }
                if afterPoint { exponent -= 1 }
            } else if byte == UInt8(ascii: "."), !afterPoint {
                afterPoint = true
            } else {
                break
            }
            bytes = bytes.dropFirst()
        }
        guard sawDigit else { return nil }
        if let byte = bytes.first {
            guard byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") else { return nil }
            guard let e = Int(String(decoding: bytes.dropFirst(), as: UTF8.self)), abs(e) < 10_000 else { return nil }
            exponent += e
        }
        self.negative = negative
        self.digits = digits
        self.exponent = exponent
    }

    /// The value × 10^shift as whole seconds (floor, toward the past) and nanoseconds; nil on
    /// overflow. Digits finer than a nanosecond are dropped.
    func secondsAndNanoseconds(shift: Int) -> (Int64, Int32)? {
        let pointAt = digits.count + exponent + shift  // digits before the decimal point
        var whole: Int64 = 0
        var fraction: Int64 = 0  // first 9 fraction digits
        var fractionDigits = 0
        var droppedNonZero = false
        for index in 0..<max(pointAt, digits.count) {
            let digit = index < digits.count ? Int64(digits[index]) : 0
            if index < pointAt {
                let (m, o1) = whole.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(digit)
                guard !o1, !o2 else { return nil }
                whole = a
            }
        }
        if pointAt < 0 {
            fractionDigits = min(-pointAt, 9)
        }
        for index in min(max(pointAt, 0), digits.count)..<digits.count {
            if fractionDigits < 9 {
                fraction = fraction * 10 + Int64(digits[index])
                fractionDigits += 1
            } else if digits[index] != 0 {
                droppedNonZero = true
            }
        }
        for _ in fractionDigits..<9 { fraction *= 10 }
        if negative {
            if fraction != 0 || droppedNonZero {
                fraction = 1_000_000_000 - fraction - (droppedNonZero ? 1 : 0)
                whole += 1
            }
            whole = -whole
        }
        return (whole, Int32(fraction))
    }
}
