import FerryCore
import Foundation

/// One side of a compiled comparison.
enum CompiledOperand {
    case path(ArraySlice<FilterKeyPath.Component>)
    case constant(PreparedConstant)
    case list([PreparedConstant])
}

/// A comparison ready to evaluate. Semantics follow NSPredicate: a missing key is nil; `== NIL`
/// is true for a missing or null value; other comparisons with nil are false and `!=` is the
/// negation of `==`.
///
/// A class, so evaluation passes one reference around instead of copying its fields.
final class CompiledComparison: @unchecked Sendable {
    let quantifier: FilterComparison.Quantifier?
    let left: CompiledOperand
    let op: FilterComparison.Operator
    let options: FilterComparison.Options
    let right: CompiledOperand
    let timeZone: TimeZone

    init(
        quantifier: FilterComparison.Quantifier?, left: CompiledOperand, op: FilterComparison.Operator,
        options: FilterComparison.Options, right: CompiledOperand, timeZone: TimeZone
    ) {
        self.quantifier = quantifier
        self.left = left
        self.op = op
        self.options = options
        self.right = right
        self.timeZone = timeZone
    }

    func evaluate(_ record: Value) -> Bool {
        if let quantifier, case .path(let path) = left {
            var matched = false
            var failed = false
            _ = CompiledComparison.visit(path, record) { item in
                if test(item, record) {
                    matched = true
                    return quantifier == .all
                } else {
                    failed = true
                    return quantifier != .all
                }
            }
            switch quantifier {
            case .any: return matched
            case .all: return !failed
            case .none: return !matched
            }
        }
        let value: Value?
        switch left {
        case .path(let path): value = CompiledComparison.resolve(path, record)
        case .constant(let c): value = c.value
        case .list(let items): value = .array(items.map(\.value))
        }
        return test(value, record)
    }

    /// `left op right` for one left value.
    private func test(_ left: Value?, _ record: Value) -> Bool {
        switch right {
        case .constant(let constant):
            return apply(left, constant)
        case .list(let items):
            if op == .between {
                guard items.count == 2, let low = order(left, items[0]), let high = order(left, items[1]) else { return false }
                return low >= 0 && high <= 0
            }
            if op == .in {
                for item in items where equal(left, item) { return true }
                return false
            }
            return false
        case .path(let path):
            let resolved = CompiledComparison.resolve(path, record)
            if op == .in {
                switch resolved {
                case .array(let items)?:
                    for item in items {
                        if let prepared = PreparedConstant.runtime(item, op: .equal, options: options, timeZone: timeZone),
                            equal(left, prepared)
                        {
                            return true
                        }
                    }
                    return false
                case .string(let text)?:
                    guard let needle = CompiledComparison.text(of: left) else { return false }
                    return CompiledComparison.contains(text, needle, options)
                default:
                    return false
                }
            }
            guard let prepared = PreparedConstant.runtime(resolved ?? .null, op: op, options: options, timeZone: timeZone)
            else { return false }
            return apply(left, prepared)
        }
    }

    private func apply(_ left: Value?, _ right: PreparedConstant) -> Bool {
        switch op {
        case .equal: return equal(left, right)
        case .notEqual: return !equal(left, right)
        case .less: return order(left, right).map { $0 < 0 } ?? false
        case .lessOrEqual: return order(left, right).map { $0 <= 0 } ?? false
        case .greater: return order(left, right).map { $0 > 0 } ?? false
        case .greaterOrEqual: return order(left, right).map { $0 >= 0 } ?? false
        case .between, .in:
            if op == .in, case .string = right.kind, let text = CompiledComparison.text(of: left) {
                // "oak" IN "dark oak": substring of the right side.
                return CompiledComparison.contains(right.value.stringValue ?? "", text, options)
            }
            return false
        case .contains:
            if case .array(let items)? = left {
                for item in items where equal(item, right) { return true }
                return false
            }
            return stringMatch(left, right, TextMatcher.contains)
        case .beginsWith: return stringMatch(left, right, TextMatcher.hasPrefix)
        case .endsWith: return stringMatch(left, right, TextMatcher.hasSuffix)
        case .like: return stringMatch(left, right, TextMatcher.like)
        case .matches:
            guard let text = CompiledComparison.text(of: left), let regex = right.regex else { return false }
            let subject = options.contains(.diacriticInsensitive) ? TextMatcher.fold(text, [.diacriticInsensitive]) : text
            let length = subject.utf16.count
            return regex.firstMatch(in: subject, options: [], range: NSRange(location: 0, length: length)) != nil
        }
    }

