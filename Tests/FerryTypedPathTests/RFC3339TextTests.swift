import FerryCore
import FerrySchemas
import Testing

@testable import FerryTypedPath

/// `RFC3339Text.appendQuoted` and `withDescription` against `Instant.description`, the bytes they
/// must reproduce.
@Suite struct RFC3339TextTests {
    /// The bytes appended for `instant` after a prefix already in the buffer (kept as it was); the
    /// bytes `withDescription` hands out are expected to be the same, unquoted.
    static func appended(_ instant: Instant) -> [UInt8] {
        var buffer = ByteBuffer(capacity: 4)
        buffer.append("previous")
        RFC3339Text.appendQuoted(instant, to: &buffer)
        let bytes = buffer.array
        #expect(Array(bytes.prefix(8)) == Array("previous".utf8))
        let described = RFC3339Text.withDescription(instant) { Array($0) }
        #expect([UInt8(ascii: "\"")] + described + [UInt8(ascii: "\"")] == Array(bytes.dropFirst(8)))
        return Array(bytes.dropFirst(8))
    }

    static func expected(_ instant: Instant) -> [UInt8] {
        Array("\"\(instant.description)\"".utf8)
    }

    @Test func exactBytesOfKnownInstants() throws {
        let cases: [(Int64, Int32, String)] = [
            (0, 0, "\"1970-01-01T00:00:00Z\""),
            (0, 1_000_000, "\"1970-01-01T00:00:00.001Z\""),
            (0, 250_000_000, "\"1970-01-01T00:00:00.250Z\""),
            (0, 999_999_999, "\"1970-01-01T00:00:00.999Z\""),  // sub-millisecond digits are not written
            (0, 999_999, "\"1970-01-01T00:00:00Z\""),
            (-1, 0, "\"1969-12-31T23:59:59Z\""),
            (-1, 500_000_000, "\"1969-12-31T23:59:59.500Z\""),
            (-86_400, 0, "\"1969-12-31T00:00:00Z\""),
            (-86_401, 0, "\"1969-12-30T23:59:59Z\""),
            (951_782_400, 0, "\"2000-02-29T00:00:00Z\""),
            (1_696_387_395, 0, "\"2023-10-04T02:43:15Z\""),
            (1_714_555_800, 120_000_000, "\"2024-05-01T09:30:00.120Z\""),
            (Instant.minimumSeconds, 0, "\"0001-01-01T00:00:00Z\""),
            (Instant.maximumSeconds, 999_000_000, "\"9999-12-31T23:59:59.999Z\""),
        ]
        for (seconds, nanoseconds, text) in cases {
            let instant = try #require(Instant(seconds: seconds, nanoseconds: nanoseconds))
            #expect(String(decoding: Self.appended(instant), as: UTF8.self) == text)
            #expect(Self.appended(instant) == Self.expected(instant))
        }
    }

    /// Days spread over the whole range (leap years, century rules) and times across the day.
    @Test func matchesDescriptionAcrossTheRange() throws {
        var seconds = Instant.minimumSeconds
        var step: Int64 = 0
        var checked = 0
        while seconds <= Instant.maximumSeconds {
            let nanoseconds = Int32((step % 7) * 123_000_000 + (step % 3) * 1_000_000)
            let instant = try #require(Instant(seconds: seconds, nanoseconds: nanoseconds))
            let bytes = Self.appended(instant)
            if bytes != Self.expected(instant) {
                Issue.record("\(seconds) \(nanoseconds): \(String(decoding: bytes, as: UTF8.self))")
                return
            }
            checked += 1
            step += 1
            // One instant every 17 days or so, at a second of the day that moves.
            seconds += 17 * 86_400 + 3_607 + step % 13
        }
        #expect(checked > 200_000)
    }

    /// Fields set outside the initializer's range go through `withDescriptionBytes`.
    @Test func instantsOutsideTheRangeFallBack() throws {
        var instant = try #require(Instant(seconds: 0))
        instant.seconds = Instant.maximumSeconds + 1
        var fallback = ByteBuffer(capacity: 4)
        instant.withDescriptionBytes { bytes in
            fallback.append(UInt8(ascii: "\""))
            fallback.append(bytes)
            fallback.append(UInt8(ascii: "\""))
        }
        #expect(Self.appended(instant) == fallback.array)
        instant.seconds = 0
        instant.nanoseconds = 1_000_000_000
        #expect(Self.appended(instant).first == UInt8(ascii: "\""))
    }
}
