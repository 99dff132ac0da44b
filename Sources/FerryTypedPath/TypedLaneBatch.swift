import FerryCore
import FerrySchemas
import FormatCSV

/// The typed path's taker for one batch of raw records (`TypedLane.batch()`): the output lines (or
/// CSV leaf streams) of the records it takes go one after the other into one buffer
/// (`TypedPreparation.rendered` is each record's range in it), so that the calling thread writes a
/// batch's kept lines in one piece and no per-record bytes cross threads.
///
/// For CSV leaf streams the batch borrows a cell encoder from the lane at its first record and
/// gives it back when told the batch is taken (`finishTaking()`), or at the latest when it ends.
public final class TypedLaneBatch: RawRecordTaker, @unchecked Sendable {
    // @unchecked: one thread takes the batch's records; the thread writing the lines reads
    // `rendered` only after waiting for that (the batch's parse is complete).
    private let lane: TypedLane
    /// What the batch changes as it takes records, behind one pointer: reached per record through
    /// it, not through several stored properties of the class, each of which would be counted and
    /// checked for exclusive access on every record.
    private let state: UnsafeMutablePointer<LaneBatchState>
    /// The key table the batch's leaf streams index; nil for other outputs.
    public let leafTable: CSVLeafTable?
    /// True when the batch renders elements, which are written one by one with their collection
    /// (`LaneOutput.rendersElements`).
    public let rendersElements: Bool

    /// What the batch's records it took were made into, in input order.
    public var preparations: [TypedPreparation] { state.pointee.preparations }

    init(lane: TypedLane, reserving records: Int) {
        self.lane = lane
        let needsEncoder: Bool
        if case .csvLeaves(let leaves) = lane.output {
            needsEncoder = true
            leafTable = leaves.layout?.table
        } else {
            needsEncoder = false
            leafTable = nil
        }
        rendersElements = lane.output.rendersElements
        state = .allocate(capacity: 1)
        state.initialize(to: LaneBatchState(
            jsonReading: JSONLineReading(context: lane.jsonContext), output: lane.output,
            needsEncoder: needsEncoder))
        // Grown one append at a time, the list was copied whole at each doubling.
        state.pointee.preparations.reserveCapacity(records)
    }

    deinit {
        finishTaking()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Takes `record` when the typed path can: its `TakenRecord.payload` is its preparation's index
    /// in `preparations` (`preparation(of:)` reads it back).
    public func take(_ record: RawRecord) -> TakenRecord? {
        let state = self.state
        // After a run of records the lane gave back (each with a problem the general path then
        // reads it again to report), the next ones go there at once: an input whose every record
        // has one is read once, not twice. The lane is tried again after them.
        if state.pointee.resting > 0 {
            state.pointee.resting -= 1
            return nil
        }
        if state.pointee.needsEncoder { borrowEncoder() }
        guard let (preparation, named) = lane.take(record, state) else {
            // A nested record is several (asked here, after the usual ones).
            if case .jsonNested = record {
                let first = state.pointee.preparations.count
                if let count = lane.takeNested(record, state) {
                    state.pointee.givenBack = 0
                    return TakenRecord(collection: nil, payload: first, count: count)
                }
            }
            givenBack()
            return nil
        }
        state.pointee.givenBack = 0
        state.pointee.preparations.append(preparation)
        return TakenRecord(collection: named, payload: state.pointee.preparations.count - 1)
    }

    /// Counts a record given back: after `LaneBatchState.givenBackRun` in a row, the lane rests.
    private func givenBack() {
        state.pointee.givenBack += 1
        if state.pointee.givenBack == LaneBatchState.givenBackRun {
            state.pointee.givenBack = 0
            state.pointee.resting = LaneBatchState.restAfterRun
        }
    }

    public func documentPointer(of payload: Int) -> JSONPointer? { state.pointee.documentPointers[payload] }

    /// Says the batch's records are all offered (its parse is done): a borrowed encoder goes back
    /// to the lane. Called on the thread that took them.
    public func finishTaking() {
        guard case .csvLeaves(var leaves) = state.pointee.output, let encoder = leaves.encoder else { return }
        leaves.layout?.giveBack(encoder)
        leaves.encoder = nil
        state.pointee.output = .csvLeaves(leaves)
        state.pointee.needsEncoder = true
    }

    private func borrowEncoder() {
        state.pointee.needsEncoder = false
        guard case .csvLeaves(var leaves) = state.pointee.output, let layout = leaves.layout else { return }
        leaves.encoder = layout.borrowEncoder()
        state.pointee.output = .csvLeaves(leaves)
    }

    /// The preparation of the record this batch took with `payload` (its `TakenRecord.payload`);
    /// nil for a payload this batch did not give.
    public func preparation(of payload: Int) -> TypedPreparation? {
        state.pointee.preparations.indices.contains(payload) ? state.pointee.preparations[payload] : nil
    }

    /// `body` on the preparations where the batch keeps them (`TakenRecord.payload` indexes them),
    /// for the calling thread to read without copying one (a copy counts its id, value and
    /// references up, then down, on that thread). The batch must take no record during `body`.
    public func withPreparations<R>(_ body: (UnsafeBufferPointer<TypedPreparation>) throws -> R) rethrows -> R {
        try state.pointee.preparations.withUnsafeBufferPointer(body)
    }

    /// The count of bytes rendered so far (the output lines, CSV leaf streams or elements).
    public var renderedByteCount: Int { state.pointee.buffer.count }

    /// The bytes of the output lines rendered so far: `TypedPreparation.rendered` ranges index it.
    /// Valid during `body` only.
    public func withRendered<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try state.pointee.buffer.withBytes(body)
    }
}

