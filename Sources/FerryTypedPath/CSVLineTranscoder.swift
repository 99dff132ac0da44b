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
    /// The plan's nodes in the same order (`fields[0]` is the record), in the compact form a row
    /// reads (`CSVColumnPlan.Node` holds more than a row needs).
    private let fields: UnsafeBufferPointer<Field>
    private let columnLists: UnsafeBufferPointer<Int>
    /// The `"name":` bytes of the fields (`Field.keyStart`, `keyCount`).
    private let keyBytes: UnsafeBufferPointer<UInt8>
    /// The range and step of each number field (`Field.rule`).
    private let numberRules: UnsafeBufferPointer<NumberRule>
    /// The cases of each enumeration (`Field.rule`), as UTF-8 bytes.
    private let cases: UnsafeBufferPointer<[[UInt8]]>
    /// `{"$collection":"<collection>"`: the start of every line.
    private let opening: UnsafeBufferPointer<UInt8>
    /// The field holding the record's id; nil when records have none.
    private let idField: Int?

    /// How a field's cells are read and written (the accessor `DescriptorTrace` saw the model use).
    enum Op: UInt8 {
        case requiredText, optionalText, requiredDouble, optionalDouble, integer, bool, instant, data
        case stringArray, object, objectArray
        /// List elements and the root: not a field.
        case none
    }

    /// One node of the plan as a row reads it.
    struct Field {
        var op = Op.none
        var shape = CSVColumnPlan.Shape.none
        var kind = CSVColumnPlan.ValueKind.unplanned
        var isRequired = true
        /// The `"name":` bytes in `keyBytes`.
        var keyCount: UInt16 = 0
        var keyStart: Int32 = 0
        /// A number field's entry in `numberRules`, an enumeration's in `cases`.
        var rule: Int32 = 0
        /// The cell of a `.cell` field.
        var column: Int32 = 0
        /// The children of an object (its fields) or a list (its elements) in `fields`.
        var first: Int32 = 0
        var count: Int32 = 0
        /// The columns at or under the node in `columnLists` (it is present when one is).
        var columnsStart: Int32 = 0
        var columnsCount: Int32 = 0
        /// An object's columns under keys that are not fields.
        var strayStart: Int32 = 0
        var strayCount: Int32 = 0
    }

    /// The transcoder of `Model`'s records under the header `columns` (the reader's header fields),
    /// writing lines of `collection`; nil when `Model` is not plain (`DescriptorTrace`), the header
    /// does not fit it plainly (`CSVColumnPlan`), `options.scalarsAsText` is not set (as the CSV
    /// reader reads), or a field is of a type no transcoder reads (days, timestamps).
    init?<Model: FieldCodableCollection>(_ type: Model.Type, columns: [String], collection: String, options: DecodingOptions) {
        guard options.scalarsAsText, let trace = DescriptorTrace(Model.self),
            !Model.recordType.fields.contains(where: { $0.name == "$collection" }),
            let plan = CSVColumnPlan(columns: columns, type: Model.recordType),
            plan.columnLists.count <= Int(Int32.max)
        else { return nil }
        var ops = [Op](repeating: .none, count: plan.nodes.count)
        guard Self.assignOps(plan, node: 0, type: Model.recordType, into: &ops) else { return nil }
        var keyText = ByteBuffer(capacity: 256)
        var numberRules: [NumberRule] = []
        var fields: [Field] = []
        for (index, node) in plan.nodes.enumerated() {
            var field = Self.field(node, op: ops[index])
            if ops[index] != .none {
                field.keyStart = Int32(keyText.count)
                keyText.appendJSONString(plan.names[index])
                keyText.append(UInt8(ascii: ":"))
                field.keyCount = UInt16(truncatingIfNeeded: keyText.count - Int(field.keyStart))
            }
            if node.kind == .double {
                field.rule = Int32(numberRules.count)
                numberRules.append(NumberRule(range: node.range, step: node.step))
            }
            fields.append(field)
        }
        var openingText = ByteBuffer(capacity: 64)
        openingText.append("{\"$collection\":")
        openingText.appendJSONString(collection)

        columnCount = plan.columnCount
        self.fields = .copying(fields)
        columnLists = .copying(plan.columnLists)
        keyBytes = .copying(keyText.array)
        self.numberRules = .copying(numberRules)
        cases = .copying(plan.enumerations.map { $0.map { Array($0.utf8) } })
        opening = .copying(openingText.array)
        idField = trace.idField.map { plan.nodes[0].first + $0 }
    }

    deinit {
        fields.freeCopy()
        columnLists.freeCopy()
        keyBytes.freeCopy()
        numberRules.freeCopy()
        cases.freeCopy()
        opening.freeCopy()
    }

    /// The compact form of a plan node (its key and number rule are set by the caller).
    private static func field(_ node: CSVColumnPlan.Node, op: Op) -> Field {
        var field = Field()
        field.op = op
        field.shape = node.shape
        field.kind = node.kind
        field.isRequired = node.isRequired
        field.rule = Int32(truncatingIfNeeded: node.enumeration)
        field.column = Int32(truncatingIfNeeded: node.column)
        field.first = Int32(truncatingIfNeeded: node.first)
        field.count = Int32(truncatingIfNeeded: node.count)
        field.columnsStart = Int32(truncatingIfNeeded: node.columnsStart)
        field.columnsCount = Int32(truncatingIfNeeded: node.columnsCount)
        field.strayStart = Int32(truncatingIfNeeded: node.strayStart)
        field.strayCount = Int32(truncatingIfNeeded: node.strayCount)
        return field
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
        guard row.cells.count == columnCount, let root = fields.baseAddress, let cells = row.cells.baseAddress else { return nil }
        let mark = buffer.count
        buffer.append(opening)
        guard members(of: root, cells, afterMember: true, &buffer) else {
            buffer.truncate(to: mark)
            return nil
        }
        buffer.reserve(2)
        buffer.appendReserved(UInt8(ascii: "}"))
        buffer.appendReserved(UInt8(ascii: "\n"))
        return PassedRecord(id: id(cells), rendered: mark..<buffer.count)
    }

    /// The record's id: the text of its id field's cell (already checked as UTF-8), nil when it
    /// has none or it is empty (as `TypedModelCodec.pass` takes `recordID`).
    private func id(_ cells: UnsafePointer<RawCSVCell>) -> String? {
        guard let idField else { return nil }
        let field = fields[idField]
        guard field.shape == .cell else { return nil }
        let cell = cells[Int(field.column)]
        guard !cell.isAbsent, cell.text.count > 0 else { return nil }
        return String(decoding: cell.text, as: UTF8.self)
    }

    // MARK: Objects

    /// Writes the fields of the object `object` as members; false to give up. `afterMember`: a
    /// member was written before in this object (the root's `$collection`).
    private func members(of object: UnsafePointer<Field>, _ cells: UnsafePointer<RawCSVCell>, afterMember: Bool,
        _ buffer: inout ByteBuffer) -> Bool
    {
        // A present cell under a key that is not a field is an `unknown-field`.
        if object.pointee.strayCount > 0, anyPresent(object.pointee.strayStart, object.pointee.strayCount, cells) { return false }
        var comma = afterMember
        let first = fields.baseAddress.unsafelyUnwrapped + Int(object.pointee.first)
        for k in 0..<Int(object.pointee.count) {
            guard member(first + k, cells, &comma, &buffer) else { return false }
        }
        return true
    }

    /// Writes the field `field` as a member (nothing for an absent optional); false to give up.
    /// `comma` is true once the object has a member.
    private func member(_ field: UnsafePointer<Field>, _ cells: UnsafePointer<RawCSVCell>, _ comma: inout Bool,
        _ buffer: inout ByteBuffer) -> Bool
    {
        let op = field.pointee.op
        switch op {
        case .requiredText, .optionalText:
            guard let cell = scalar(field, cells) else { return false }
            guard let text = cell else {
                // An absent required string or URL reads as "" when its column is there (its cell
                // empty; there is no cell to write for it); with no column, and any other absent
                // required text, it is a `missing-field`.
                guard op == .requiredText else { return true }
                guard field.pointee.kind == .string || field.pointee.kind == .url, field.pointee.shape != .none else { return false }
                beginMember(field, &comma, &buffer)
                buffer.append("\"\"")
                return true
            }
            guard fits(text, field) else { return false }
            beginMember(field, &comma, &buffer)
            // Checks the UTF-8 as it copies (nothing appended when it is not).
            return buffer.appendJSONQuoted(checkingUTF8: text)
        case .requiredDouble, .optionalDouble:
            guard let cell = scalar(field, cells) else { return false }
            guard let text = cell else { return op == .optionalDouble }
            let rule = numberRules[Int(field.pointee.rule)]
            guard let number = DecimalText.fastDouble(utf8: text), number.isFinite, rule.keeps(number) else { return false }
            beginMember(field, &comma, &buffer)
            // -0 is 0 (the text `-0` is not copied as written); finite: always written.
            _ = buffer.appendJSONNumber(number == 0 ? 0 : number, readFrom: text)
        case .integer:
            guard let cell = scalar(field, cells), let text = cell, let integer = CSVCellText.integer(text) else { return false }
            beginMember(field, &comma, &buffer)
            buffer.appendJSONInteger(integer)
        case .bool:
            guard let cell = scalar(field, cells), let text = cell else { return false }
            let flag: StaticString
            if CSVCellText.equals(text, "true") {
                flag = "true"
            } else if CSVCellText.equals(text, "false") {
                flag = "false"
            } else {
                return false
            }
            beginMember(field, &comma, &buffer)
            buffer.append(flag)
        case .instant:
            guard let cell = scalar(field, cells), let text = cell else { return false }
            return instant(text, field, &comma, &buffer)
        case .data:
            guard let cell = scalar(field, cells) else { return false }
            guard let text = cell else { return !field.pointee.isRequired }
            guard let string = UTF8Text.string(validating: text), Base64Data(base64: string) != nil else { return false }
            beginMember(field, &comma, &buffer)
            buffer.appendJSONQuoted(text)
        case .stringArray:
            beginMember(field, &comma, &buffer)
            return stringList(field, cells, &buffer)
        case .object:
            guard isPresent(field, cells) else { return !field.pointee.isRequired }
            guard field.pointee.shape == .object else { return false }
            beginMember(field, &comma, &buffer)
            return nestedObject(field, cells, &buffer)
        case .objectArray:
            beginMember(field, &comma, &buffer)
            return objectList(field, cells, &buffer)
        case .none:
            return false
        }
        return true
    }

    /// Writes `,` when the object has a member already, then the field's `"name":`.
    @inline(__always)
    private func beginMember(_ field: UnsafePointer<Field>, _ comma: inout Bool, _ buffer: inout ByteBuffer) {
        let count = Int(field.pointee.keyCount)
        buffer.reserve(count + 1)
        if comma { buffer.appendReserved(UInt8(ascii: ",")) }
        comma = true
        buffer.appendReserved(keyBytes.baseAddress.unsafelyUnwrapped + Int(field.pointee.keyStart), count: count)
    }

    /// Writes `{`, the members of the object `object`, `}`; false to give up.
    private func nestedObject(_ object: UnsafePointer<Field>, _ cells: UnsafePointer<RawCSVCell>, _ buffer: inout ByteBuffer) -> Bool {
        buffer.append(UInt8(ascii: "{"))
        guard members(of: object, cells, afterMember: false, &buffer) else { return false }
        buffer.append(UInt8(ascii: "}"))
        return true
    }

    /// An instant member: text that is already `description`'s form is copied (most are),
    /// anything else RFC 3339 to the millisecond is parsed and written in UTC; false to give up
    /// (finer digits bring a `lossy-precision` warning).
    private func instant(_ text: UnsafeBufferPointer<UInt8>, _ field: UnsafePointer<Field>, _ comma: inout Bool,
        _ buffer: inout ByteBuffer) -> Bool
    {
        if RFC3339Text.isDescription(text) {
            beginMember(field, &comma, &buffer)
            buffer.reserve(text.count + 2)
            buffer.appendReserved(UInt8(ascii: "\""))
            buffer.appendReserved(text.baseAddress.unsafelyUnwrapped, count: text.count)
            buffer.appendReserved(UInt8(ascii: "\""))
            return true
        }
        guard case .success(let instant) = Instant.parse(bytes: UnsafeRawBufferPointer(text)),
            instant.nanoseconds % 1_000_000 == 0
        else { return false }
        beginMember(field, &comma, &buffer)
        RFC3339Text.appendQuoted(instant, to: &buffer)
        return true
    }

    // MARK: Lists

    /// A list of strings (after its key): `[]` when no cell of it is present; its elements up to
    /// the last present one, with none absent before it (null: a `type-error`), each a cell of
    /// UTF-8 text.
    private func stringList(_ list: UnsafePointer<Field>, _ cells: UnsafePointer<RawCSVCell>, _ buffer: inout ByteBuffer) -> Bool {
        buffer.append(UInt8(ascii: "["))
        if isPresent(list, cells) {
            guard list.pointee.shape == .array else { return false }
            var gap = false
            var written = 0
            let first = fields.baseAddress.unsafelyUnwrapped + Int(list.pointee.first)
            for k in 0..<Int(list.pointee.count) {
                let element = first + k
                guard isPresent(element, cells) else {
                    gap = true
                    continue
                }
                guard !gap, element.pointee.shape == .cell else { return false }
                if written > 0 { buffer.append(UInt8(ascii: ",")) }
                guard buffer.appendJSONQuoted(checkingUTF8: cells[Int(element.pointee.column)].text) else { return false }
                written += 1
            }
        }
        buffer.append(UInt8(ascii: "]"))
        return true
    }

    /// A list of objects (after its key): `[]` when no cell of it is present; its elements up to
    /// the last present one, with none absent before it, each an object.
    private func objectList(_ list: UnsafePointer<Field>, _ cells: UnsafePointer<RawCSVCell>, _ buffer: inout ByteBuffer) -> Bool {
        buffer.append(UInt8(ascii: "["))
        if isPresent(list, cells) {
            guard list.pointee.shape == .array, let count = elementCount(list, cells) else { return false }
            let first = fields.baseAddress.unsafelyUnwrapped + Int(list.pointee.first)
            for k in 0..<count {
                if k > 0 { buffer.append(UInt8(ascii: ",")) }
                guard nestedObject(first + k, cells, &buffer) else { return false }
            }
        }
        buffer.append(UInt8(ascii: "]"))
        return true
    }

    /// The elements of a list of objects up to its last present one; nil when an absent element
    /// comes before a present one or a present element is not an object.
    private func elementCount(_ list: UnsafePointer<Field>, _ cells: UnsafePointer<RawCSVCell>) -> Int? {
        var count = 0
        var sawAbsent = false
        let first = fields.baseAddress.unsafelyUnwrapped + Int(list.pointee.first)
        for k in 0..<Int(list.pointee.count) {
            let element = first + k
            if isPresent(element, cells) {
                guard !sawAbsent, element.pointee.shape == .object else { return nil }
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
    private func scalar(_ field: UnsafePointer<Field>, _ cells: UnsafePointer<RawCSVCell>) -> UnsafeBufferPointer<UInt8>?? {
        switch field.pointee.shape {
        case .cell:
            let cell = cells[Int(field.pointee.column)]
            return cell.isAbsent ? .some(nil) : .some(cell.text)
        case .none:
            return .some(nil)
        case .object, .array, .other:
            return isPresent(field, cells) ? nil : .some(nil)
        }
    }

    /// True when `text` fits a text field: non-empty for `nonEmptyString`, `""` or an absolute
    /// http(s) URL for `url`, byte for byte one of the cases of an `enumeration` (text that only
    /// Unicode equivalence would match gives up). Its UTF-8 is checked as it is written.
    @inline(__always)
    private func fits(_ text: UnsafeBufferPointer<UInt8>, _ field: UnsafePointer<Field>) -> Bool {
        switch field.pointee.kind {
        case .string: return true
        case .nonEmptyString: return text.count > 0
        case .url:
            guard text.count > 0 else { return true }
            guard UTF8Text.isValid(text) else { return false }
            return FieldReader.isAbsoluteHTTPURL(String(decoding: text, as: UTF8.self))
        case .enumeration: return cases[Int(field.pointee.rule)].contains { $0.elementsEqual(text) }
        default: return false
        }
    }

    /// True when some cell at or under `field` is present (as `CSVPlannedRow.isPresent`).
    @inline(__always)
    private func isPresent(_ field: UnsafePointer<Field>, _ cells: UnsafePointer<RawCSVCell>) -> Bool {
        switch field.pointee.shape {
        case .none: return false
        case .cell: return !cells[Int(field.pointee.column)].isAbsent
        case .object, .array, .other: return anyPresent(field.pointee.columnsStart, field.pointee.columnsCount, cells)
        }
    }

    private func anyPresent(_ start: Int32, _ count: Int32, _ cells: UnsafePointer<RawCSVCell>) -> Bool {
        let columns = columnLists.baseAddress.unsafelyUnwrapped + Int(start)
        for k in 0..<Int(count) where !cells[columns[k]].isAbsent { return true }
        return false
    }
}
