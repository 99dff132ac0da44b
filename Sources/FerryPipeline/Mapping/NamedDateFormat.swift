import Foundation

/// Dates written in a named format (`"April 4th, 2015"` with the pattern `MMMM d, yyyy`), turned into
/// RFC 3339 instants. English ordinal suffixes after day numbers (`1st`, `2nd`, `3rd`, `4th`) are
/// accepted and dropped before parsing; month and day names are English (`en_US_POSIX`).
enum NamedDateFormat {
    /// The RFC 3339 instant (UTC, `Z`) of `text` read with the Unicode date `pattern` in `timeZone`;
    /// nil when the text does not match.
    static func parse(_ text: String, pattern: String, timeZone: String) -> String? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        formatter.isLenient = false
        guard let date = formatter.date(from: dropOrdinals(text)) else { return nil }
        let output = ISO8601DateFormatter()
        output.timeZone = TimeZone(identifier: "UTC")
        output.formatOptions = [.withInternetDateTime]
        return output.string(from: date)
    }

    /// `April 4th, 2015` -> `April 4, 2015`: a suffix counts only right after digits.
    static func dropOrdinals(_ text: String) -> String {
        var out = ""
        var previousIsDigit = false
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.first {
            if previousIsDigit, scalars.count >= 2 {
                let pair = String(String.UnicodeScalarView(scalars.prefix(2))).lowercased()
                let after = scalars.dropFirst(2).first
                let endsWord = after.map { !CharacterSet.letters.contains($0) } ?? true
                if ["st", "nd", "rd", "th"].contains(pair) && endsWord {
                    scalars = scalars.dropFirst(2)
                    previousIsDigit = false
                    continue
                }
            }
            out.unicodeScalars.append(scalar)
            previousIsDigit = CharacterSet.decimalDigits.contains(scalar)
            scalars = scalars.dropFirst()
        }
        return out
    }
}