    /// True when `haystack` contains `needle`, both folded for `options` (the slow path of `IN`
    /// with a string on the right).
    private static func contains(_ haystack: String, _ needle: String, _ options: FilterComparison.Options) -> Bool {
        let foldedNeedle = Array(TextMatcher.fold(needle, options).utf8)
        return foldedNeedle.withUnsafeBufferPointer { pattern in
            TextMatcher.withFolded(haystack, options) { TextMatcher.contains($0, pattern, lower: $1) }
        }
    }

    /// The text string operators see: a string, or the source text of an untyped number.
    private static func text(of value: Value?) -> String? {
        switch value {
        case .string(let s)?: return s
        case .number(let s)?: return s
        default: return nil
        }
    }

    private func stringMatch(
        _ left: Value?, _ right: PreparedConstant, _ match: (TextMatcher.Bytes, TextMatcher.Bytes, Bool) -> Bool
    ) -> Bool {
        guard case .string = right.kind, let text = CompiledComparison.text(of: left) else { return false }
        return right.utf8.withUnsafeBufferPointer { pattern in
            TextMatcher.withFolded(text, options) { match($0, pattern, $1) }
        }
    }

    // MARK: Equality and order

    private func equal(_ left: Value?, _ right: PreparedConstant) -> Bool {
        guard let left, !left.isNull else {
            if case .null = right.kind { return true }
            return false
        }
        switch right.kind {
        case .null:
            return false
        case .bool(let b):
            switch left {
            case .bool(let x): return x == b
            case .string(let s): return CompiledComparison.boolText(s) == b
            case .integer, .double, .number: return left.doubleValue.map { ($0 != 0) == b } ?? false
            default: return false
            }
        case .number(let d):
            return CompiledComparison.number(of: left) == d
        case .string:
            switch left {
            case .string(let s):
                if let rn = right.number, let ln = PreparedConstant.numericText(s) { return ln == rn }
                if let ri = right.instant, let li = FilterInstant.parse(s, timeZone: timeZone) { return li == ri }
                return right.utf8.withUnsafeBufferPointer { literal in
                    TextMatcher.withFolded(s, options) { TextMatcher.equal($0, literal, lower: $1) }
                }
            case .integer, .double, .number:
                guard let rn = right.number, let ln = left.doubleValue else { return false }
                return ln == rn
            default:
                return false
            }
        case .other:
            return left == right.value
        }
    }

    /// -1, 0, 1; nil when the two do not order (nil, booleans, a string against a number).
    private func order(_ left: Value?, _ right: PreparedConstant) -> Int? {
        guard let left, !left.isNull else { return nil }
        switch right.kind {
        case .null, .bool, .other:
            return nil
        case .number(let d):
            return CompiledComparison.number(of: left).map { CompiledComparison.sign($0, d) }
        case .string:
            switch left {
            case .string(let s):
                if let rn = right.number, let ln = PreparedConstant.numericText(s) { return CompiledComparison.sign(ln, rn) }
                if let ri = right.instant {
                    if let li = FilterInstant.parse(s, timeZone: timeZone) { return li < ri ? -1 : (li == ri ? 0 : 1) }
                }
                return right.utf8.withUnsafeBufferPointer { literal in
                    TextMatcher.withFolded(s, options) { TextMatcher.compare($0, literal, lower: $1) }
                }
            case .integer, .double, .number:
                guard let rn = right.number, let ln = left.doubleValue else { return nil }
                return CompiledComparison.sign(ln, rn)
            default:
                return nil
            }
        }
    }

