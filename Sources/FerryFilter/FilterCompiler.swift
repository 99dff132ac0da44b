import FerryCore
import Foundation

/// Turns a checked, variable-free expression into `FilterNode`s: flattens `AND`/`OR` chains,
/// puts the key path on the left of ordering comparisons, and prepares constants for the type the
/// schema gives the field (or dynamically without a schema).
struct FilterCompiler {
    let checker: FilterChecker?
    let timeZone: TimeZone

    func compile(_ expression: FilterExpression) throws(FilterError) -> FilterNode {
        switch expression {
        case .constant(let b, _):
            return .constant(b)
        case .and:
            var nodes: [FilterNode] = []
            try flatten(expression, isAnd: true, into: &nodes)
            return .and(nodes)
        case .or:
            var nodes: [FilterNode] = []
            try flatten(expression, isAnd: false, into: &nodes)
            return .or(nodes)
        case .not(let inner, _):
            return .not(try compile(inner))
        case .comparison(let c):
            return .comparison(try compile(c))
        case .literal, .keyPath, .variable, .aggregate:
            throw FilterError("expected a comparison, found \(expression)", at: expression.range ?? FilterSourceRange(column: 1, length: 1))
        }
    }

    private func flatten(_ expression: FilterExpression, isAnd: Bool, into nodes: inout [FilterNode]) throws(FilterError) {
        switch (expression, isAnd) {
        case (.and(let l, let r), true), (.or(let l, let r), false):
            try flatten(l, isAnd: isAnd, into: &nodes)
            try flatten(r, isAnd: isAnd, into: &nodes)
        default:
            nodes.append(try compile(expression))
        }
    }

    private func compile(_ c: FilterComparison) throws(FilterError) -> CompiledComparison {
        var left = c.left
        var right = c.right
        var op = c.op
        // `4 <= rating` is `rating >= 4`: the key path goes left so the constant is prepared once.
        if c.quantifier == nil, !left.isKeyPath, right.isKeyPath, op.isOrdering || op == .equal || op == .notEqual {
            swap(&left, &right)
            op = op.mirrored
        }
        let reading = self.reading(of: left, quantified: c.quantifier != nil, op: op)
        if case .variable(let name, let range) = right {
            throw FilterError("unset variable '$\(name)'", at: range ?? FilterSourceRange(column: 1, length: 1))
        }
        if op == .between {
            guard case .aggregate(let items, let range) = right, items.count == 2 else {
                throw FilterError("BETWEEN needs two values {low, high}", at: right.range ?? c.operatorRange ?? FilterSourceRange(column: 1, length: 1))
            }
            _ = range
        }
        return CompiledComparison(
            quantifier: c.quantifier,
            left: try operand(left, op: op, options: c.options, reading: reading),
            op: op,
            options: c.options,
            right: try operand(right, op: op, options: c.options, reading: reading),
            timeZone: timeZone)
    }

    private func operand(
        _ expression: FilterExpression, op: FilterComparison.Operator, options: FilterComparison.Options,
        reading: PreparedConstant.Reading
    ) throws(FilterError) -> CompiledOperand {
        switch expression {
        case .keyPath(let path):
            return .path(path.components[...])
        case .literal(let literal, let range):
            return .constant(try PreparedConstant(literal.value, op: op, options: options, reading: reading, timeZone: timeZone, range: range))
        case .aggregate(let items, _):
            var prepared: [PreparedConstant] = []
            for item in items {
                guard case .literal(let literal, let range) = item else {
                    throw FilterError("items of { } must be constants", at: item.range ?? FilterSourceRange(column: 1, length: 1))
                }
                prepared.append(try PreparedConstant(literal.value, op: op == .in ? .equal : op, options: options, reading: reading, timeZone: timeZone, range: range))
            }
            return .list(prepared)
        case .variable(let name, let range):
            throw FilterError("unset variable '$\(name)'", at: range ?? FilterSourceRange(column: 1, length: 1))
        default:
            throw FilterError("expected a value, found \(expression)", at: expression.range ?? FilterSourceRange(column: 1, length: 1))
        }
    }

    /// How constants compared with `left` are read, from the schema type of its key path.
    private func reading(of left: FilterExpression, quantified: Bool, op: FilterComparison.Operator) -> PreparedConstant.Reading {
        guard let checker, case .keyPath(let path) = left, var type = try? checker.type(of: path) else { return .dynamic }
        if quantified || op == .contains, case .list(let item) = type { type = item }
        switch type {
        case .string, .enumeration: return .text
        case .number: return .number
        case .bool: return .bool
        case .instant, .day: return .date
        case .list, .object: return .dynamic
        }
    }
}
