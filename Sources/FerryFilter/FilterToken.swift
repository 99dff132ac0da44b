/// One token of filter text, with its source range.
struct FilterToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A bare word: a key or a keyword (the parser decides).
        case identifier(String)
        /// `#word`: always a key, never a keyword.
        case escapedIdentifier(String)
        /// `@count`, `@sum`, ... (the name without `@`).
        case collectionOperator(String)
        /// A number's text (`4`, `-2.5`, `1e3`).
        case number(String)
        /// A string literal, escapes resolved.
        case string(String)
        /// `$NAME` (the name without `$`).
        case variable(String)
        /// A run of operator characters (`==`, `<=`, `&&`, `!`); the parser knows which are valid.
        case symbol(String)
        case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket, comma, dot, colon
        case end
    }

    var kind: Kind
    var range: FilterSourceRange

    /// How the token reads in an error message: `'=='`, `"pinot"`, `end of input`.
    var quoted: String {
        switch kind {
        case .identifier(let s): return "'\(s)'"
        case .escapedIdentifier(let s): return "'#\(s)'"
        case .collectionOperator(let s): return "'@\(s)'"
        case .number(let s): return s
        case .string(let s): return FilterLiteral.quoted(s)
        case .variable(let s): return "'$\(s)'"
        case .symbol(let s): return "'\(s)'"
        case .leftParen: return "'('"
        case .rightParen: return "')'"
        case .leftBrace: return "'{'"
        case .rightBrace: return "'}'"
        case .leftBracket: return "'['"
        case .rightBracket: return "']'"
        case .comma: return "','"
        case .dot: return "'.'"
        case .colon: return "':'"
        case .end: return "end of input"
        }
    }
}
