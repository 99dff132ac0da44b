import FerryCore

/// The CSV writer as it was before its byte-level rewrite, kept in memory and unoptimized: the
/// general path the tests compare `CSVWriter`'s bytes (and errors) against.
final class ReferenceCSVWriter {
    private let options: WriteOptions
    private let shape = Shape(id: 0)
    private var nodeCount = 1
    /// Per record: (node id, cell text or nil for a value with no CSV form, invalid text).
    private var records: [[(id: Int, text: [UInt8], invalid: Bool)]] = []

    private final class Shape {
        let id: Int
        var isLeaf = false
        var keys: [String] = []
        var children: [String: Shape] = [:]

        init(id: Int) { self.id = id }

        func child(_ key: String, nextID: inout Int) -> Shape {
            if let existing = children[key] { return existing }
            let node = Shape(id: nextID)
            nextID += 1
            children[key] = node
            keys.append(key)
            return node
        }

        func columns(prefix: String?, into out: inout [(name: String, id: Int)]) {
            if isLeaf, let prefix { out.append((prefix, id)) }
            for key in keys {
                guard let node = children[key] else { continue }
                node.columns(prefix: prefix.map { $0 + "." + key } ?? key, into: &out)
            }
        }
    }

    init(options: WriteOptions = WriteOptions()) { self.options = options }

    func write(_ value: Value) {
        var cells: [(id: Int, text: [UInt8], invalid: Bool)] = []
        spoolLeaves(value, node: shape, into: &cells)
        records.append(cells)
    }

    private func spoolLeaves(_ value: Value, node: Shape, into out: inout [(id: Int, text: [UInt8], invalid: Bool)]) {
        switch value {
        case .object(let object):
            for member in object.members {
                spoolLeaves(member.value, node: node.child(member.key, nextID: &nodeCount), into: &out)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                spoolLeaves(element, node: node.child(String(index + 1), nextID: &nodeCount), into: &out)
            }
        default:
            node.isLeaf = true
            var text: [UInt8] = []
            if appendCell(value, into: &text) {
                out.append((node.id, text, false))
            } else if case .double(let d) = value {
                out.append((node.id, Array("\(d)".utf8), true))
            }
        }
    }

    /// The bytes written, or the error `finish()` throws (with the rows before it).
    func finish() -> (bytes: [UInt8], error: String?) {
        var leaves: [(name: String, id: Int)] = []
        shape.columns(prefix: nil, into: &leaves)
        guard !records.isEmpty, !leaves.isEmpty else { return ([], nil) }
        let names = leaves.map(\.name)
        var columnOf: [String: Int] = [:]
        for (index, name) in names.enumerated() where columnOf[name] == nil { columnOf[name] = index }
        var columnOfNode = [Int](repeating: -1, count: nodeCount)
        for leaf in leaves { columnOfNode[leaf.id] = columnOf[leaf.name] ?? -1 }
        var out: [UInt8] = []
        for (index, name) in names.enumerated() {
            if index > 0 { out.append(options.delimiter) }
            appendText(name, into: &out)
        }
        out += [0x0D, 0x0A]
        for (recordIndex, cells) in records.enumerated() {
            var row = [(text: [UInt8], invalid: Bool)?](repeating: nil, count: names.count)
            for cell in cells where columnOfNode[cell.id] >= 0 { row[columnOfNode[cell.id]] = (cell.text, cell.invalid) }
            var line: [UInt8] = []
            for column in 0..<names.count {
                if column > 0 { line.append(options.delimiter) }
                guard let cell = row[column] else { continue }
                if cell.invalid {
                    return (out, "\(String(decoding: cell.text, as: UTF8.self)) has no CSV form (record \(recordIndex), column \(names[column]))")
                }
                line += cell.text
            }
            out += line + [0x0D, 0x0A]
        }
        return (out, nil)
    }

    private func appendCell(_ value: Value, into out: inout [UInt8]) -> Bool {
        switch value {
        case .null, .object, .array: return true
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .integer(let i): out += Array(String(i).utf8)
        case .double(let d):
            guard let text = NumberText.ecmaScript(d) else { return false }
            out += Array(text.utf8)
        case .number(let text): out += Array(text.utf8)
        case .string(let text): appendText(text, into: &out)
        }
        return true
    }

    private func appendText(_ text: String, into out: inout [UInt8]) {
        let utf8 = Array(text.utf8)
        guard let first = utf8.first else {
            out += [0x22, 0x22]
            return
        }
        let prefix = options.csvSafe && "=+-@\t\r".utf8.contains(first)
        let needsQuotes = utf8.contains { $0 == options.delimiter || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }
        if needsQuotes { out.append(0x22) }
        if prefix { out.append(UInt8(ascii: "'")) }
        for b in utf8 {
            out.append(b)
            if needsQuotes && b == 0x22 { out.append(0x22) }
        }
        if needsQuotes { out.append(0x22) }
    }
}
