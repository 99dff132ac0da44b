import FerryCore
import FerrySchemas
import Foundation

/// What a model's own code does with the fields of its descriptor, traced once on marker values
/// (issue 7). A transcoder that writes a record's output straight from its input bytes, with no
/// model in between (`CSVLineTranscoder`), is exact only for a model that is nothing more than its
/// descriptor (`recordType`, the SCHEMAS.md table):
/// - `init(from:)` reads every field of the descriptor, in order, with the accessor its type and
///   requiredness call for (`string` for a required string, `optionalString` for an optional one,
///   `object(_:as:)` of the nested type for an object field, ...), and nothing else;
/// - it makes no check across fields (`FieldSource.check`, which only the model's code knows);
/// - `encode(to:)` writes back exactly the values read (present optionals only), in the same order;
/// - `recordID` is the text of one of its top-level string fields, or always nil;
/// - and the same holds for every nested type.
///
/// The trace runs the model's code three times: with one set of markers, with another (Booleans
/// flipped, one list element instead of two), and with every optional absent and every list empty.
/// A value the model changes on its way from `init(from:)` to `encode(to:)`, a field read twice or
/// with another accessor, a check, all make the model not plain (`init?` gives nil).
struct DescriptorTrace {
    /// The index in the descriptor's fields of the top-level string field whose text is the
    /// record's `recordID`; nil when the model has no id.
    let idField: Int?

    /// The trace of `Model`; nil when its code does anything but read and write its descriptor's
    /// fields (see the type's documentation).
    init?<Model: FieldCodableCollection>(_ type: Model.Type) {
        var ids: [Variant: Int?] = [:]
        for variant in [Variant.first, .second, .absent] {
            let counter = MarkerCounter()
            var source = TracingSource(type: Model.recordType, variant: variant, counter: counter)
            let model = Model(from: &source)
            guard !source.checked else { return nil }
            var sink = TracingSink()
            model.encode(to: &sink)
            guard Self.matches(source.reads, sink.writes, Model.recordType),
                let id = Self.idField(of: model.recordID, in: source.reads)
            else { return nil }
            ids[variant] = id
        }
        guard let first = ids[.first], let second = ids[.second], let absent = ids[.absent], first == second else { return nil }
        // With optionals left out, an optional id field is absent: the model must have no id then.
        if let index = first, !Model.recordType.fields[index].isRequired {
            guard absent == nil else { return nil }
        } else {
            guard absent == first else { return nil }
        }
        self.idField = first
    }

    /// The index of the string field whose marker is `recordID`: `.some(nil)` for no id, nil when
    /// the id is not the text of one field.
    private static func idField(of recordID: String?, in reads: [Read]) -> Int?? {
        guard let recordID else { return .some(nil) }
        let candidates = reads.indices.filter { k in
            (reads[k].accessor == .string || reads[k].accessor == .optionalString) && reads[k].marker == .text(recordID)
        }
        return candidates.count == 1 ? .some(candidates[0]) : nil
    }

    /// True when `reads` are `type`'s fields in order, each with the accessor its declaration
    /// calls for, and `writes` are the present reads in the same order with the same values.
    static func matches(_ reads: [Read], _ writes: [Write], _ type: RecordType) -> Bool {
        guard reads.count == type.fields.count else { return false }
        var w = 0
        for (read, field) in zip(reads, type.fields) {
            guard read.name == field.name, let expected = Accessor(field), read.accessor == expected else { return false }
            if read.marker == .absent { continue }
            guard w < writes.count, writes[w].name == read.name, writes[w].marker == read.marker,
                writes[w].children.count == read.children.count
            else { return false }
            if let nestedType = Self.nestedType(field.type) {
                for (nestedReads, nestedWrites) in zip(read.children, writes[w].children) {
                    guard matches(nestedReads, nestedWrites, nestedType) else { return false }
                }
            }
            w += 1
        }
        return w == writes.count
    }

    /// The record type of an object field or of the elements of a list of objects.
    private static func nestedType(_ type: FieldType) -> RecordType? {
        switch type {
        case .object(let nested), .array(.object(let nested)): return nested
        default: return nil
        }
    }

    // MARK: What is traced

    /// Which of the three runs: markers differ between `first` and `second`; `absent` leaves
    /// every optional out and every list empty.
    enum Variant { case first, second, absent }

