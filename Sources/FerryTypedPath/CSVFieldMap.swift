import FerrySchemas
import FormatCSV

/// Where each field of a model's record types stands in a CSV header's tree (`CSVHeaderTree`),
/// worked out once per (header, model type), so that a `CSVCursor` finds a member by its field's
/// index instead of comparing keys: for each object node the model reads, the child node of each
/// field of its record type, and the children whose keys are no field (present, they make the
/// object irregular: `unknown-field`).
///
/// A cursor uses the map for an object only when the reader asks for exactly the fields the map
/// was made for (the same `[FieldSchema]` storage: the record types are static), and compares
/// keys otherwise, so the map changes no result, only the cost. Immutable after `init`: share it
/// across threads.
final class CSVFieldMap: @unchecked Sendable {
    // @unchecked: written in `init` only; the field addresses are compared, never read through.
    /// The record types mapped, held so that the fields' storage `mappedFields` names lives on.
    private let types: [RecordType]
    /// The map's tables, in memory of their own (freed in `deinit`): a cursor reads them with no
    /// reference counting.
    let tables: Tables

    /// The map's tables, indexed by tree node.
    struct Tables {
        /// Per tree node: the storage of the fields it was mapped for (nil: not mapped).
        let mappedFields: UnsafeBufferPointer<UnsafeRawPointer?>
        /// Per tree node: where its fields' children start in `fieldChildren`.
        let fieldStart: UnsafeBufferPointer<Int>
        /// Per field of a mapped node's type: its child node, or -1 when no column reaches it.
        let fieldChildren: UnsafeBufferPointer<Int>
        /// Per tree node: where its stray children (keys that are no field) start in `strays`,
        /// and how many.
        let strayStart: UnsafeBufferPointer<Int>
        let strayCount: UnsafeBufferPointer<Int>
        let strays: UnsafeBufferPointer<Int>

        /// True when `node` was mapped for the fields stored at `fields`.
        @inline(__always)
        func maps(_ node: Int, fields: UnsafeRawPointer?) -> Bool {
            fields != nil && mappedFields[node] == fields
        }

        /// The child node of field `field` of the mapped `node`; -1 when no column reaches it.
        @inline(__always)
        func child(of node: Int, field: Int) -> Int { fieldChildren[fieldStart[node] + field] }

        /// The children of the mapped `node` whose keys are no field.
        @inline(__always)
        func strays(of node: Int) -> Slice<UnsafeBufferPointer<Int>> {
            strays[strayStart[node]..<(strayStart[node] + strayCount[node])]
        }
    }

    /// The map of `tree` read as `type` (the record at node 0).
    init(_ tree: CSVHeaderTree, _ type: RecordType) {
        var builder = Builder(count: tree.nodes.count)
        builder.map(tree, node: 0, as: type)
        types = builder.types
        tables = Tables(mappedFields: .copying(builder.mappedFields), fieldStart: .copying(builder.fieldStart),
                        fieldChildren: .copying(builder.fieldChildren), strayStart: .copying(builder.strayStart),
                        strayCount: .copying(builder.strayCount), strays: .copying(builder.strays))
    }

    deinit {
        tables.mappedFields.freeCopy()
        tables.fieldStart.freeCopy()
        tables.fieldChildren.freeCopy()
        tables.strayStart.freeCopy()
        tables.strayCount.freeCopy()
        tables.strays.freeCopy()
    }

    /// The storage address of `fields`, as the map compares it.
    @inline(__always)
    static func address(of fields: UnsafeBufferPointer<FieldSchema>) -> UnsafeRawPointer? {
        UnsafeRawPointer(fields.baseAddress)
    }

    private struct Builder {
        var types: [RecordType] = []
        var mappedFields: [UnsafeRawPointer?]
        var fieldStart: [Int]
        var fieldChildren: [Int] = []
        var strayStart: [Int]
        var strayCount: [Int]
        var strays: [Int] = []

        init(count: Int) {
            mappedFields = Array(repeating: nil, count: count)
            fieldStart = Array(repeating: 0, count: count)
            strayStart = Array(repeating: 0, count: count)
            strayCount = Array(repeating: 0, count: count)
        }

        /// Maps the object `node` read as `type`, and the nested objects its fields hold.
        mutating func map(_ tree: CSVHeaderTree, node: Int, as type: RecordType) {
            let object = tree.nodes[node]
            guard object.kind == .object, mappedFields[node] == nil else { return }
            types.append(type)
            mappedFields[node] = CSVFieldMap.address(of: type.table.fields)
            fieldStart[node] = fieldChildren.count
            fieldChildren.append(contentsOf: repeatElement(-1, count: type.fields.count))
            var stray: [Int] = []
            for k in object.first..<(object.first + object.count) {
                let key = tree.keys[tree.nodes[k].key]
                guard let index = type.fields.firstIndex(where: { $0.name == key }) else {
                    stray.append(k)
                    continue
                }
                fieldChildren[fieldStart[node] + index] = k
            }
            strayStart[node] = strays.count
            strayCount[node] = stray.count
            strays.append(contentsOf: stray)
            for (index, field) in type.fields.enumerated() {
                let k = fieldChildren[fieldStart[node] + index]
                guard k >= 0 else { continue }
                switch field.type {
                case .object(let nested):
                    map(tree, node: k, as: nested)
                case .array(.object(let nested)) where tree.nodes[k].kind == .array:
                    let list = tree.nodes[k]
                    for e in list.first..<(list.first + list.count) { map(tree, node: e, as: nested) }
                default:
                    break
                }
            }
        }
    }
}
