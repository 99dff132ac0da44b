/// Splits filter text into tokens, keeping the 1-based column (in Unicode scalars) of each.
///
/// Filters are short command-line arguments, so the lexer works on an array of scalars.
struct FilterLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ source: String) {
        self.scalars = Array(source.unicodeScalars)
    }

    /// The column just past the last scalar (where "end of input" errors point).
    var endColumn: Int { scalars.count + 1 }

    /// All tokens, ending with `.end`.
    /// - Throws: `FilterError` for an unterminated string, a bad escape, a malformed number or a
    ///   character that starts no token.
    static func tokenize(_ source: String) throws(FilterError) -> [FilterToken] {
        var lexer = FilterLexer(source)
        var tokens: [FilterToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    /// True when `name` lexes as a single bare identifier.
    static func isIdentifier(_ name: String) -> Bool {
        var first = true
        for scalar in name.unicodeScalars {
            if first ? !isIdentifierStart(scalar) : !isIdentifierContinue(scalar) { return false }
            first = false
        }
        return !first
    }

    static func isIdentifierStart(_ s: Unicode.Scalar) -> Bool {
        s == "_" || (s.isASCII ? (("a"..."z").contains(s) || ("A"..."Z").contains(s)) : s.properties.isAlphabetic)
    }

    static func isIdentifierContinue(_ s: Unicode.Scalar) -> Bool {
        isIdentifierStart(s) || ("0"..."9").contains(s)
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }

    private static let symbolScalars: Set<Unicode.Scalar> = ["=", "!", "<", ">", "&", "|", "~", "^", "%", "*", "+", "/"]

    /// The operators the language knows, longest first.
    private static let knownSymbols = ["==", "=<", "=>", "!=", "<>", "<=", ">=", "&&", "||", "=", "<", ">", "!"]

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let i = index + offset
        return i < scalars.count ? scalars[i] : nil
    }

    private func range(from start: Int) -> FilterSourceRange {
        FilterSourceRange(column: start + 1, length: index - start)
    }

    mutating func next() throws(FilterError) -> FilterToken {
        while let s = peek(), s == " " || s == "\t" || s == "\n" || s == "\r" { index += 1 }
        let start = index
        guard let s = peek() else {
            return FilterToken(kind: .end, range: FilterSourceRange(column: endColumn, length: 1))
        }
        let simple: FilterToken.Kind? = switch s {
        case "(": .leftParen
        case ")": .rightParen
        case "{": .leftBrace
        case "}": .rightBrace
        case "[": .leftBracket
        case "]": .rightBracket
        case ",": .comma
        case ":": .colon
        default: nil
        }
        if let simple {
            index += 1
            return FilterToken(kind: simple, range: range(from: start))
        }
        if s == "\"" || s == "'" { return try string(quote: s) }
        if FilterLexer.isDigit(s) || (s == "-" && peek(1).map(FilterLexer.isDigit) == true) { return try number() }
        if s == "." {
            index += 1
            return FilterToken(kind: .dot, range: range(from: start))
        }
        if s == "$" || s == "#" || s == "@" {
            index += 1
            let nameStart = index
            while let c = peek(), FilterLexer.isIdentifierContinue(c) { index += 1 }
            guard index > nameStart, FilterLexer.isIdentifierStart(scalars[nameStart]) else {
                let what = s == "$" ? "a variable name" : s == "#" ? "a key" : "a collection operator (@count, @sum, @avg, @min, @max)"
                throw FilterError("expected \(what) after '\(s)'", column: start + 1, length: 1)
            }
            let name = String(String.UnicodeScalarView(scalars[nameStart..<index]))
            let kind: FilterToken.Kind = s == "$" ? .variable(name) : s == "#" ? .escapedIdentifier(name) : .collectionOperator(name)
            return FilterToken(kind: kind, range: range(from: start))
        }
        if FilterLexer.isIdentifierStart(s) {
            while let c = peek(), FilterLexer.isIdentifierContinue(c) { index += 1 }
            return FilterToken(kind: .identifier(String(String.UnicodeScalarView(scalars[start..<index]))), range: range(from: start))
        }
        if FilterLexer.symbolScalars.contains(s) {
            // The longest known operator (`&&!` is `&&` then `!`); else the whole run, which the
            // parser reports as an unknown operator.
            for op in FilterLexer.knownSymbols {
                let opScalars = Array(op.unicodeScalars)
                if index + opScalars.count <= scalars.count, Array(scalars[index..<(index + opScalars.count)]) == opScalars {
                    index += opScalars.count
                    return FilterToken(kind: .symbol(op), range: range(from: start))
                }
            }
            while let c = peek(), FilterLexer.symbolScalars.contains(c) { index += 1 }
            return FilterToken(kind: .symbol(String(String.UnicodeScalarView(scalars[start..<index]))), range: range(from: start))
        }
        throw FilterError("unexpected character '\(s.escaped(asASCII: false))'", column: start + 1, length: 1)
    }

    /// A number: `-`? digits (`.` digits)? ([eE] [+-]? digits)?, the JSON shape plus leading zeros.
    private mutating func number() throws(FilterError) -> FilterToken {
        let start = index
        if peek() == "-" { index += 1 }
        while let c = peek(), FilterLexer.isDigit(c) { index += 1 }
        if peek() == ".", let d = peek(1), FilterLexer.isDigit(d) {
            index += 1
            while let c = peek(), FilterLexer.isDigit(c) { index += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            var look = 1
            if let sign = peek(1), sign == "+" || sign == "-" { look = 2 }
            if let d = peek(look), FilterLexer.isDigit(d) {
                index += look
                while let c = peek(), FilterLexer.isDigit(c) { index += 1 }
            }
        }
        if let c = peek(), FilterLexer.isIdentifierStart(c) {
            while let c = peek(), FilterLexer.isIdentifierContinue(c) { index += 1 }
            throw FilterError("malformed number", at: range(from: start))
        }
        return FilterToken(kind: .number(String(String.UnicodeScalarView(scalars[start..<index]))), range: range(from: start))
    }

    /// A quoted string with `\"`, `\'`, `\\`, `\n`, `\t`, `\r`, `\0` and `\uXXXX` escapes (a
    /// surrogate pair written as two `\u` escapes is joined).
    private mutating func string(quote: Unicode.Scalar) throws(FilterError) -> FilterToken {
        let start = index
        index += 1
        var text = String.UnicodeScalarView()
        while true {
            guard let c = peek() else {
                throw FilterError("unterminated string: no closing \(quote)", column: start + 1, length: index - start)
            }
            if c == quote {
                index += 1
                return FilterToken(kind: .string(String(text)), range: range(from: start))
            }
            guard c == "\\" else {
                text.append(c)
                index += 1
                continue
            }
            let escapeStart = index
            guard let e = peek(1) else {
                throw FilterError("unterminated string: no closing \(quote)", column: start + 1, length: index + 1 - start)
            }
            index += 2
            switch e {
            case "\"", "'", "\\", "/": text.append(e)
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\0")
            case "u":
                let high = try hex4(escapeStart: escapeStart)
                if (0xD800..<0xDC00).contains(high), peek() == "\\", peek(1) == "u" {
                    index += 2
                    let low = try hex4(escapeStart: escapeStart)
                    guard (0xDC00..<0xE000).contains(low),
                        let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                    else {
                        throw FilterError("invalid surrogate pair in \\u escape", column: escapeStart + 1, length: index - escapeStart)
                    }
                    text.append(scalar)
                } else if let scalar = Unicode.Scalar(high) {
                    text.append(scalar)
                } else {
                    throw FilterError("unpaired surrogate in \\u escape", column: escapeStart + 1, length: index - escapeStart)
                }
            default:
                throw FilterError("unknown escape '\\\(e)' in string", column: escapeStart + 1, length: 2)
            }
        }
    }

    private mutating func hex4(escapeStart: Int) throws(FilterError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = peek(), let digit = hexValue(c) else {
                throw FilterError("\\u needs four hexadecimal digits", column: escapeStart + 1, length: index - escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 0x30
        case "a"..."f": return c.value - 0x61 + 10
        case "A"..."F": return c.value - 0x41 + 10
        default: return nil
        }
    }
}
