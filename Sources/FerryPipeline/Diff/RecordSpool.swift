import FerryCore

/// One side's records parked on disk: each record's value in `ValueSpoolCoding` form, appended to
/// one file, and in memory only where each one starts (the "temporary file plus offset index" of
/// the diff's memory bound). Records are kept per collection in the order read.
final class RecordSpool {
    /// Where one record's bytes lie, and its key when it has an id.
    struct Entry {
        var offset: UInt64
        var length: UInt32
        /// The record's `id` (or the document id its container gave it); nil when it has none.
        var id: String?
    }

    /// One collection's records in the order read, and whether they can be matched by id.
    struct Collection {
        var entries: [Entry] = []
        /// Ids seen so far, while appending; dropped at the first id seen before (the collection
        /// is then compared by position), and once spooling ends.
        fileprivate var seen: Set<String>? = []
        /// True when some record has an id and no two share one: records pair by id, and those
        /// without one (optional V1 ids) pair in their order among themselves.
        fileprivate(set) var hasUniqueIDs = true

        fileprivate mutating func finish() {
            hasUniqueIDs = hasUniqueIDs && seen.map { !$0.isEmpty || entries.isEmpty } == true
            seen = nil
        }
    }

    /// Collections in the order their first record came, `""` for records of no collection.
    private(set) var order: [String] = []
    private(set) var collections: [String: Collection] = [:]
    private let file: SpoolFile
    private var scratch: [UInt8] = []

    /// Creates the spool's file (`SpoolFile`: unlinked, so nothing is left behind).
    /// - Throws: `FerryError(.outputUnwritable)` when the file cannot be made.
    init() throws {
        file = try SpoolFile(kind: "diff-spool")
    }

    /// Appends `record` to its collection.
    /// - Throws: `FerryError(.outputUnwritable)` when the spool cannot be written.
    func append(_ record: Record) throws {
        let name = record.collection ?? ""
        scratch.removeAll(keepingCapacity: true)
        ValueSpoolCoding.encode(record.value, into: &scratch)
        let offset = try file.append(scratch)
        let entry = Entry(offset: UInt64(offset), length: UInt32(scratch.count), id: Self.id(of: record))
        if collections[name] == nil { order.append(name) }
        Self.add(entry, to: &collections[name, default: Collection()])
    }

    /// A string id (or the document id), else the digits of a whole-number `id` (schema-free data).
    private static func id(of record: Record) -> String? {
        if let id = record.id { return id }
        switch record.value.objectValue?["id"] {
        case .integer(let integer)?: return String(integer)
        case .number(let text)? where NumberText.isIntegral(text): return text
        default: return nil
        }
    }

    private static func add(_ entry: Entry, to collection: inout Collection) {
        collection.entries.append(entry)
        guard collection.seen != nil else { return }
        guard let id = entry.id else { return }
        if collection.seen?.insert(id).inserted == true { return }
        collection.seen = nil
        collection.hasUniqueIDs = false
    }

    /// Drops what only appending needed (the sets of ids seen); call once every record is
    /// appended, before reading.
    func finish() {
        for name in order { collections[name]?.finish() }
    }

    /// The bytes of `entry` as written.
    /// - Throws: `FerryError(.internalError)` when the spool cannot be read back.
    func bytes(of entry: Entry) throws -> [UInt8] {
        try file.bytes(at: Int64(entry.offset), count: Int(entry.length))
    }

    /// The value of `entry`.
    func value(of entry: Entry) throws -> Value {
        try ValueSpoolCoding.decode(bytes(of: entry))
    }
}
