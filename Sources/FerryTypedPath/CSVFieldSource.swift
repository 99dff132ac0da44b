import FerryCore
import FerrySchemas
import Foundation

/// One CSV row and the plan of its header, as pointers valid while a row is read.
struct CSVPlannedRow {
    let nodes: UnsafeBufferPointer<CSVColumnPlan.Node>
    let names: UnsafeBufferPointer<String>
    let columnLists: UnsafeBufferPointer<Int>
    let enumerations: UnsafeBufferPointer<[String]>
    /// The time zone of calendar-day rules (`DecodingOptions.timeZone`).
    let timeZone: UnsafePointer<TimeZone>
    /// The row's cells, one per column of the plan (the caller checks the count).
    let cells: UnsafeBufferPointer<RawCSVCell>

    /// True when some cell at or under `node` is present: the general path then holds a value
    /// there (an object or list with no present cell is left out, as `CSVFlattening` does).
    @inline(__always)
    func isPresent(_ node: CSVColumnPlan.Node) -> Bool {
        switch node.shape {
        case .none: return false
        case .cell: return !cells[node.column].isAbsent
        case .object, .array, .other: return anyPresent(node.columnsStart, node.columnsCount)
        }
    }

    /// True when one of the `count` columns listed from `start` in `columnLists` is present.
    func anyPresent(_ start: Int, _ count: Int) -> Bool {
        for k in start..<(start + count) where !cells[columnLists[k]].isAbsent { return true }
        return false
    }
}

/// Reads one object of a CSV row (the record, or a nested object or list element) as a
/// `FieldSource`, by column index through the header's `CSVColumnPlan` (issue 7's typed path).
///
/// Mirrors `FieldReader` with `scalarsAsText` (SCHEMAS.md "Formats: CSV") for the plain case and
/// gives up (`failed`) wherever the general path would append any diagnostic or where it does not
/// mirror the general path exactly:
/// - strings: any text for `.string`; non-empty for `.nonEmptyString`; `""` or an absolute http(s)
///   URL for `.url`; a listed case for `.enumeration`. An absent `.string` or `.url` field is `""`.
/// - numbers: plain decimal text only (`DecimalText.fastDouble`, the general path's fast grammar),
///   within the field's range and on its step; `-0` is `0`. Exponents, `.5`, `+1` and long digit
///   strings give up (the general path may accept them, through its checked path).
/// - integers: `-?[0-9]{1,18}`; Booleans: `true` or `false`.
/// - instants: RFC 3339 text to the millisecond (numeric dates bring a note: give up).
/// - lists: elements up to the last present one, none absent before it; an absent list is `[]`.
/// - days, instants-or-days and Firestore timestamps: always give up.
/// - a cell that is not UTF-8, a present cell under a key that is not a field, a present object
///   or list where a scalar belongs (or the reverse), and a field with cells that the model does
///   not read: give up.
struct CSVFieldSource: FieldSource {
    private let row: CSVPlannedRow
    /// The object's node: its fields are `row.nodes[object.first ..< object.first + object.count]`.
    private let object: CSVColumnPlan.Node
    /// The field after the one read last: fields are asked for in canonical order.
    private var cursor = 0
    /// The fields read, one bit per field index.
    private var readFields: UInt64 = 0
    /// True once anything is off: the model holds placeholders and must not be used.
    private(set) var failed = false

    init(_ row: CSVPlannedRow, object: CSVColumnPlan.Node) {
        self.row = row
        self.object = object
    }

    /// Ends the object: gives up when a present cell lies under a key that is not a field, or
    /// when a field that columns reach was not read (its cells would not have been checked).
    mutating func finish() {
        if readFields & object.plannedFields != object.plannedFields || row.anyPresent(object.strayStart, object.strayCount) {
            failed = true
        }
    }

    var isValid: Bool { !failed }

    var timeZone: TimeZone { row.timeZone.pointee }

    mutating func check(_ problem: ((RecordContext) -> Diagnostic)?) {
        if problem != nil { failed = true }
    }

    // MARK: Fields and cells

