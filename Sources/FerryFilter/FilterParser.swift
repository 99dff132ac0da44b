/// A recursive-descent parser for the filter language (grammar in `Docs/filters.md`), with
/// NSPredicate's precedence: `NOT` binds tighter than `AND`, which binds tighter than `OR`; `AND`
/// and `OR` group to the left.
struct FilterParser {
    private let tokens: [FilterToken]
    private var position = 0
    private var depth = 0

    init(_ source: String) throws(FilterError) {
        self.tokens = try FilterLexer.tokenize(source)
    }

    private var current: FilterToken { tokens[min(position, tokens.count - 1)] }
    private var nextToken: FilterToken { tokens[min(position + 1, tokens.count - 1)] }

    private mutating func advance() -> FilterToken {
        let token = current
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    private func keyword(_ token: FilterToken) -> FilterKeyword? {
        if case .identifier(let name) = token.kind { return FilterKeyword(identifier: name) }
        return nil
    }

    private func isSymbol(_ token: FilterToken, _ symbols: String...) -> Bool {
        if case .symbol(let s) = token.kind { return symbols.contains(s) }
        return false
    }

    // MARK: Entry points

    /// `[IDENT ':'] predicate EOF`.
    mutating func parseQuery() throws(FilterError) -> FilterQuery {
        var collection: String?
        var collectionRange: FilterSourceRange?
        if nextToken.kind == .colon {
            switch current.kind {
            case .identifier(let name) where keyword(current) == nil, .escapedIdentifier(let name):
                collection = name
                collectionRange = current.range
                _ = advance()
                _ = advance()
            default:
                throw FilterError("expected a collection name before ':'", at: current.range)
            }
        }
        let expression = try parseExpressionOnly()
        return FilterQuery(collection: collection, collectionRange: collectionRange, expression: expression)
    }

    /// `predicate EOF`.
    mutating func parseExpressionOnly() throws(FilterError) -> FilterExpression {
        if current.kind == .end {
            throw FilterError("empty filter: expected a comparison such as rating >= 4", at: current.range)
        }
        let expression = try parseOr()
        switch current.kind {
        case .end:
            return expression
        case .rightParen:
            throw FilterError("unbalanced parentheses: ')' has no matching '('", at: current.range)
        default:
            throw FilterError("expected AND, OR or the end of the filter, found \(current.quoted)", at: current.range)
        }
    }

    // MARK: Logical operators

    private mutating func parseOr() throws(FilterError) -> FilterExpression {
        var left = try parseAnd()
        while keyword(current) == .or || isSymbol(current, "||") {
            _ = advance()
            let right = try parseAnd()
            left = .or(left, right)
        }
        return left
    }

    private mutating func parseAnd() throws(FilterError) -> FilterExpression {
        var left = try parseNot()
        while keyword(current) == .and || isSymbol(current, "&&") {
            _ = advance()
            let right = try parseNot()
            left = .and(left, right)
        }
        return left
    }

    private mutating func parseNot() throws(FilterError) -> FilterExpression {
        if keyword(current) == .not || isSymbol(current, "!") {
            let token = advance()
            try enter(token)
            defer { depth -= 1 }
            let inner = try parseNot()
            return .not(inner, range: token.range)
        }
        return try parsePrimary()
    }

    /// The deepest nesting of parentheses, braces and `NOT`s accepted (DESIGN.md "Limits": 512).
    static let maximumDepth = 512

    private mutating func enter(_ token: FilterToken) throws(FilterError) {
        depth += 1
        if depth > FilterParser.maximumDepth {
            throw FilterError("nesting deeper than \(FilterParser.maximumDepth) levels", at: token.range)
        }
    }

    private mutating func parsePrimary() throws(FilterError) -> FilterExpression {
        if current.kind == .leftParen {
            let open = advance()
            try enter(open)
            defer { depth -= 1 }
            let inner = try parseOr()
            switch current.kind {
            case .rightParen:
                _ = advance()
                return inner
            case .end:
                throw FilterError("unbalanced parentheses: '(' at column \(open.range.column) is never closed", at: open.range)
            default:
                throw FilterError("expected ')' or AND/OR, found \(current.quoted)", at: current.range)
            }
        }
        switch keyword(current) {
        case .truePredicate: return .constant(true, range: advance().range)
        case .falsePredicate: return .constant(false, range: advance().range)
        default: return try parseComparison()
        }
    }

    // MARK: Comparisons

    private mutating func parseComparison() throws(FilterError) -> FilterExpression {
        var quantifier: FilterComparison.Quantifier?
        var quantifierRange: FilterSourceRange?
        switch keyword(current) {
        case FilterKeyword.any?, FilterKeyword.some?: quantifier = .any
        case FilterKeyword.all?: quantifier = .all
        case FilterKeyword.none?: quantifier = FilterComparison.Quantifier.none
        default: break
        }
        if quantifier != nil { quantifierRange = advance().range }

        let left = try parseOperand(after: nil)
        if let quantifier, let quantifierRange, !left.isKeyPath {
            throw FilterError(
                "\(quantifier.rawValue) must be followed by a key path naming a list",
                at: left.range.map { quantifierRange.union($0) } ?? quantifierRange)
        }
        let opToken = current
        let op = try parseOperator(after: left)
        var options: FilterComparison.Options = []
        if current.kind == .leftBracket {
            options = try parseOptions()
        }
        let right = try parseOperand(after: opToken)
        try checkShape(op: op, opToken: opToken, right: right)
        if op == .matches, case .literal(.string(let pattern), let range) = right {
            // A bad pattern is a usage error now, not a silent no-match later.
            _ = try PreparedConstant.compileRegex(pattern, options: options, range: range)
        }
        return .comparison(
            FilterComparison(
                quantifier: quantifier, quantifierRange: quantifierRange, left: left, op: op,
                operatorRange: opToken.range, options: options, right: right))
    }

    private mutating func parseOperator(after left: FilterExpression) throws(FilterError) -> FilterComparison.Operator {
        let token = current
        let op: FilterComparison.Operator?
        switch token.kind {
        case .symbol(let s):
            switch s {
            case "==", "=": op = .equal
            case "!=", "<>": op = .notEqual
            case "<": op = .less
            case "<=", "=<": op = .lessOrEqual
            case ">": op = .greater
            case ">=", "=>": op = .greaterOrEqual
            default: op = nil
            }
            if op == nil { throw FilterError("unknown operator '\(s)'; \(FilterParser.operatorList)", at: token.range) }
        case .identifier(let word):
            switch keyword(token) {
            case .between: op = .between
            case .in: op = .in
            case .beginsWith: op = .beginsWith
            case .endsWith: op = .endsWith
            case .contains: op = .contains
            case .like: op = .like
            case .matches: op = .matches
            default: throw FilterError("unknown operator '\(word)'; \(FilterParser.operatorList)", at: token.range)
            }
        case .end:
            throw FilterError("expected an operator after '\(left.description)', found end of input", at: token.range)
        default:
            throw FilterError("expected an operator after '\(left.description)', found \(token.quoted)", at: token.range)
        }
        _ = advance()
        return op ?? .equal
    }

    static let operatorList =
        "expected one of ==, !=, <, <=, >, >=, BETWEEN, IN, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES"

    /// `[c]`, `[d]`, `[cd]` (`[dc]` too).
    private mutating func parseOptions() throws(FilterError) -> FilterComparison.Options {
        let open = advance()
        guard case .identifier(let letters) = current.kind else {
            throw FilterError("expected c, d or cd inside [ ]", at: current.range)
        }
        let lettersToken = advance()
        var options: FilterComparison.Options = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            default:
                throw FilterError("unknown modifier '\(letter)'; supported: [c], [d], [cd]", at: lettersToken.range)
            }
        }
        guard current.kind == .rightBracket else {
            throw FilterError("expected ']' to close the modifier opened at column \(open.range.column)", at: current.range)
        }
        _ = advance()
        return options
    }

    /// `BETWEEN` needs `{low, high}` (or a variable); `IN` needs an aggregate, a key path, a
    /// variable or a string.
    private func checkShape(op: FilterComparison.Operator, opToken: FilterToken, right: FilterExpression) throws(FilterError) {
        switch (op, right) {
        case (.between, .aggregate(let items, let range)):
            if items.count != 2 {
                throw FilterError("BETWEEN needs two values {low, high}, found \(items.count)", at: range ?? opToken.range)
            }
        case (.between, .variable):
            break
        case (.between, _):
            throw FilterError("BETWEEN needs two values {low, high}", at: right.range ?? opToken.range)
        case (.in, .literal(let literal, let range)):
            if case .string = literal { break }
            throw FilterError("IN needs {a, b, ...}, a list key path or a string", at: range ?? opToken.range)
        default:
            break
        }
    }

    // MARK: Operands

    /// A constant, a variable, a key path or an aggregate.
    /// - Parameter after: the operator before it, for "expected a value after '=='" messages.
    private mutating func parseOperand(after op: FilterToken?) throws(FilterError) -> FilterExpression {
        let token = current
        switch token.kind {
        case .number(let text):
            _ = advance()
            return .literal(.number(text), range: token.range)
        case .string(let text):
            _ = advance()
            return .literal(.string(text), range: token.range)
        case .variable(let name):
            _ = advance()
            return .variable(name, range: token.range)
        case .leftBrace:
            return try parseAggregate()
        case .escapedIdentifier:
            return try parseKeyPath()
        case .identifier(let word):
            switch keyword(token) {
            case nil:
                return try parseKeyPath()
            case .true?, .yes?:
                _ = advance()
                return .literal(.bool(true), range: token.range)
            case .false?, .no?:
                _ = advance()
                return .literal(.bool(false), range: token.range)
            case .nil?, .null?:
                _ = advance()
                return .literal(.null, range: token.range)
            case .subquery?, .function?, .self?, .first?, .last?, .size?:
                throw FilterError(
                    "\(word.uppercased()) is not supported (see Docs/filters.md); write a key with # to use it as a name",
                    at: token.range)
            default:
                break
            }
        default:
            break
        }
        let found = token.kind == .end ? "end of input" : token.quoted
        if let op {
            throw FilterError("expected a value after \(op.quoted), found \(found)", at: token.range)
        }
        throw FilterError("expected a key path or a value, found \(found)", at: token.range)
    }

    private mutating func parseKeyPath() throws(FilterError) -> FilterExpression {
        var components: [FilterKeyPath.Component] = []
        var ranges: [FilterSourceRange] = []
        while true {
            let token = advance()
            switch token.kind {
            case .identifier(let name), .escapedIdentifier(let name):
                if let last = components.last, last.isCollectionOperator {
                    throw FilterError("\(last) must end the key path", at: ranges[ranges.count - 1])
                }
                components.append(.key(name))
            case .collectionOperator(let name):
                if components.isEmpty || components.last?.isCollectionOperator == true {
                    throw FilterError("@\(name) must follow a key naming a list", at: token.range)
                }
                switch name {
                case "count": components.append(.count)
                case "sum": components.append(.sum)
                case "avg": components.append(.average)
                case "min": components.append(.minimum)
                case "max": components.append(.maximum)
                default:
                    throw FilterError(
                        "unknown collection operator '@\(name)'; supported: @count, @sum, @avg, @min, @max",
                        at: token.range)
                }
            default:
                throw FilterError("expected a key after '.', found \(token.quoted)", at: token.range)
            }
            ranges.append(token.range)
            if current.kind == .leftBracket {
                throw FilterError("indexing with [ ] is not supported; use ANY, ALL or NONE over the list", at: current.range)
            }
            guard current.kind == .dot else { break }
            _ = advance()
        }
        return .keyPath(FilterKeyPath(components, componentRanges: ranges))
    }

    private mutating func parseAggregate() throws(FilterError) -> FilterExpression {
        let open = advance()
        // `{` nests through parseOperand before its items are checked: count it like `(`.
        try enter(open)
        defer { depth -= 1 }
        var items: [FilterExpression] = []
        if current.kind == .rightBrace {
            return .aggregate([], range: open.range.union(advance().range))
        }
        while true {
            let item = try parseOperand(after: items.isEmpty ? open : nil)
            switch item {
            case .literal, .variable: items.append(item)
            default:
                throw FilterError("items of { } must be constants or variables", at: item.range ?? open.range)
            }
            switch current.kind {
            case .comma:
                _ = advance()
            case .rightBrace:
                return .aggregate(items, range: open.range.union(advance().range))
            case .end:
                throw FilterError("unbalanced braces: '{' at column \(open.range.column) is never closed", at: open.range)
            default:
                throw FilterError("expected ',' or '}', found \(current.quoted)", at: current.range)
            }
        }
    }
}

extension FilterExpression {
    var isKeyPath: Bool {
        if case .keyPath = self { return true }
        return false
    }
}
