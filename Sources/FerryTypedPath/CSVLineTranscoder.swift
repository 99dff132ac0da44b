import FerryCore
import FerrySchemas
import FormatJSON

/// Writes the CSV rows of one header as the JSON Lines lines of one model type, cell by cell, with
/// no model in between (issue 7: the typed path's fastest form, for routes with no stage): each
/// cell is checked against its field's rules and copied or rendered straight into the output, so
/// a record costs no `String`, no array and no reference counting.
///
/// Exact for the rows it takes: the line is the one `CSVRecordReading.decode` and then
/// `JSONLinesRendering.render` give (the same rules, read from the same `CSVColumnPlan`, written
/// with the same pieces), and it gives up (nil) wherever that path could fail or might differ, so
/// the row then takes that path (which falls back to the general path in turn). It exists only for
/// models that are nothing but their descriptor (`DescriptorTrace`): the model's own code is then
/// known to read and write exactly the descriptor's fields.
///
/// Cells are checked as `CSVFieldSource` checks them (SCHEMAS.md "Formats: CSV"): text must be
/// UTF-8 and fit its type (non-empty, an http(s) URL, a listed case: here byte for byte); numbers
/// are plain decimals (`DecimalText.fastDouble`) in range and on step, written as `JSONSerializer`
/// writes the double; instants are RFC 3339 to the millisecond, written in UTC; lists end at their
/// last present element with no gap before it; a present cell under a key that is not a field, or
/// an object or list where a scalar belongs, gives up.
final class CSVLineTranscoder: @unchecked Sendable {
    // @unchecked: every buffer is written once, in `init`, and only read after.
    private let columnCount: Int
    private let nodes: UnsafeBufferPointer<CSVColumnPlan.Node>
    /// What each node's field is read as (parallel to `nodes`).
    private let ops: UnsafeBufferPointer<Op>
    private let columnLists: UnsafeBufferPointer<Int>
    /// The `"name":` bytes of each node's field in `keyBytes` (parallel to `nodes`).
    private let keys: UnsafeBufferPointer<KeyRange>
    private let keyBytes: UnsafeBufferPointer<UInt8>
    /// The cases of each enumeration, as UTF-8 bytes.
    private let cases: UnsafeBufferPointer<[[UInt8]]>
    /// `{"$collection":"<collection>"`: the start of every line.
    private let opening: UnsafeBufferPointer<UInt8>
    /// The node of the field holding the record's id; nil when records have none.
    private let idNode: Int?

    /// How a field's cells are read and written (the accessor `DescriptorTrace` saw the model use).
    enum Op: UInt8 {
        case requiredText, optionalText, requiredDouble, optionalDouble, integer, bool, instant, data
        case stringArray, object, objectArray
        /// List elements and the root: not a field.
        case none
    }

    /// Where a node's key lies in `keyBytes`.
    struct KeyRange {
        var start = 0
        var count = 0
    }

    /// The transcoder of `Model`'s records under the header `columns` (the reader's header fields),
    /// writing lines of `collection`; nil when `Model` is not plain (`DescriptorTrace`), the header
    /// does not fit it plainly (`CSVColumnPlan`), `options.scalarsAsText` is not set (as the CSV
    /// reader reads), or a field is of a type no transcoder reads (days, timestamps).
    init?<Model: FieldCodableCollection>(_ type: Model.Type, columns: [String], collection: String, options: DecodingOptions) {
        guard options.scalarsAsText, let trace = DescriptorTrace(Model.self),
            !Model.recordType.fields.contains(where: { $0.name == "$collection" }),
            let plan = CSVColumnPlan(columns: columns, type: Model.recordType)
        else { return nil }
        var ops = [Op](repeating: .none, count: plan.nodes.count)
        guard Self.assignOps(plan, node: 0, type: Model.recordType, into: &ops) else { return nil }
        var keyText = ByteBuffer(capacity: 256)
        var keys = [KeyRange](repeating: KeyRange(), count: plan.nodes.count)
        for (index, name) in plan.names.enumerated() where ops[index] != .none {
            keys[index].start = keyText.count
            keyText.appendJSONString(name)
            keyText.append(UInt8(ascii: ":"))
            keys[index].count = keyText.count - keys[index].start
        }
        var openingText = ByteBuffer(capacity: 64)
        openingText.append("{\"$collection\":")
        openingText.appendJSONString(collection)

        columnCount = plan.columnCount
        nodes = .copying(plan.nodes)
        self.ops = .copying(ops)
        columnLists = .copying(plan.columnLists)
        self.keys = .copying(keys)
        keyBytes = .copying(keyText.array)
        cases = .copying(plan.enumerations.map { $0.map { Array($0.utf8) } })
        opening = .copying(openingText.array)
        idNode = trace.idField.map { plan.nodes[0].first + $0 }
    }

