import FerryCore
import FerrySchemas

/// `Instant.description` (RFC 3339 in UTC, milliseconds when not zero) written straight into a
/// byte buffer, two digits at a time from a table: the typed path's JSON Lines sink writes one
/// per record (issue 7). The bytes are `description`'s; `RFC3339TextTests` checks them against it.
enum RFC3339Text {
    /// "00", "01", ... "99": the two digits of each number below 100.
    private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Appends `"` + `instant.description` + `"`. Instants outside the initializer's range (their
    /// fields are public and settable) go through `withDescriptionBytes`, which handles them.
    static func appendQuoted(_ instant: Instant, to buffer: inout ByteBuffer) {
        let seconds = instant.seconds
        let nanoseconds = instant.nanoseconds
        guard (Instant.minimumSeconds...Instant.maximumSeconds).contains(seconds),
            (0..<1_000_000_000).contains(nanoseconds)
        else {
            instant.withDescriptionBytes { buffer.appendJSONQuoted($0) }
            return
        }
        // Days since 1970 rounded toward the past (seconds may be negative).
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = CalendarDay.civil(fromDays: days)
        let milliseconds = Int(nanoseconds / 1_000_000)
        buffer.reserve(26)  // the quotes and `YYYY-MM-DDTHH:MM:SS.mmmZ`
        let out = buffer.base + buffer.count
        out[0] = UInt8(ascii: "\"")
        putPair(year / 100, out + 1)
        putPair(year % 100, out + 3)
        out[5] = UInt8(ascii: "-")
        putPair(month, out + 6)
        out[8] = UInt8(ascii: "-")
        putPair(day, out + 9)
        out[11] = UInt8(ascii: "T")
        putPair(secondOfDay / 3600, out + 12)
        out[14] = UInt8(ascii: ":")
        putPair(secondOfDay / 60 % 60, out + 15)
        out[17] = UInt8(ascii: ":")
        putPair(secondOfDay % 60, out + 18)
        var n = 20
        if milliseconds != 0 {
            out[20] = UInt8(ascii: ".")
            out[21] = UInt8(truncatingIfNeeded: milliseconds / 100) &+ 0x30
            putPair(milliseconds % 100, out + 22)
            n = 24
        }
        out[n] = UInt8(ascii: "Z")
        out[n + 1] = UInt8(ascii: "\"")
        buffer.count += n + 2
    }

    /// Writes the two digits of `value` (0...99) at `out`.
    @inline(__always)
    private static func putPair(_ value: Int, _ out: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        out[0] = pairs[2 &* value]
        out[1] = pairs[2 &* value &+ 1]
    }
}
