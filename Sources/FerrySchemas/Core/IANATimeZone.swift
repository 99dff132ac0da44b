import Foundation
import FerryCore

/// A `--time-zone` name resolved as an IANA time zone database name (`Asia/Tokyo`, `UTC`).
///
/// Foundation also takes abbreviations, which it reads as fixed offsets or as another zone than
/// the one meant: `PST` is -08:00 all year (no daylight saving), `BST` is Bangladesh, `IST` is
/// India. Those are refused with the zone the abbreviation usually names
/// (`TimeZone.abbreviationDictionary`), so that a calendar day never shifts silently.
public enum IANATimeZone {
    /// The time zone named `name`.
    /// - Throws: `FerryError(.usage)` for a name that is not a time zone, or that is an
    ///   abbreviation (`JST`, `PST`) rather than an IANA name; `UTC` and `GMT` are IANA names too.
    public static func resolve(_ name: String) throws -> TimeZone {
        let isAbbreviation = name != "UTC" && name != "GMT" && TimeZone.abbreviationDictionary[name] != nil
        guard !isAbbreviation, offsetName(name) == nil, let zone = TimeZone(identifier: name) else {
            throw FerryError(.usage, message(for: name))
        }
        return zone
    }

    /// Why `name` is refused, with the IANA name to use instead where one is known.
    static func message(for name: String) -> String {
        if let offset = offsetName(name) {
            // IANA's `Etc/GMT-9` is 9 hours ahead (POSIX's sign), the opposite of `GMT+9`.
            let etc = offset.minutes == 0 && offset.hours <= 14
                ? "\"Etc/GMT\(offset.hours == 0 ? "" : (offset.ahead ? "-" : "+") + String(offset.hours))\" (POSIX's sign: "
                    + "\(offset.ahead ? "ahead of" : "behind") UTC) or "
                : ""
            return "time zone \(quoted: name) is an offset, not an IANA name; use \(etc)a city's zone such as Asia/Tokyo"
        }
        if let meant = TimeZone.abbreviationDictionary[name], name != "UTC", name != "GMT" {
            return "time zone \(quoted: name) is an abbreviation, not an IANA name; use \(quoted: meant) or another IANA name"
        }
        return "unknown time zone \(quoted: name); use an IANA name such as UTC or Asia/Tokyo"
    }

    /// `GMT+9`, `UTC-05:30` and the like: offsets Foundation takes whose sign is the opposite of
    /// IANA's `Etc/GMT+9` (9 hours behind UTC), nil for any other name.
    static func offsetName(_ name: String) -> (ahead: Bool, hours: Int, minutes: Int)? {
        guard name.hasPrefix("GMT") || name.hasPrefix("UTC") else { return nil }
        let rest = name.dropFirst(3)
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        let digits = rest.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(digits.count), let hours = Int(digits[0]), digits[0].count <= 2 else {
            return (sign == "+", 99, 0)
        }
        let minutes = digits.count == 2 ? Int(digits[1]) ?? 99 : 0
        return (sign == "+", hours, minutes)
    }
}