    deinit {
        nodes.freeCopy()
        ops.freeCopy()
        columnLists.freeCopy()
        keys.freeCopy()
        keyBytes.freeCopy()
        cases.freeCopy()
        opening.freeCopy()
    }

    /// Sets the op of each field node under the object node `node` of type `type`, following the
    /// plan's layout (an object's children are its fields in order, a list's its elements); false
    /// for a field type no transcoder reads.
    private static func assignOps(_ plan: CSVColumnPlan, node: Int, type: RecordType, into ops: inout [Op]) -> Bool {
        let object = plan.nodes[node]
        for (k, field) in type.fields.enumerated() {
            let index = object.first + k
            guard let op = op(field) else { return false }
            ops[index] = op
            let child = plan.nodes[index]
            switch field.type {
            case .object(let nested) where child.shape == .object:
                guard assignOps(plan, node: index, type: nested, into: &ops) else { return false }
            case .array(.object(let nested)) where child.shape == .array:
                for e in 0..<child.count where plan.nodes[child.first + e].shape == .object {
                    guard assignOps(plan, node: child.first + e, type: nested, into: &ops) else { return false }
                }
            default:
                break
            }
        }
        return true
    }

    /// The op of a field: its accessor (`DescriptorTrace.Accessor`, which the trace saw the model use).
    private static func op(_ field: FieldSchema) -> Op? {
        switch DescriptorTrace.Accessor(field) {
        case .string?: return .requiredText
        case .optionalString?: return .optionalText
        case .double?: return .requiredDouble
        case .optionalDouble?: return .optionalDouble
        case .integer?: return .integer
        case .bool?: return .bool
        case .instant?: return .instant
        case .data?: return .data
        case .stringArray?: return .stringArray
        case .object?: return .object
        case .array?: return .objectArray
        case .unsupported?, nil: return nil
        }
    }

    /// Appends the JSON Lines line of `row` (LF included) to `buffer` and gives the record's id;
    /// nil, with `buffer` as it was, when the row is not one this transcoder takes (the row must
    /// then take `CSVRecordReading`). The row must have the header's columns (nil when its cell
    /// count differs).
    func transcode(_ row: RawCSVRow, into buffer: inout ByteBuffer) -> PassedRecord? {
        guard row.cells.count == columnCount else { return nil }
        let mark = buffer.count
        buffer.append(opening)
        guard members(of: nodes[0], cells: row.cells, afterMember: true, into: &buffer) else {
            buffer.truncate(to: mark)
            return nil
        }
        buffer.reserve(2)
        buffer.appendReserved(UInt8(ascii: "}"))
        buffer.appendReserved(UInt8(ascii: "\n"))
        return PassedRecord(id: id(row.cells), rendered: mark..<buffer.count)
    }

    /// The record's id: the text of its id field's cell (already checked as UTF-8), nil when it
    /// has none or it is empty (as `TypedModelCodec.pass` takes `recordID`).
    private func id(_ cells: UnsafeBufferPointer<RawCSVCell>) -> String? {
        guard let idNode else { return nil }
        let node = nodes[idNode]
        guard node.shape == .cell else { return nil }
        let cell = cells[node.column]
        guard !cell.isAbsent, cell.text.count > 0 else { return nil }
        return String(decoding: cell.text, as: UTF8.self)
    }

    // MARK: Objects

    /// Writes the fields of the object at `object` as members; false to give up. `afterMember`:
    /// a member was written before in this object (the root's `$collection`).
    private func members(of object: CSVColumnPlan.Node, cells: UnsafeBufferPointer<RawCSVCell>, afterMember: Bool,
        into buffer: inout ByteBuffer) -> Bool
    {
        // A present cell under a key that is not a field is an `unknown-field`.
        if object.strayCount > 0, anyPresent(object.strayStart, object.strayCount, cells) { return false }
        var comma = afterMember
        for index in object.first..<(object.first + object.count) {
            guard field(index, cells: cells, comma: &comma, into: &buffer) else { return false }
        }
        return true
    }

