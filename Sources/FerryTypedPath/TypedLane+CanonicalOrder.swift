import FerryCore
import FerrySchemas
import FormatJSON

/// What became of a JSON record offered in canonical order (`TypedLane.takeInCanonicalOrder`).
enum CanonicalOrderTake {
    /// Its members stand in canonical order already: nothing was tried.
    case inOrder
    /// It was put in order (or could not be: a key its type does not name, given twice or
    /// escaped, text that is not well-formed) and is not taken.
    case notTaken
    case taken(TypedPreparation, named: String?)
}

extension TypedLane {
    /// A JSON Lines line or document element taken from a copy in canonical order. The caller
    /// tried it as it stands first unless the batch `reorders`; then `asItStands` is tried when
    /// its members are in order already. Once a record of the batch was taken from such a copy,
    /// the next are put in order first (a file's records come from one writer): a record read out
    /// of order reports members missing, which costs several times the reading of its copy.
    func takeJSON(_ bytes: UnsafeBufferPointer<UInt8>, isLine: Bool, collection: String?, line: Int, maximumDepth: Int,
        _ state: UnsafeMutablePointer<LaneBatchState>, asItStands: () -> (TypedPreparation, named: String?)?)
        -> (TypedPreparation, named: String?)?
    {
        // Read before a take below can set it: whether the caller skipped the as-it-stands try.
        let skippedAsItStands = state.pointee.reorders
        switch takeInCanonicalOrder(bytes, isLine: isLine, collection: collection, line: line, maximumDepth: maximumDepth, state) {
        case .taken(let preparation, let named):
            state.pointee.reorders = true
            return (preparation, named)
        case .notTaken:
            return nil
        case .inOrder:
            return skippedAsItStands ? asItStands() : nil
        }
    }

    /// A JSON Lines line (`isLine`) or a document element taken from a copy in its model's
    /// canonical order (`CanonicalOrder`), so that a record another tool wrote with its keys in
    /// another order takes the lane as Ferry's own records do. `collection`: a line's default
    /// collection (its own `$collection` wins, wherever it stands), an element's collection.
    func takeInCanonicalOrder(_ bytes: UnsafeBufferPointer<UInt8>, isLine: Bool, collection: String?, line: Int,
        maximumDepth: Int, _ state: UnsafeMutablePointer<LaneBatchState>) -> CanonicalOrderTake
    {
        guard let base = bytes.baseAddress else { return .notTaken }
        let json = JSONLineValidator(p: base, end: bytes.count, maximumDepth: maximumDepth)
        let open = json.skipWhitespace(0)
        guard open < bytes.count, base[open] == JSONSyntax.openBrace else { return .notTaken }
        let mark = state.pointee.buffer.count
        var route: LaneRoute?
        var order = CanonicalOrder(json: json, members: state.pointee.orderMembers, slots: state.pointee.orderSlots)
        // The scratch lists go back to the batch, with what they grew to.
        defer {
            swap(&order.members, &state.pointee.orderMembers)
            swap(&order.slots, &state.pointee.orderSlots)
        }
        return withUnsafeMutablePointer(to: &state.pointee.orderedText) { text -> CanonicalOrderTake in
            text.pointee.removeAll()
            let end = order.appendRecord(at: open, isLine: isLine, to: &text.pointee) { named in
                if let named {
                    route = routeList.first { $0.sourceName.elementsEqual(named) }
                } else if let collection {
                    route = routes[collection]
                }
                return route?.sourceTable
            }
            guard let end, let route, json.skipWhitespace(end) == bytes.count else { return .notTaken }
            guard order.reordered else { return .inOrder }
            return text.pointee.withBytes { ordered -> CanonicalOrderTake in
                guard let scan = JSONRecordScan(ordered, maximumDepth: maximumDepth),
                      isLine || !scan.namesCollection
                else { return .notTaken }
                guard let (preparation, named) = takeLine(scan, route, named: scan.namesCollection ? route.route.sourceCollection : nil,
                    line: line, output: state.pointee.output, reading: state.pointee.jsonReading, into: &state.pointee.buffer)
                else {
                    state.pointee.buffer.truncate(to: mark)
                    return .notTaken
                }
                return .taken(preparation, named: named)
            }
        }
    }
}
