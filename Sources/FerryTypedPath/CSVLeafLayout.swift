import FerrySchemas
import FormatCSV
import Foundation

/// The key table of a lane's CSV leaf streams (`CSVLeafTable`, handed to the writer with each
/// stream), built once from the descriptors (`recordType`) of the lane's target models, and the
/// cell encoders the lane's batches borrow.
///
/// Each record type, the models' own and those of their object fields and lists of objects, has a
/// block of consecutive keys: its field names in canonical order (a type met twice has one block).
/// A model writes its fields in that order, so `CSVLeafFieldSink` finds each key's index by
/// comparing it with the next names of its block, skipping absent optionals; a key it does not
/// find there gives the record up.
final class CSVLeafLayout: Sendable {
    /// A record type's keys: `table.keys[start..<start + count]`.
    struct Block: Sendable {
        var start: Int
        var count: Int
        static let none = Block(start: 0, count: 0)
    }

    /// The keys, and the cell format the streams are encoded for.
    let table: CSVLeafTable
    /// Per key: the block of the record type its field holds (an object or a list of objects);
    /// `Block.none` for other fields.
    let nested: [Block]
    /// The block of each target model, by its type.
    private let roots: [(model: ObjectIdentifier, block: Block)]
    private let encoders: CSVLeafEncoderPool

    /// The layout of `models`' leaf streams, encoded for `format`.
    init(models: [any FieldCodableCollection.Type], format: CSVCellFormat) {
        var builder = Builder()
        var roots: [(model: ObjectIdentifier, block: Block)] = []
        for model in models where !roots.contains(where: { $0.model == ObjectIdentifier(model) }) {
            roots.append((ObjectIdentifier(model), builder.block(of: model.recordType)))
        }
        table = CSVLeafTable(keys: builder.keys, format: format)
        nested = builder.nested
        self.roots = roots
        encoders = CSVLeafEncoderPool(format: format)
    }

    /// The block of the target model `Model`; nil for a type the lane has no route to.
    @inline(__always)
    func block<Model>(of _: Model.Type) -> Block? {
        let model = ObjectIdentifier(Model.self)
        for root in roots where root.model == model { return root.block }
        return nil
    }

    /// An encoder for one thread's use, until `giveBack(_:)`.
    func borrowEncoder() -> CSVLeafEncoder { encoders.borrow() }

    /// Hands back an encoder `borrowEncoder()` gave.
    func giveBack(_ encoder: CSVLeafEncoder) { encoders.giveBack(encoder) }

    /// Lays out the blocks, depth first.
    private struct Builder {
        var keys: [String] = []
        var nested: [Block] = []
        var blocks: [RecordType: Block] = [:]

        mutating func block(of type: RecordType) -> Block {
            if let known = blocks[type] { return known }
            let block = Block(start: keys.count, count: type.fields.count)
            blocks[type] = block
            keys += type.fields.map(\.name)
            nested += repeatElement(Block.none, count: type.fields.count)
            for (index, field) in type.fields.enumerated() {
                if let inner = Self.nestedType(field.type) { nested[block.start + index] = self.block(of: inner) }
            }
            return block
        }

        /// The record type of an object field, or of a list's objects.
        static func nestedType(_ type: FieldType) -> RecordType? {
            switch type {
            case .object(let recordType): return recordType
            case .array(let element): return nestedType(element)
            default: return nil
            }
        }
    }
}

/// Cell encoders (each with its cache of doubles' texts) lent to one batch at a time: a lane's
/// batches are rendered by a few threads at once, and keeping the encoders warm beats making one
/// per batch. Holds as many as were ever lent at once (the threads that render).
private final class CSVLeafEncoderPool: @unchecked Sendable {
    // @unchecked: `free` is read and written under `lock` only.
    private let format: CSVCellFormat
    private let lock = NSLock()
    private var free: [CSVLeafEncoder] = []

    init(format: CSVCellFormat) { self.format = format }

    func borrow() -> CSVLeafEncoder {
        lock.lock()
        let encoder = free.popLast()
        lock.unlock()
        return encoder ?? CSVLeafEncoder(format: format)
    }

    func giveBack(_ encoder: CSVLeafEncoder) {
        lock.lock()
        free.append(encoder)
        lock.unlock()
    }
}