    /// The `FieldSource` accessors a plain model reads its fields with.
    enum Accessor: Equatable {
        case string, optionalString, double, optionalDouble, integer, bool, instant, data, stringArray, object, array
        /// Days, instants-or-days and Firestore timestamps: no transcoder reads them.
        case unsupported

        /// The accessor a field's declaration calls for; nil for a declaration no transcoder
        /// reads (an optional integer, Boolean or instant has no accessor of its own).
        init?(_ field: FieldSchema) {
            switch field.type {
            case .string, .nonEmptyString, .url, .enumeration: self = field.isRequired ? .string : .optionalString
            case .double: self = field.isRequired ? .double : .optionalDouble
            case .integer where field.isRequired: self = .integer
            case .bool where field.isRequired: self = .bool
            case .instant where field.isRequired: self = .instant
            case .data: self = .data
            case .array(.string): self = .stringArray
            case .array(.object): self = .array
            case .object: self = .object
            default: return nil
            }
        }
    }

    /// A value handed out by the tracing source (and expected back at the sink).
    enum Marker: Equatable {
        case text(String), number(Double), integer(Int64), flag(Bool), instant(Instant), strings([String])
        /// A nested object or list: its fields are in `children`.
        case nested
        /// An optional left out.
        case absent
    }

    /// One field read: its name, accessor, the value handed out, and for a nested object (one
    /// entry) or list (one per element) the reads of the nested model.
    struct Read {
        let name: String
        let accessor: Accessor
        let marker: Marker
        var children: [[Read]] = []
    }

    /// One member written: its name, value, and the writes of nested models.
    struct Write {
        let name: String
        let marker: Marker
        var children: [[Write]] = []
    }

    /// Hands out distinct markers across a record and its nested models.
    final class MarkerCounter {
        private var next = 0
        func take() -> Int {
            next += 1
            return next
        }
    }

    /// A `FieldSource` that records every read and answers with markers.
    struct TracingSource: FieldSource {
        let type: RecordType
        let variant: Variant
        let counter: MarkerCounter
        private(set) var reads: [Read] = []
        /// True once the model called `check` (a rule across fields).
        private(set) var checked = false

        init(type: RecordType, variant: Variant, counter: MarkerCounter) {
            self.type = type
            self.variant = variant
            self.counter = counter
        }

        var isValid: Bool { true }
        var timeZone: TimeZone { .gmt }
        mutating func check(_ problem: ((RecordContext) -> Diagnostic)?) { checked = true }

        private var leavesOptionalsOut: Bool { variant == .absent }
        private var elementCount: Int { variant == .first ? 2 : variant == .second ? 1 : 0 }

        /// A marker for the text field `name`: one of its cases for an enumeration (the model may
        /// hold it as an enum), an http URL for a URL, else a text of its own.
        private mutating func text(_ name: String) -> String {
            let marker = variant == .second ? "W\(counter.take())w" : "V\(counter.take())v"
            switch type.field(named: name)?.type {
            case .enumeration(let cases)? where !cases.isEmpty:
                return variant == .second ? cases[cases.count - 1] : cases[0]
            case .url?:
                return "https://example.com/" + marker
            default:
                return marker
            }
        }

        private mutating func record(_ name: String, _ accessor: Accessor, _ marker: Marker) {
            reads.append(Read(name: name, accessor: accessor, marker: marker))
        }

        mutating func string(_ name: String) -> String {
            let value = text(name)
            record(name, .string, .text(value))
            return value
        }

        mutating func optionalString(_ name: String) -> String? {
            guard !leavesOptionalsOut else {
                record(name, .optionalString, .absent)
                return nil
            }
            let value = text(name)
            record(name, .optionalString, .text(value))
            return value
        }

        mutating func double(_ name: String) -> Double {
            let value = Double(counter.take()) + (variant == .second ? 0.25 : 0.5)
            record(name, .double, .number(value))
            return value
        }

        mutating func optionalDouble(_ name: String) -> Double? {
            guard !leavesOptionalsOut else {
                record(name, .optionalDouble, .absent)
                return nil
            }
            let value = Double(counter.take()) + (variant == .second ? 0.25 : 0.5)
            record(name, .optionalDouble, .number(value))
            return value
        }

