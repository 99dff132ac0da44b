/// The reserved words of the filter language, matched case-insensitively (`and`, `And`, `AND`).
/// A key spelled like one is written with `#` (`#count`), as in Apple's format syntax.
enum FilterKeyword: String, Sendable {
    case and = "AND", or = "OR", not = "NOT"
    case any = "ANY", some = "SOME", all = "ALL", none = "NONE"
    case `in` = "IN", between = "BETWEEN"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", contains = "CONTAINS", like = "LIKE"
    case matches = "MATCHES"
    case `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO", `nil` = "NIL", null = "NULL"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    /// Reserved by Apple's syntax, not supported here; named in errors.
    case subquery = "SUBQUERY", function = "FUNCTION", `self` = "SELF", first = "FIRST", last = "LAST"
    case size = "SIZE"

    /// The keyword an identifier spells, ignoring case; nil for plain identifiers.
    init?(identifier: String) {
        // Keywords are ASCII and at most 15 letters: skip the uppercasing for anything else.
        guard identifier.utf8.count <= 15, identifier.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        self.init(rawValue: identifier.uppercased())
    }
}
