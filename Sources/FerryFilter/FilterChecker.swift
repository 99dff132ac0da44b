import Foundation

/// The type checks behind `FilterSchema.check`: resolves key paths against field types and tests
/// each comparison's operator and constants against them.
struct FilterChecker {
    let fields: [String: FilterFieldType]

    func check(_ expression: FilterExpression) throws(FilterError) {
        switch expression {
        case .and(let l, let r), .or(let l, let r):
            try check(l)
            try check(r)
        case .not(let inner, _):
            try check(inner)
        case .constant:
            break
        case .comparison(let c):
            try check(c)
        case .literal, .keyPath, .variable, .aggregate:
            // A bare operand is not a predicate; the parser never produces one at this level.
            break
        }
    }

    // MARK: Key paths

    /// The type a key path names (a list for keys applied through a list: `smells.label` is a
    /// list of strings).
    /// - Throws: `FilterError` for an unknown key (with suggestions), a key applied to a scalar,
    ///   a collection operator on a non-list.
    func type(of path: FilterKeyPath) throws(FilterError) -> FilterFieldType {
        var current: FilterFieldType = .object(fields)
        for (index, component) in path.components.enumerated() {
            let range = path.range(ofComponent: index) ?? FilterSourceRange(column: 1, length: 1)
            switch component {
            case .key(let name):
                var base = current
                var throughList = false
                while case .list(let item) = base {
                    base = item
                    throughList = true
                }
                guard case .object(let members) = base else {
                    throw FilterError(
                        "'\(path.prefixDescription(index))' is \(current); it has no key '\(name)'", at: range)
                }
                guard let type = members[name] else {
                    var message = FilterChecker.unknownMessage("key", name, candidates: Array(members.keys), listName: "keys")
                    if index > 0 { message = message.replacingFirst("'\(name)'", with: "'\(name)' in '\(path.prefixDescription(index))'") }
                    throw FilterError(message, at: range)
                }
                if throughList {
                    if case .list(let inner) = type { current = .list(of: inner) } else { current = .list(of: type) }
                } else {
                    current = type
                }
            case .count:
                guard case .list = current else {
                    throw FilterError("@count needs a list; '\(path.prefixDescription(index))' is \(current)", at: range)
                }
                current = .number
            case .sum, .average, .minimum, .maximum:
                guard case .list(let item) = current, item == .number else {
                    throw FilterError(
                        "\(component) needs a list of numbers; '\(path.prefixDescription(index))' is \(current)", at: range)
                }
                current = item
            }
        }
        return current
    }

    // MARK: Comparisons

    private func check(_ c: FilterComparison) throws(FilterError) {
        let opRange = c.operatorRange ?? c.left.range ?? FilterSourceRange(column: 1, length: 1)
        // The typed side: the left key path, or the right one when the left is a constant.
        switch (c.left, c.right) {
        case (.keyPath(let path), _):
            var type = try self.type(of: path)
            let name = path.description
            if let quantifier = c.quantifier {
                guard case .list(let item) = type else {
                    let range = (c.quantifierRange ?? opRange).union(path.range ?? opRange)
                    throw FilterError("\(quantifier.rawValue) needs a list; '\(name)' is \(type)", at: range)
                }
                type = item
            }
            try check(type: type, name: name, nameRange: path.range ?? opRange, op: c.op, options: c.options, opRange: opRange, other: c.right)
        case (_, .keyPath(let path)):
            let type = try self.type(of: path)
            let name = path.description
            switch c.op {
            case .in:
                // constant IN listKeyPath: the constant must fit the items; IN a string: substring.
                if case .list(let item) = type {
                    try check(type: item, name: name, nameRange: path.range ?? opRange, op: .equal, options: c.options, opRange: opRange, other: c.left)
                } else if !type.isText {
                    throw FilterError("IN needs a list or a string on its right; '\(name)' is \(type)", at: path.range ?? opRange)
                }
            default:
                try check(type: type, name: name, nameRange: path.range ?? opRange, op: c.op.mirrored, options: c.options, opRange: opRange, other: c.left)
            }
        default:
            break
        }
    }

