import FerryCore

/// The compiled form of a filter expression, evaluated per record: `AND`/`OR` chains flattened,
/// constants prepared, regular expressions compiled.
indirect enum FilterNode: @unchecked Sendable {
    case constant(Bool)
    case and([FilterNode])
    case or([FilterNode])
    case not(FilterNode)
    case comparison(CompiledComparison)

    func evaluate(_ record: Value) -> Bool {
        switch self {
        case .constant(let b): return b
        case .and(let nodes):
            for node in nodes where !node.evaluate(record) { return false }
            return true
        case .or(let nodes):
            for node in nodes where node.evaluate(record) { return true }
            return false
        case .not(let node): return !node.evaluate(record)
        case .comparison(let c): return c.evaluate(record)
        }
    }
}
