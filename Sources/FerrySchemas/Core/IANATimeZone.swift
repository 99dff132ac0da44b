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
        guard !isAbbreviation, let zone = TimeZone(identifier: name) else {
            throw FerryError(.usage, message(for: name))
        }
        return zone
    }

    /// Why `name` is refused, with the IANA name to use instead where one is known.
    static func message(for name: String) -> String {
        if let meant = TimeZone.abbreviationDictionary[name], name != "UTC", name != "GMT" {
            return "time zone \(quoted: name) is an abbreviation, not an IANA name; use \(quoted: meant) or another IANA name"
        }
        return "unknown time zone \(quoted: name); use an IANA name such as UTC or Asia/Tokyo"
    }
}
