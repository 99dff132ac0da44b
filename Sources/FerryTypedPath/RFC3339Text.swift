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
}