        mutating func integer(_ name: String) -> Int64 {
            let value = Int64(counter.take()) + (variant == .second ? 1000 : 0)
            record(name, .integer, .integer(value))
            return value
        }

        mutating func bool(_ name: String) -> Bool {
            let value = (counter.take() % 2 == 0) != (variant == .second)
            record(name, .bool, .flag(value))
            return value
        }

        mutating func instant(_ name: String) -> Instant {
            let value = Instant(seconds: 1_000_000 + Int64(counter.take()) * (variant == .second ? 7 : 3)) ?? .epoch
            record(name, .instant, .instant(value))
            return value
        }

        mutating func data(_ name: String) -> Base64Data? {
            guard !leavesOptionalsOut else {
                record(name, .data, .absent)
                return nil
            }
            let value = Base64Data(bytes: [UInt8(truncatingIfNeeded: counter.take()), variant == .second ? 1 : 2])
            record(name, .data, .text(value.base64))
            return value
        }

        mutating func day(_ name: String) -> CalendarDay {
            record(name, .unsupported, .absent)
            return CalendarDay(instant: .epoch, in: .gmt)
        }

        mutating func instantOrDay(_ name: String) -> InstantOrDay {
            record(name, .unsupported, .absent)
            return .instant(.epoch)
        }

        mutating func timestamp(_ name: String) -> FirestoreTimestamp? {
            record(name, .unsupported, .absent)
            return nil
        }

        mutating func stringArray(_ name: String) -> [String] {
            let values = (0..<elementCount).map { _ in variant == .second ? "W\(counter.take())w" : "V\(counter.take())v" }
            record(name, .stringArray, .strings(values))
            return values
        }

        mutating func object<T: FieldCodable>(_ name: String, as type: T.Type) -> T? {
            let isRequired = self.type.field(named: name)?.isRequired ?? true
            guard isRequired || !leavesOptionalsOut else {
                record(name, .object, .absent)
                return nil
            }
            var nested = TracingSource(type: T.recordType, variant: variant, counter: counter)
            let model = T(from: &nested)
            if nested.checked { checked = true }
            reads.append(Read(name: name, accessor: .object, marker: .nested, children: [nested.reads]))
            return model
        }

        mutating func array<T: FieldCodable>(_ name: String, of type: T.Type) -> [T] {
            var models: [T] = []
            var children: [[Read]] = []
            for _ in 0..<elementCount {
                var nested = TracingSource(type: T.recordType, variant: variant, counter: counter)
                models.append(T(from: &nested))
                if nested.checked { checked = true }
                children.append(nested.reads)
            }
            reads.append(Read(name: name, accessor: .array, marker: .nested, children: children))
            return models
        }
    }

    /// A `FieldSink` that records every member written.
    struct TracingSink: FieldSink {
        private(set) var writes: [Write] = []

        mutating func add(_ key: String, _ text: String) { writes.append(Write(name: key, marker: .text(text))) }
        mutating func add(_ key: String, _ number: Double) { writes.append(Write(name: key, marker: .number(number))) }
        mutating func add(_ key: String, _ flag: Bool) { writes.append(Write(name: key, marker: .flag(flag))) }
        mutating func add(_ key: String, _ integer: Int64) { writes.append(Write(name: key, marker: .integer(integer))) }
        mutating func add(_ key: String, _ instant: Instant) { writes.append(Write(name: key, marker: .instant(instant))) }
        // Written days and built values have no transcoder: a marker no read hands out.
        mutating func add(_ key: String, _ day: CalendarDay) { writes.append(Write(name: key, marker: .absent)) }
        mutating func add(_ key: String, _ value: Value) { writes.append(Write(name: key, marker: .absent)) }
        mutating func add(_ key: String, _ strings: [String]) { writes.append(Write(name: key, marker: .strings(strings))) }

        mutating func add<M: FieldCodable>(_ key: String, _ model: M) {
            writes.append(Write(name: key, marker: .nested, children: [Self.writes(of: model)]))
        }

        mutating func add<M: FieldCodable>(_ key: String, _ models: [M]) {
            writes.append(Write(name: key, marker: .nested, children: models.map { Self.writes(of: $0) }))
        }

        private static func writes<M: FieldCodable>(of model: M) -> [Write] {
            var sink = TracingSink()
            model.encode(to: &sink)
            return sink.writes
        }
    }
}