    /// The plan of the field `name`, marked read; nil (failed) when the type has no such field or
    /// the source already failed.
    @inline(__always)
    private mutating func field(_ name: String) -> CSVColumnPlan.Node? {
        if failed { return nil }
        var k = cursor
        if !(k < object.count && row.names[object.first + k] == name) {
            guard let found = (0..<object.count).first(where: { row.names[object.first + $0] == name }) else {
                failed = true
                return nil
            }
            k = found
        }
        cursor = k + 1
        readFields |= 1 << UInt64(k)
        return row.nodes[object.first + k]
    }

    /// The text of a scalar field's cell, nil when absent. A present object or list where a
    /// scalar belongs fails (nil too: check `failed`).
    @inline(__always)
    private mutating func text(_ node: CSVColumnPlan.Node) -> UnsafeBufferPointer<UInt8>? {
        switch node.shape {
        case .cell:
            let cell = row.cells[node.column]
            return cell.isAbsent ? nil : cell.text
        case .none:
            return nil
        case .object, .array, .other:
            if row.isPresent(node) { failed = true }
            return nil
        }
    }

    /// Gives up on an absent field that is required (`missing-field`).
    @inline(__always)
    private mutating func absent(_ node: CSVColumnPlan.Node) {
        if node.isRequired { failed = true }
    }

    /// The present text of a string field checked against its type; nil (failed) when it does not fit.
    private mutating func checkedString(_ bytes: UnsafeBufferPointer<UInt8>, _ node: CSVColumnPlan.Node) -> String? {
        guard let text = UTF8Text.string(validating: bytes) else {
            failed = true
            return nil
        }
        let fits: Bool
        switch node.kind {
        case .string: fits = true
        case .nonEmptyString: fits = !text.isEmpty
        case .url: fits = text.isEmpty || FieldReader.isAbsoluteHTTPURL(text)
        case .enumeration: fits = row.enumerations[node.enumeration].contains(text)
        default: fits = false
        }
        if !fits { failed = true }
        return fits ? text : nil
    }

    // MARK: Strings

    mutating func string(_ name: String) -> String {
        guard let node = field(name) else { return "" }
        guard let bytes = text(node) else {
            // From CSV an absent plain string or URL is quietly "" (there is no cell to write for it).
            if node.kind != .string && node.kind != .url { absent(node) }
            return ""
        }
        return checkedString(bytes, node) ?? ""
    }

    mutating func optionalString(_ name: String) -> String? {
        guard let node = field(name) else { return nil }
        guard let bytes = text(node) else {
            absent(node)
            return nil
        }
        return checkedString(bytes, node)
    }

    mutating func stringArray(_ name: String) -> [String] {
        guard let node = field(name), row.isPresent(node) else { return [] }
        guard node.shape == .array else {
            failed = true
            return []
        }
        var strings: [String] = []
        strings.reserveCapacity(node.count)
        var gap = false
        for k in 0..<node.count {
            let element = row.nodes[node.first + k]
            guard row.isPresent(element) else {
                gap = true
                continue
            }
            // An absent element before a present one is null (a `type-error`).
            guard !gap, element.shape == .cell, let text = UTF8Text.string(validating: row.cells[element.column].text) else {
                failed = true
                return []
            }
            strings.append(text)
        }
        return strings
    }

    // MARK: Numbers and Booleans

    mutating func double(_ name: String) -> Double {
        optionalDouble(name) ?? 0
    }

    mutating func optionalDouble(_ name: String) -> Double? {
        guard let node = field(name) else { return nil }
        guard let bytes = text(node) else {
            absent(node)
            return nil
        }
        guard node.kind == .double, let number = DecimalText.fastDouble(utf8: bytes), number.isFinite,
            FieldSchema.isInRange(number, node.range), FieldSchema.isOnStep(number, node.step)
        else {
            failed = true
            return nil
        }
        return number == 0 ? 0 : number  // -0 is 0
    }

