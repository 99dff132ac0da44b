import FerryCore

extension FilterExpression {
    /// This expression with every `$NAME` replaced by `variables[NAME]` (`--var NAME=VALUE`),
    /// keeping the variable's source range. Strings, numbers, booleans and null become constants;
    /// an array becomes a `{...}` aggregate of them.
    /// - Throws: `FilterError` at the variable for an unset one, or one holding an object or a
    ///   nested list.
    public func substituting(_ variables: [String: Value]) throws(FilterError) -> FilterExpression {
        switch self {
        case .literal, .keyPath, .constant:
            return self
        case .variable(let name, let range):
            guard let value = variables[name] else {
                throw FilterError(
                    "unset variable '$\(name)'; give it with --var \(name)=VALUE",
                    at: range ?? FilterSourceRange(column: 1, length: name.unicodeScalars.count + 1))
            }
            return try FilterExpression.constant(from: value, name: name, range: range, allowList: true)
        case .aggregate(let items, let range):
            var substituted: [FilterExpression] = []
            for item in items {
                if case .variable(let name, let itemRange) = item {
                    guard let value = variables[name] else { return try item.substituting(variables) }
                    substituted.append(try FilterExpression.constant(from: value, name: name, range: itemRange, allowList: false))
                } else {
                    substituted.append(item)
                }
            }
            return .aggregate(substituted, range: range)
        case .comparison(var c):
            c.left = try c.left.substituting(variables)
            c.right = try c.right.substituting(variables)
            return .comparison(c)
        case .and(let l, let r):
            return .and(try l.substituting(variables), try r.substituting(variables))
        case .or(let l, let r):
            return .or(try l.substituting(variables), try r.substituting(variables))
        case .not(let inner, let range):
            return .not(try inner.substituting(variables), range: range)
        }
    }

    private static func constant(
        from value: Value, name: String, range: FilterSourceRange?, allowList: Bool
    ) throws(FilterError) -> FilterExpression {
        let errorRange = range ?? FilterSourceRange(column: 1, length: name.unicodeScalars.count + 1)
        switch value {
        case .null: return .literal(.null, range: range)
        case .bool(let b): return .literal(.bool(b), range: range)
        case .integer(let i): return .literal(.number(String(i)), range: range)
        case .double(let d):
            guard let text = NumberText.ecmaScript(d) else {
                throw FilterError("variable '$\(name)' is not a finite number", at: errorRange)
            }
            return .literal(.number(text), range: range)
        case .number(let text): return .literal(.number(text), range: range)
        case .string(let s): return .literal(.string(s), range: range)
        case .array(let items) where allowList:
            var constants: [FilterExpression] = []
            for item in items {
                constants.append(try constant(from: item, name: name, range: range, allowList: false))
            }
            return .aggregate(constants, range: range)
        case .array, .object:
            throw FilterError(
                "variable '$\(name)' holds \(value.kindName == "array" ? "a nested list" : "an object"); only strings, numbers, booleans, NIL and lists of them can be used",
                at: errorRange)
        }
    }
}
