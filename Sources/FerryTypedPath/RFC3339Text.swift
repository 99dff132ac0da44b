import FerryCore
import FerrySchemas
import FormatJSON

/// `Instant.description` (RFC 3339 in UTC, milliseconds when not zero) written straight into a
/// byte buffer (`RFC3339Fields.writeTimestamp`): the typed path's JSON Lines sink and CSV leaf
/// sink write one per record (issue 7). The bytes are `description`'s; `RFC3339TextTests` checks them against it.
enum RFC3339Text {
    /// Appends `"` + `instant.description` + `"`. Instants outside the initializer's range (their
    /// fields are public and settable) go through `withDescriptionBytes`, which handles them.
    static func appendQuoted(_ instant: Instant, to buffer: inout ByteBuffer) {
        buffer.reserve(2 + maximumLength)
        let out = buffer.base + buffer.count
        guard let n = write(instant, to: out + 1) else {
            instant.withDescriptionBytes { buffer.appendJSONQuoted($0) }
            return
        }
        out[0] = UInt8(ascii: "\"")
        out[n + 1] = UInt8(ascii: "\"")
        buffer.count += n + 2
    }

    /// Calls `body` with the bytes of `instant.description`.
    @inline(__always)
    static func withDescription<R>(_ instant: Instant, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { room in
            guard let out = room.baseAddress, let n = write(instant, to: out) else {
                return instant.withDescriptionBytes(body)
            }
            return body(UnsafeBufferPointer(start: out, count: n))
        }
    }

    /// The longest description: `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    static var maximumLength: Int { 24 }

    /// True when `write(_:to:)` writes `instant` (within the initializer's range: years 0001...9999).
    @inline(__always)
    static func isWritten(_ instant: Instant) -> Bool {
        (Instant.minimumSeconds...Instant.maximumSeconds).contains(instant.seconds)
            && (0..<1_000_000_000).contains(instant.nanoseconds)
    }

    /// Writes `instant.description` at `out` (room for `maximumLength` bytes) and returns its
    /// length (20, or 24 with milliseconds); nil, with nothing written, for an instant outside the
    /// initializer's range (`isWritten`).
    @inline(__always)
    static func write(_ instant: Instant, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        guard isWritten(instant) else { return nil }
        return RFC3339Fields.writeTimestamp(
            seconds: instant.seconds, milliseconds: Int(instant.nanoseconds / 1_000_000), to: out)
    }

    /// True when `text` is exactly the `description` of the instant `Instant.parse` reads from it,
    /// so that the text can be copied as it is: `YYYY-MM-DDTHH:MM:SSZ`, or `YYYY-MM-DDTHH:MM:SS.mmmZ`
    /// with milliseconds not all zero (`description` leaves `.000` out), upper-case `T` and `Z`
    /// (RFC 3339 section 5.6 allows lower case; `description` writes upper), and a date and time
    /// that exist (years 0001...9999, a day of the month's, 00...23 hours, 00...59 minutes and
    /// seconds: section 5.7, without leap seconds, which `Instant.parse` refuses).
    static func isDescription(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count == 20 || text.count == 24, let p = text.baseAddress else { return false }
        guard p[4] == UInt8(ascii: "-"), p[7] == UInt8(ascii: "-"), p[10] == UInt8(ascii: "T"),
            p[13] == UInt8(ascii: ":"), p[16] == UInt8(ascii: ":"), p[text.count - 1] == UInt8(ascii: "Z"),
            let year = digits(p, 0, 4), let month = digits(p, 5, 2), let day = digits(p, 8, 2),
            let hour = digits(p, 11, 2), let minute = digits(p, 14, 2), let second = digits(p, 17, 2)
        else { return false }
        if text.count == 24 {
            guard p[19] == UInt8(ascii: "."), let milliseconds = digits(p, 20, 3), milliseconds != 0 else { return false }
        }
        return year >= 1 && CivilDate.exists(year: year, month: month, day: day)
            && hour <= 23 && minute <= 59 && second <= 59
    }

    /// The value of the `count` decimal digits at `p + start`; nil when one is not a digit.
    @inline(__always)
    private static func digits(_ p: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for k in start..<(start + count) {
            let digit = p[k] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int(digit)
        }
        return value
    }
}