/// What a `TypedLaneBatch` changes as it takes its records.
struct LaneBatchState: ~Copyable {
    /// Room for a batch's output (`--jobs` aims at 64 KiB: `BatchSizing`) without growing
    /// (growing copies), and under glibc's mmap threshold (`main.swift`: 128 KiB), so it comes
    /// from the heap.
    var buffer = ByteBuffer(capacity: 96 << 10)
    /// Where each document of a nested record is made before it is taken (`NestedSplit`).
    var documentText = ByteBuffer(capacity: 4 << 10)
    /// Where a JSON record is copied in canonical order before it is taken (`CanonicalOrder`).
    var orderedText = ByteBuffer(capacity: 4 << 10)
    /// True once a record of the batch was taken from a copy in canonical order: the next are
    /// put in order before they are read.
    var reorders = false
    /// `CanonicalOrder`'s scratch lists, kept from record to record.
    var orderMembers: [JSONLineValidator.Member] = []
    var orderSlots: [Int32] = []
    /// The pointer of each document of a nested record taken, by its preparation's index.
    var documentPointers: [Int: JSONPointer] = [:]
    /// What the batch's records it took were made into, in input order.
    var preparations: [TypedPreparation] = []
    /// The model reader of the batch's JSON lines and document elements, kept from record to record.
    let jsonReading: JSONLineReading
    /// The model readers of the batch's CSV rows and parsed values, kept from record to record.
    let readers = BatchModelReaders()
    /// The route of the CSV collection the batch's rows named last.
    var routeCache = LaneRouteCache()
    /// The route of the collection the batch's JSON Lines lines named last (unowned: the lane
    /// holds it).
    var lastLineRoute: Unmanaged<LaneRoute>? = nil
    /// The lane's output, with the encoder this batch borrowed for CSV leaf streams.
    var output: LaneOutput
    /// True while `output` is CSV leaf streams without an encoder.
    var needsEncoder: Bool
    /// The records given back in a row (not taken), and how many of the next are not offered.
    var givenBack = 0
    var resting = 0
    /// After this many records given back in a row, the next `restAfterRun` go the general way
    /// unoffered: in an input of records with problems, 8 in 64 are read twice, not all.
    static let givenBackRun = 8
    static let restAfterRun = 56

    init(jsonReading: JSONLineReading, output: LaneOutput, needsEncoder: Bool) {
        self.jsonReading = jsonReading
        self.output = output
        self.needsEncoder = needsEncoder
    }
}