    /// Checks `name op other` for a field of type `type`.
    private func check(
        type: FilterFieldType, name: String, nameRange: FilterSourceRange, op: FilterComparison.Operator,
        options: FilterComparison.Options, opRange: FilterSourceRange, other: FilterExpression
    ) throws(FilterError) {
        let opName = op.rawValue
        switch type {
        case .list(let item):
            if op == .contains {
                try check(type: item, name: name + " items", nameRange: nameRange, op: .equal, options: options, opRange: opRange, other: other)
                return
            }
            throw FilterError(
                "'\(name)' is \(type); use ANY, ALL or NONE to compare its items, or CONTAINS to look for one", at: nameRange)
        case .object(let members):
            if (op == .equal || op == .notEqual), case .literal(.null, _) = other { return }
            throw FilterError(
                "'\(name)' is an object; compare one of its keys: \(members.keys.sorted().joined(separator: ", "))", at: nameRange)
        case .number:
            if op.isStringOnly || op == .contains {
                throw FilterError("\(opName) needs a string; '\(name)' is a number", at: opRange)
            }
        case .bool:
            if op != .equal && op != .notEqual && op != .in {
                throw FilterError("'\(opName)' does not apply to '\(name)' (a boolean); use == or !=", at: opRange)
            }
        case .instant, .day:
            if op.isStringOnly || op == .contains {
                throw FilterError("\(opName) needs a string; '\(name)' is \(type)", at: opRange)
            }
        case .string, .enumeration:
            break
        }
        // The constants on the other side.
        let constants: [FilterExpression]
        switch other {
        case .aggregate(let items, _): constants = items
        case .literal: constants = [other]
        case .keyPath(let path):
            let otherType = try self.type(of: path)
            if !FilterChecker.comparable(type, otherType) {
                throw FilterError("cannot compare '\(name)' (\(type)) with '\(path)' (\(otherType))", at: path.range ?? opRange)
            }
            return
        default: constants = []
        }
        for constant in constants {
            guard case .literal(let literal, let range) = constant else { continue }
            try check(literal: literal, range: range ?? opRange, type: type, name: name, op: op, options: options)
        }
    }

    private func check(
        literal: FilterLiteral, range: FilterSourceRange, type: FilterFieldType, name: String,
        op: FilterComparison.Operator, options: FilterComparison.Options
    ) throws(FilterError) {
        if case .null = literal {
            if op == .equal || op == .notEqual || op == .in { return }
            throw FilterError("'\(op.rawValue)' with NIL is never true; use == NIL or != NIL", at: range)
        }
        let wanted: String
        switch (type, literal) {
        case (.number, .number), (.bool, .bool), (.string, .string):
            return
        case (.instant, .string(let text)), (.day, .string(let text)):
            if FilterInstant.parse(text, timeZone: .gmt) != nil { return }
            throw FilterError(
                "\(FilterLiteral.quoted(text)) is not a date; '\(name)' is \(type): write an RFC 3339 instant (2024-01-01T00:00:00Z) or a day (2024-01-01)",
                at: range)
        case (.enumeration(let cases), .string(let text)):
            guard op == .equal || op == .notEqual || op == .in else { return }
            let fold = { (s: String) in TextMatcher.fold(s, options) }
            if cases.contains(where: { fold($0) == fold(text) }) { return }
            throw FilterError(
                FilterChecker.unknownMessage("value", text, candidates: cases, listName: "values", of: name), at: range)
        case (.number, _): wanted = "a number"
        case (.bool, _): wanted = "TRUE or FALSE"
        case (.instant, _), (.day, _): wanted = "a date string such as \"2024-01-01\""
        case (.string, _), (.enumeration, _): wanted = "a string"
        case (.list, _), (.object, _): return
        }
        throw FilterError("'\(name)' is \(type); compare it with \(wanted), not \(literal.kindName)", at: range)
    }

    static func comparable(_ a: FilterFieldType, _ b: FilterFieldType) -> Bool {
        switch (a, b) {
        case (.number, .number), (.bool, .bool): return true
        case _ where a.isText && b.isText: return true
        case _ where a.isDate && b.isDate: return true
        case (.list(let x), .list(let y)): return comparable(x, y)
        default: return false
        }
    }

    // MARK: Suggestions

    /// `unknown key 'ratng'; did you mean 'rating'? keys: rating, title, ...`: the candidates by
    /// edit distance (closest first, then by name); "did you mean" when the closest is near enough.
    static func unknownMessage(
        _ what: String, _ name: String, candidates: [String], listName: String, of owner: String? = nil
    ) -> String {
        let ranked = candidates.map { ($0, editDistance(name, $0)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        var message = "unknown \(what) '\(name)'" + (owner.map { " of '\($0)'" } ?? "")
        if let best = ranked.first, best.1 <= max(2, name.count / 3), best.1 < max(name.count, 2) {
            message += "; did you mean '\(best.0)'?"
        }
        if !ranked.isEmpty {
            message += (message.hasSuffix("?") ? " " : "; ") + "\(listName): " + ranked.map(\.0).joined(separator: ", ")
        }
        return message
    }

    /// Levenshtein distance over Unicode scalars, ignoring ASCII case.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased().unicodeScalars)
        let y = Array(b.lowercased().unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous = Array(0...y.count)
        var row = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            row[0] = i
            for j in 1...y.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&previous, &row)
        }
        return previous[y.count]
    }
}

extension FilterLiteral {
    /// `a string`, `a number`, `TRUE`/`FALSE`, `NIL`, for messages.
    var kindName: String {
        switch self {
        case .null: return "NIL"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        }
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