    /// Writes the field at node `index` as a member (nothing for an absent optional); false to
    /// give up. `comma` is true once the object has a member.
    private func field(_ index: Int, cells: UnsafeBufferPointer<RawCSVCell>, comma: inout Bool,
        into buffer: inout ByteBuffer) -> Bool
    {
        // Read in place: a node is copied only where a nested object or list needs one.
        let node = nodes.baseAddress.unsafelyUnwrapped + index
        switch ops[index] {
        case .requiredText, .optionalText:
            guard let cell = scalar(node, cells) else { return false }
            guard let text = cell else {
                // An absent required string or URL reads as "" (there is no cell to write for it);
                // any other absent required text is a `missing-field`.
                guard ops[index] == .requiredText else { return true }
                guard node.pointee.kind == .string || node.pointee.kind == .url else { return false }
                beginMember(index, &comma, &buffer)
                buffer.append("\"\"")
                return true
            }
            guard fits(text, node.pointee.kind, node.pointee.enumeration) else { return false }
            beginMember(index, &comma, &buffer)
            // Checks the UTF-8 as it copies (nothing appended when it is not).
            guard buffer.appendJSONQuoted(checkingUTF8: text) else { return false }
        case .requiredDouble, .optionalDouble:
            guard let cell = scalar(node, cells) else { return false }
            guard let text = cell else { return ops[index] == .optionalDouble }
            guard let number = DecimalText.fastDouble(utf8: text), number.isFinite,
                FieldSchema.isInRange(number, node.pointee.range), FieldSchema.isOnStep(number, node.pointee.step)
            else { return false }
            beginMember(index, &comma, &buffer)
            // -0 is 0 (the text `-0` is not copied as written); finite: always written.
            _ = buffer.appendJSONNumber(number == 0 ? 0 : number, readFrom: text)
        case .integer:
            guard let cell = scalar(node, cells), let text = cell, let integer = CSVCellText.integer(text) else { return false }
            beginMember(index, &comma, &buffer)
            buffer.appendJSONInteger(integer)
        case .bool:
            guard let cell = scalar(node, cells), let text = cell else { return false }
            let flag: StaticString
            if CSVCellText.equals(text, "true") {
                flag = "true"
            } else if CSVCellText.equals(text, "false") {
                flag = "false"
            } else {
                return false
            }
            beginMember(index, &comma, &buffer)
            buffer.append(flag)
        case .instant:
            // RFC 3339 to the millisecond only: finer digits bring a `lossy-precision` warning.
            guard let cell = scalar(node, cells), let text = cell else { return false }
            if RFC3339Text.isDescription(text) {
                beginMember(index, &comma, &buffer)
                buffer.reserve(text.count + 2)
                buffer.appendReserved(UInt8(ascii: "\""))
                buffer.appendReserved(text.baseAddress.unsafelyUnwrapped, count: text.count)
                buffer.appendReserved(UInt8(ascii: "\""))
                return true
            }
            guard case .success(let instant) = Instant.parse(bytes: UnsafeRawBufferPointer(text)),
                instant.nanoseconds % 1_000_000 == 0
            else { return false }
            beginMember(index, &comma, &buffer)
            RFC3339Text.appendQuoted(instant, to: &buffer)
        case .data:
            guard let cell = scalar(node, cells) else { return false }
            guard let text = cell else { return !node.pointee.isRequired }
            guard let string = UTF8Text.string(checkingASCIIFirst: text), Base64Data(base64: string) != nil else { return false }
            beginMember(index, &comma, &buffer)
            buffer.appendJSONQuoted(text)
        case .stringArray:
            return stringList(index, node.pointee, cells, &comma, &buffer)
        case .object:
            guard isPresent(node, cells) else { return !node.pointee.isRequired }
            guard node.pointee.shape == .object else { return false }
            beginMember(index, &comma, &buffer)
            return nestedObject(node.pointee, cells, &buffer)
        case .objectArray:
            return objectList(index, node.pointee, cells, &comma, &buffer)
        case .none:
            return false
        }
        return true
    }

    /// Writes `,` when the object has a member already, then the field's `"name":`.
    @inline(__always)
    private func beginMember(_ index: Int, _ comma: inout Bool, _ buffer: inout ByteBuffer) {
        let key = keys[index]
        buffer.reserve(key.count + 1)
        if comma { buffer.appendReserved(UInt8(ascii: ",")) }
        comma = true
        buffer.appendReserved(keyBytes.baseAddress! + key.start, count: key.count)
    }

    /// Writes `{`, the members of the object at `node`, `}`; false to give up.
    private func nestedObject(_ node: CSVColumnPlan.Node, _ cells: UnsafeBufferPointer<RawCSVCell>,
        _ buffer: inout ByteBuffer) -> Bool
    {
        buffer.append(UInt8(ascii: "{"))
        guard members(of: node, cells: cells, afterMember: false, into: &buffer) else { return false }
        buffer.append(UInt8(ascii: "}"))
        return true
    }

    // MARK: Lists