    mutating func integer(_ name: String) -> Int64 {
        guard let node = field(name) else { return 0 }
        guard let bytes = text(node) else {
            absent(node)
            return 0
        }
        guard node.kind == .integer, let integer = CSVCellText.integer(bytes) else {
            failed = true
            return 0
        }
        return integer
    }

    mutating func bool(_ name: String) -> Bool {
        guard let node = field(name) else { return false }
        guard let bytes = text(node) else {
            absent(node)
            return false
        }
        if node.kind == .bool {
            if CSVCellText.equals(bytes, "true") { return true }
            if CSVCellText.equals(bytes, "false") { return false }
        }
        failed = true
        return false
    }

    // MARK: Dates and data

    mutating func instant(_ name: String) -> Instant {
        guard let node = field(name) else { return Instant.epoch }
        guard let bytes = text(node) else {
            absent(node)
            return Instant.epoch
        }
        // RFC 3339 to the millisecond only: finer digits bring a `lossy-precision` warning.
        guard node.kind == .instant, case .success(let instant) = Instant.parse(bytes: UnsafeRawBufferPointer(bytes)),
            instant.nanoseconds % 1_000_000 == 0
        else {
            failed = true
            return Instant.epoch
        }
        return instant
    }

    mutating func data(_ name: String) -> Base64Data? {
        guard let node = field(name) else { return nil }
        guard let bytes = text(node) else {
            absent(node)
            return nil
        }
        guard node.kind == .data, let text = UTF8Text.string(validating: bytes), let data = Base64Data(base64: text) else {
            failed = true
            return nil
        }
        return data
    }

    mutating func day(_ name: String) -> CalendarDay {
        failed = true
        return CSVFieldSource.placeholderDay
    }

    mutating func instantOrDay(_ name: String) -> InstantOrDay {
        failed = true
        return .day(CSVFieldSource.placeholderDay)
    }

    mutating func timestamp(_ name: String) -> FirestoreTimestamp? {
        failed = true
        return nil
    }

    /// The placeholder of a day the source gives up on (the model is not used).
    private static let placeholderDay = CalendarDay(instant: Instant.epoch, in: .gmt)

    // MARK: Nested values

    mutating func object<T: FieldCodable>(_ name: String, as type: T.Type) -> T? {
        guard let node = field(name) else { return nil }
        guard row.isPresent(node) else {
            absent(node)
            return nil
        }
        guard node.shape == .object else {
            failed = true
            return nil
        }
        return read(T.self, node)
    }

    mutating func array<T: FieldCodable>(_ name: String, of type: T.Type) -> [T] {
        guard let node = field(name), row.isPresent(node) else { return [] }
        guard node.shape == .array, let count = elementCount(node) else {
            failed = true
            return []
        }
        // Grown in place after one reservation: `reserveCapacity` allocates through code
        // specialized for `T` (a cached metadata access), where `init(unsafeUninitializedCapacity:)`
        // calls the standard library's unspecialized allocator (a generic metadata look-up per list).
        var models: [T] = []
        models.reserveCapacity(count)
        for k in 0..<count {
            let model = read(T.self, row.nodes[node.first + k])
            if failed { return [] }
            models.append(model)
        }
        return models
    }

    /// The elements of a list up to its last present one; nil when an absent element comes before
    /// a present one (null in the general path: a `type-error`) or an element is not an object.
    private func elementCount(_ node: CSVColumnPlan.Node) -> Int? {
        var count = 0
        var sawAbsent = false
        for k in 0..<node.count {
            let element = row.nodes[node.first + k]
            if row.isPresent(element) {
                guard !sawAbsent, element.shape == .object else { return nil }
                count = k + 1
            } else {
                sawAbsent = true
            }
        }
        return count
    }

    /// Reads the object at `node` as a `T` with a source of its own (placeholders and `failed`
    /// set when it fails).
    private mutating func read<T: FieldCodable>(_ type: T.Type, _ node: CSVColumnPlan.Node) -> T {
        var nested = CSVFieldSource(row, object: node)
        let model = T(from: &nested)
        nested.finish()
        if nested.failed { failed = true }
        return model
    }
}