    private static func sign(_ a: Double, _ b: Double) -> Int { a < b ? -1 : (a == b ? 0 : 1) }

    /// A number, or a string that spells one (untyped CSV and XML cells).
    private static func number(of value: Value) -> Double? {
        if case .string(let s) = value { return PreparedConstant.numericText(s) }
        return value.doubleValue
    }

    /// `true`/`false` in any case, as untyped text carries booleans.
    private static func boolText(_ s: String) -> Bool? {
        switch s.utf8.count {
        case 4 where s.lowercased() == "true": return true
        case 5 where s.lowercased() == "false": return false
        default: return nil
        }
    }

    // MARK: Key paths

    /// The value at a key path; a key applied to a list maps over its items (flattening one level,
    /// skipping items without the key); nil when absent.
    static func resolve(_ path: ArraySlice<FilterKeyPath.Component>, _ value: Value) -> Value? {
        var current = value
        var index = path.startIndex
        while index < path.endIndex {
            switch path[index] {
            case .key(let key):
                switch current {
                case .object(let object):
                    guard let next = object[key] else { return nil }
                    current = next
                case .array(let items):
                    var mapped: [Value] = []
                    mapped.reserveCapacity(items.count)
                    for item in items {
                        switch item {
                        case .object(let object):
                            switch object[key] {
                            case .array(let inner)?: mapped.append(contentsOf: inner)
                            case let v?: mapped.append(v)
                            case nil: break
                            }
                        case .array:
                            if case .array(let inner)? = resolve(path[index...(index)], item) { mapped.append(contentsOf: inner) }
                        default:
                            break
                        }
                    }
                    current = .array(mapped)
                default:
                    return nil
                }
            case .count:
                guard case .array(let items) = current else { return nil }
                current = .integer(Int64(items.count))
            case .sum, .average, .minimum, .maximum:
                guard case .array(let items) = current else { return nil }
                current = aggregate(path[index], items) ?? .null
            }
            index += 1
        }
        return current
    }

    private static func aggregate(_ op: FilterKeyPath.Component, _ items: [Value]) -> Value? {
        var numbers: [Double] = []
        numbers.reserveCapacity(items.count)
        for item in items {
            guard let d = number(of: item) else { continue }
            numbers.append(d)
        }
        switch op {
        case .sum: return .double(numbers.reduce(0, +))
        case .average: return numbers.isEmpty ? nil : .double(numbers.reduce(0, +) / Double(numbers.count))
        case .minimum: return numbers.min().map { .double($0) }
        case .maximum: return numbers.max().map { .double($0) }
        default: return nil
        }
    }

    /// Calls `body` with each item a quantified key path reaches (the items of the list at its end,
    /// through lists on the way), with no allocation; stops when `body` returns false.
    /// - Returns: false when stopped early.
    static func visit(_ path: ArraySlice<FilterKeyPath.Component>, _ value: Value, _ body: (Value) -> Bool) -> Bool {
        guard let first = path.first else {
            if case .array(let items) = value {
                for item in items where !body(item) { return false }
                return true
            }
            if value.isNull { return true }
            return body(value)
        }
        switch first {
        case .key(let key):
            switch value {
            case .object(let object):
                guard let next = object[key] else { return true }
                return visit(path.dropFirst(), next, body)
            case .array(let items):
                for item in items where !visit(path, item, body) { return false }
                return true
            default:
                return true
            }
        default:
            guard let resolved = resolve(path, value) else { return true }
            return visit(path[path.endIndex...], resolved, body)
        }
    }
}