    /// A list of strings: `[]` when no cell of it is present; its elements up to the last present
    /// one, with none absent before it (null: a `type-error`), each a cell of UTF-8 text.
    private func stringList(_ index: Int, _ node: CSVColumnPlan.Node, _ cells: UnsafeBufferPointer<RawCSVCell>,
        _ comma: inout Bool, _ buffer: inout ByteBuffer) -> Bool
    {
        beginMember(index, &comma, &buffer)
        buffer.append(UInt8(ascii: "["))
        if isPresent(node, cells) {
            guard node.shape == .array else { return false }
            var gap = false
            var written = 0
            for k in 0..<node.count {
                let element = nodes[node.first + k]
                guard isPresent(element, cells) else {
                    gap = true
                    continue
                }
                guard !gap, element.shape == .cell else { return false }
                if written > 0 { buffer.append(UInt8(ascii: ",")) }
                guard buffer.appendJSONQuoted(checkingUTF8: cells[element.column].text) else { return false }
                written += 1
            }
        }
        buffer.append(UInt8(ascii: "]"))
        return true
    }

    /// A list of objects: `[]` when no cell of it is present; its elements up to the last present
    /// one, with none absent before it, each an object.
    private func objectList(_ index: Int, _ node: CSVColumnPlan.Node, _ cells: UnsafeBufferPointer<RawCSVCell>,
        _ comma: inout Bool, _ buffer: inout ByteBuffer) -> Bool
    {
        beginMember(index, &comma, &buffer)
        buffer.append(UInt8(ascii: "["))
        if isPresent(node, cells) {
            guard node.shape == .array, let count = elementCount(node, cells) else { return false }
            for k in 0..<count {
                if k > 0 { buffer.append(UInt8(ascii: ",")) }
                guard nestedObject(nodes[node.first + k], cells, &buffer) else { return false }
            }
        }
        buffer.append(UInt8(ascii: "]"))
        return true
    }

    /// The elements of a list of objects up to its last present one; nil when an absent element
    /// comes before a present one or a present element is not an object.
    private func elementCount(_ node: CSVColumnPlan.Node, _ cells: UnsafeBufferPointer<RawCSVCell>) -> Int? {
        var count = 0
        var sawAbsent = false
        for k in 0..<node.count {
            let element = nodes[node.first + k]
            if isPresent(element, cells) {
                guard !sawAbsent, element.shape == .object else { return nil }
                count = k + 1
            } else {
                sawAbsent = true
            }
        }
        return count
    }

    // MARK: Cells

    /// The text of a scalar field: `.some(nil)` when absent, nil (give up) when an object or list
    /// stands where the scalar belongs.
    @inline(__always)
    private func scalar(_ node: UnsafePointer<CSVColumnPlan.Node>, _ cells: UnsafeBufferPointer<RawCSVCell>)
        -> UnsafeBufferPointer<UInt8>??
    {
        switch node.pointee.shape {
        case .cell:
            let cell = cells[node.pointee.column]
            return cell.isAbsent ? .some(nil) : .some(cell.text)
        case .none:
            return .some(nil)
        case .object, .array, .other:
            return isPresent(node, cells) ? nil : .some(nil)
        }
    }

    /// True when `text` fits a text field of `kind`: non-empty for `nonEmptyString`, `""` or an
    /// absolute http(s) URL for `url`, byte for byte one of the cases of `enumeration` (text that
    /// only Unicode equivalence would match gives up). Its UTF-8 is checked as it is written.
    @inline(__always)
    private func fits(_ text: UnsafeBufferPointer<UInt8>, _ kind: CSVColumnPlan.ValueKind, _ enumeration: Int) -> Bool {
        switch kind {
        case .string: return true
        case .nonEmptyString: return text.count > 0
        case .url:
            guard text.count > 0 else { return true }
            guard UTF8Text.isValid(text) else { return false }
            return FieldReader.isAbsoluteHTTPURL(String(decoding: text, as: UTF8.self))
        case .enumeration: return cases[enumeration].contains { $0.elementsEqual(text) }
        default: return false
        }
    }

    @inline(__always)
    private func isPresent(_ node: UnsafePointer<CSVColumnPlan.Node>, _ cells: UnsafeBufferPointer<RawCSVCell>) -> Bool {
        switch node.pointee.shape {
        case .none: return false
        case .cell: return !cells[node.pointee.column].isAbsent
        case .object, .array, .other: return anyPresent(node.pointee.columnsStart, node.pointee.columnsCount, cells)
        }
    }

    /// True when some cell at or under `node` is present (as `CSVPlannedRow.isPresent`).
    @inline(__always)
    private func isPresent(_ node: CSVColumnPlan.Node, _ cells: UnsafeBufferPointer<RawCSVCell>) -> Bool {
        switch node.shape {
        case .none: return false
        case .cell: return !cells[node.column].isAbsent
        case .object, .array, .other: return anyPresent(node.columnsStart, node.columnsCount, cells)
        }
    }

    private func anyPresent(_ start: Int, _ count: Int, _ cells: UnsafeBufferPointer<RawCSVCell>) -> Bool {
        for k in start..<(start + count) where !cells[columnLists[k]].isAbsent { return true }
        return false
    }
}
