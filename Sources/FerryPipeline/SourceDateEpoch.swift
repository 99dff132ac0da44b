import FerryCore
import Foundation

/// `SOURCE_DATE_EPOCH` (https://reproducible-builds.org/specs/source-date-epoch/): the time a
/// run writes where it would otherwise write a clock's (a bundle's `createdAt`, a report's date),
/// so that the same inputs give the same bytes.
public enum SourceDateEpoch {
    /// The variable's name.
    public static let name = "SOURCE_DATE_EPOCH"

    /// The latest time it can give: 9999-12-31T23:59:59Z, the last second RFC 3339 writes.
    public static let maximumSeconds: Int64 = 253_402_300_799

    /// The whole seconds since 1970-01-01T00:00:00Z that `SOURCE_DATE_EPOCH` gives in
    /// `environment`, or nil when it is not set.
    /// - Throws: `FerryError(.usage)` naming the value when it is set to anything but ASCII digits
    ///   up to `maximumSeconds` (empty, signed, fractional, spaced or too large): the
    ///   specification asks a tool to stop with an error on a malformed value rather than carry on
    ///   with another time, and it makes no exception for an empty one.
    public static func seconds(in environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int64? {
        guard let text = environment[name] else { return nil }
        // Digits only: `Int64("+5")` would take a sign the specification's `date +%s` form has not.
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
           let seconds = Int64(text), seconds <= maximumSeconds
        {
            return seconds
        }
        throw FerryError(.usage, "\(name) expects a whole number of seconds since 1970-01-01T00:00:00Z, "
            + "from 0 to \(maximumSeconds), not '\(text)'")
    }
}
