import FerryCore
import FerrySchemas
import FerryTypedPath
import FormatCSV
import Foundation

/// `--jobs N` inside one input (issue 7): the input is cut into batches of raw records (JSON
/// Lines lines, CSV rows cut at newlines outside quotes, a JSON document's array elements found by
/// a bracket scan, an XML document's record elements found by a tag scan), and N - 1 worker threads parse each batch and decode, validate and migrate its
/// records (`RecordPreparer`), as does the calling thread whenever it would wait for a batch; the
/// calling thread keeps everything that spans records in input order: the reader's own bookkeeping (`BatchRecordReader.items(from:)`), the processor's
/// id and reference checks (`DatasetProcessor.commit(_:)`) and the writing. Output, diagnostics
/// and their order are exactly those of a run with one job.
///
/// When the output's writer can render records ahead (`PrerenderingWriter`, JSON Lines), the
/// workers also render what each prepared record would become if the commit keeps it
/// (`PreparedRecord.candidateOutputs`); the calling thread then only appends those bytes. The
/// commit cannot change a record it keeps (it only drops records and sets their positions), so
/// the bytes are the ones it would have written; when it drops one of a record's documents the
/// caller writes the others the usual way. Every job of a batch (parse, prepare, free) runs on
/// one worker, the first free to parse it (`WorkerPool`): what a worker allocates, it frees.
///
/// A few batches are in flight at once (one per worker and one more), so memory stays bounded
/// whatever the input's size.
struct ParallelConversion {
    /// Batches in flight per job: enough that a worker always has a batch to parse while the
    /// calling thread commits and writes the ones before (fewer left the cores idle at times).
    static let batchesPerJob = 4
    /// Input in flight per job, past two batches (one being prepared while the next is: with
    /// one, the calling thread read the next only after handing over the last, and nothing ran
    /// beside it). Batches of small records never reach it (eight batches of about 64 KiB,
    /// `BatchSizing`; of 128 wine notes in XML, the largest, 0.9 MB), but a batch can be one
    /// large record (a Firestore word book with its thousands of words, parsed on the calling
    /// thread), and four of those a job took two and three times the memory of one job.
    static let bytesPerJob = 512 << 10

    /// True when another batch may be cut with `inFlight` batches of `bytes` input bytes cut and
    /// not yet handed over (the one being handed over not counted): fewer than `batchesPerJob` a
    /// job, and fewer than two or under `bytesPerJob` a job.
    static func cutsAnother(inFlight: Int, bytes: Int, jobs: Int) -> Bool {
        inFlight < jobs * batchesPerJob && (inFlight < 2 || bytes < jobs * bytesPerJob)
    }

    let jobs: Int
    let reader: any BatchRecordReader
    let preparer: RecordPreparer
    let log: DiagnosticLog
    /// The renderer of the output's writer, once it is open and can render ahead (asked again
    /// for every batch: the writer opens with the first record written).
    let renderer: () -> (any RecordRenderer)?
    /// The typed path, when the records may take it (asked again for every batch: it needs the
    /// output's writer open and rendering ahead, or no output at all).
    let lane: () -> TypedLane?
    /// What becomes of each general record before it is prepared, on the calling thread in input
    /// order (a bundle's media put back into external-storage fields: `MediaInliner`); what it
    /// throws ends the reading at that record. Nil: nothing.
    let inline: ((Record) throws -> Record)?

    /// The batched run of `source`, when it can have one: a domain processor, an input whose
    /// reader cuts batches (a JSON Lines, UTF-8 CSV, JSON document or XML file, or the file of a folder being read: its
    /// own run, its rest only; a bundle), and more than
    /// one job or a typed path its reader offers records to (`hasLane`; with one job the batches
    /// run on the calling thread). Nil
    /// otherwise: the caller reads record by record.
    init?(
        jobs: Int, source: DatasetSource, processor: DatasetProcessor?, log: DiagnosticLog,
        renderer: @escaping () -> (any RecordRenderer)? = { nil }, hasLane: Bool = false,
        lane: @escaping () -> TypedLane? = { nil }, inline: ((Record) throws -> Record)? = nil
    ) {
        guard let processor, let reader = source.batchReader, jobs > 1 || (hasLane && reader.takesRawRecords) else { return nil }
        self.jobs = max(jobs, 1)
        self.reader = reader
        self.preparer = processor.preparer
        self.log = log
        self.renderer = renderer
        self.lane = lane
        self.inline = inline
    }

    /// `items` with `inline` applied to their general records; an error it throws becomes the
    /// last item.
    private func inlined(_ items: [RecordBatchItem]) -> [RecordBatchItem] {
        guard let inline else { return items }
        var result: [RecordBatchItem] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard case .record(let record) = item else {
                result.append(item)
                continue
            }
            do {
                result.append(.record(try inline(record)))
            } catch {
                result.append(.failure(error))
                break
            }
        }
        return result
    }

    /// What the calling thread does with the records, in input order.
    struct Delivery {
        /// A record prepared the general way, with the bytes rendered ahead for its outputs (nil: none).
        /// The record and its prepared form are borrowed from the batch, which keeps them until its
        /// worker frees them: the calling thread copies neither.
        let general: (borrowing Record, borrowing PreparedRecord, RenderedRecords?) throws -> Void
        /// A record the typed path took, with its preparation where its lane batch keeps it; true
        /// when the commit keeps it (its line is then written).
        let typed: (borrowing TakenItem, UnsafePointer<TypedPreparation>) throws -> Bool
        /// Writes output lines the typed path rendered (one or more records' lines in a row).
        let writeRendered: (UnsafeBufferPointer<UInt8>) throws -> Void
        /// Writes the CSV leaf stream (indexing the table) of a kept record of the collection.
        var writeLeaves: (UnsafeBufferPointer<UInt8>, CSVLeafTable, _ collection: String) throws -> Void = { _, _, _ in
            throw FerryError(.internalError, "a CSV leaf stream has no writer to take it")
        }
        /// Writes the rendered element (JSON document, XML) of a kept record of the collection.
        var writeElement: (UnsafeBufferPointer<UInt8>, _ collection: String) throws -> Void = { _, _ in
            throw FerryError(.internalError, "a rendered element has no writer to take it")
        }
        /// Called with a batch's typed records before they are handed over one by one (to bring
        /// what their commits look up into the cache; `DatasetProcessor.warmIDs`).
        var warm: ([TypedPreparation]) -> Void = { _ in }
    }

    /// The prepared form of a general record and the bytes `renderer` rendered ahead for it.
    static func prepare(_ record: consuming Record, _ preparer: RecordPreparer, _ renderer: (any RecordRenderer)?)
        -> (PreparedRecord, RenderedRecords?)
    {
        let prepared = preparer.prepare(record)
        return (prepared, renderer.map { $0.render(prepared.candidateOutputs) })
    }

    /// True for a record to prepare the general way.
    static func isGeneralRecord(_ item: RecordBatchItem) -> Bool {
        if case .record = item { return true }
        return false
    }

    /// Hands a batch's items to `delivery` in order: problems to the log, general records with
    /// what `general(index, record)` gives. The lines of kept typed records that follow each other
    /// in the batch's buffer are written in one piece, before anything else is written; a kept
    /// record's CSV leaf stream or element (JSON document, XML) is written at once, as its value would be
    /// (a CSV writer may open then).
    private func deliver(_ items: [RecordBatchItem], lane: TypedLaneBatch?, _ delivery: Delivery,
        general: (Int, borrowing Record) throws -> Void) throws
    {
        if let lane, !lane.preparations.isEmpty { delivery.warm(lane.preparations) }
        let leafTable = lane?.leafTable
        let rendersElements = lane?.rendersElements ?? false
        var pending: Range<Int>? = nil
        func flush() throws {
            guard let run = pending, let lane else { return }
            pending = nil
            try lane.withRendered { try delivery.writeRendered(UnsafeBufferPointer(rebasing: $0[run])) }
        }
        // The lane's preparations read where they stand, not copied out.
        func withPreparations(_ body: (UnsafeBufferPointer<TypedPreparation>) throws -> Void) throws {
            guard let lane else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
            try lane.withPreparations(body)
        }
        // Through a buffer: an item is switched on in place, not copied out of the array.
        try withPreparations { preparations in try items.withUnsafeBufferPointer { items in
            for index in items.indices {
                switch items[index] {
                case .taken(let item):
                    guard let lane, preparations.indices.contains(item.payload), let preparation = preparations.baseAddress.map({ $0 + item.payload }),
                          try delivery.typed(item, preparation), let range = preparation.pointee.rendered
                    else { continue }
                    if let leafTable {
                        let collection = TypedPreparation.borrowingRoute(at: preparation) { $0.targetCollection }
                        try lane.withRendered {
                            try delivery.writeLeaves(UnsafeBufferPointer(rebasing: $0[range]), leafTable, collection)
                        }
                        continue
                    }
                    if rendersElements {
                        let collection = TypedPreparation.borrowingRoute(at: preparation) { $0.targetCollection }
                        try lane.withRendered { try delivery.writeElement(UnsafeBufferPointer(rebasing: $0[range]), collection) }
                        continue
                    }
                    if let run = pending, run.upperBound == range.lowerBound {
                        pending = run.lowerBound..<range.upperBound
                    } else {
                        try flush()
                        pending = range
                    }
                case .problem(let diagnostic):
                    try flush()
                    log.report(diagnostic)
                case .failure(let error):
                    try flush()
                    throw error
                case .record(let record):
                    try flush()
                    try general(index, record)
                }
            }
        } }
        try flush()
    }

    /// One job: each batch is parsed, prepared and handed over on the calling thread.
    private func runInline(_ delivery: Delivery) throws {
        var sizing = BatchSizing()
        while let batch = try reader.nextBatch(limit: sizing.limit) {
            let lane = self.lane()?.batch(reserving: sizing.limit)
            batch.parse(offering: lane)
            lane?.finishTaking()
            let items = inlined(reader.items(from: batch))
            sizing.observe(batch, items: items.count, rendered: lane?.renderedByteCount ?? 0)
            try deliver(items, lane: lane, delivery) { _, record in
                // The writer renders general records itself: nothing is gained rendering ahead.
                try delivery.general(record, preparer.prepare(copy record), nil)
            }
        }
    }

    /// Waits until `batch` is parsed, parsing it with `parseHere` when no worker has started it,
    /// and while a worker parses it, parsing the latest batch of `window` (in input order) no
    /// worker has started: the workers take them from the front, and the calling thread would
    /// otherwise leave its core idle.
    static func waitParsed<Batch: ClaimedParse>(_ batch: Batch, window: [Batch], parseHere: (Batch) -> Void) {
        while !batch.isParsed {
            if batch.claim() {
                parseHere(batch)
                return
            }
            guard let other = window.last(where: { $0 !== batch && $0.claim() }) else {
                batch.waitUntilParsed()
                return
            }
            parseHere(other)
        }
    }

    /// One batch on its way through the pipeline. Its worker parses it, prepares its records and
    /// lets go of them, so that their memory is freed on the thread that allocated it.
    private final class Slot: ClaimedParse, @unchecked Sendable {
        // @unchecked: one thread claims the parse (under `claimLock`), the worker or the calling
        // thread, and parses the batch (and, when `preparesWithParse`, writes `results`)
        // before leaving `parsed`, and writes `results` before leaving `prepared`; the calling
        // thread reads them only after waiting on these, `items` is written on the calling
        // thread before the prepare job that reads it is queued, and the release job, which
        // clears everything, is queued after the calling thread's last use.
        // Optional so that `release()` can let go of them on the worker: the calling thread may
        // drop the last reference to the slot, and would then free the batch's bytes and the
        // lane's preparations itself.
        private var heldBatch: (any RecordBatch)?
        private var heldLane: TypedLaneBatch?
        var batch: any RecordBatch { heldBatch! }
        /// The typed path's taker for this batch, holding the lines it rendered: made by the
        /// thread that parses the batch (its buffers are then made and freed on that thread).
        var lane: TypedLaneBatch? { heldLane }
        /// The typed path the batch's taker is made from, nil once made (or when there is none).
        private var laneSource: TypedLane?
        /// The most raw records the batch holds (the count its reader was asked for).
        private let records: Int
        /// The number of the worker that runs every job of this batch: the first free one takes its
        /// parse and notes its number here, before leaving `parsed`; `callingThread` when the
        /// calling thread parsed it (`claim()`), which then runs its other jobs too.
        var worker = 0
        /// `worker` for a batch the calling thread parsed.
        static let callingThread = -1
        /// Taken by the first thread to start the parse: a worker, or the calling thread while it
        /// would otherwise wait (`ParallelConversion.run`).
        private let claimLock = NSLock()
        private var claimed = false
        /// The renderer the parse renders ahead with (`preparesWithParse`), asked when the batch
        /// was cut.
        var renderer: (any RecordRenderer)?
        /// True when the worker prepares the records right after parsing them, in the same job
        /// (`RecordBatch.itemsAsParsed`): the calling thread then takes the items and delivers
        /// them, with no hand-over to the worker and back between parsing and preparing.
        let preparesWithParse: Bool
        let parsed = DispatchGroup()
        let prepared = DispatchGroup()
        var items: [RecordBatchItem] = []
        /// Per item, the prepared form of a general record (nil for other items).
        var results: [PreparedRecord?] = []
        /// Per item, the output rendered ahead (nil: none).
        var rendered: [RenderedRecords?] = []

        init(batch: any RecordBatch, records: Int, lane: TypedLane?, preparesWithParse: Bool) {
            self.heldBatch = batch
            self.records = records
            self.laneSource = lane
            self.preparesWithParse = preparesWithParse
        }

        func parse() {
            heldLane = laneSource?.batch(reserving: records)
            laneSource = nil
            batch.parse(offering: lane)
            lane?.finishTaking()
        }

        var isParsed: Bool { parsed.wait(timeout: .now()) == .success }

        func waitUntilParsed() { parsed.wait() }

        /// True for the one thread that is to parse the batch (the first to ask).
        func claim() -> Bool {
            claimLock.lock()
            defer { claimLock.unlock() }
            if claimed { return false }
            claimed = true
            return true
        }

        /// The batch's first job, on the thread that claimed it (`worker` its number): the parse,
        /// and with it the preparing of its records when `preparesWithParse`.
        func runParse(as worker: Int, _ preparer: RecordPreparer) {
            self.worker = worker
            parse()
            if preparesWithParse, let items = batch.itemsAsParsed { prepare(items, preparer, renderer) }
            parsed.leave()
        }

        /// Prepares the general records of `items` (this batch's, in order) into `results` and
        /// renders what `renderer` renders ahead into `rendered`.
        func prepare(_ items: [RecordBatchItem], _ preparer: RecordPreparer, _ renderer: (any RecordRenderer)?) {
            var results: [PreparedRecord?] = []
            var rendered: [RenderedRecords?] = []
            results.reserveCapacity(items.count)
            rendered.reserveCapacity(items.count)
            // By index: an item is read in place, and its record copied once, into its
            // prepared form (the batch keeps the item for the calling thread).
            for index in items.indices {
                guard case .record(let record) = items[index] else {
                    results.append(nil)
                    rendered.append(nil)
                    continue
                }
                let (prepared, bytes) = ParallelConversion.prepare(record, preparer, renderer)
                results.append(prepared)
                rendered.append(bytes)
            }
            self.results = results
            self.rendered = rendered
        }

        /// Drops the batch and its records, so that their memory is freed on the thread calling
        /// this, whichever thread drops the slot last.
        func release() {
            items = []
            results = []
            rendered = []
            heldLane = nil
            heldBatch = nil
        }
    }

    /// Hands every remaining record of the input to `delivery`, in input order: a general record
    /// with its prepared form (for `DatasetProcessor.commit(_:)`) and, when the writer renders
    /// ahead, the bytes of its candidate outputs; a typed record with its `TypedPreparation`, and
    /// then its rendered line when kept; reports the reader's problems to the log in turn.
    /// - Throws: what reading or `delivery` throws; batches still in flight are abandoned.
    func run(_ delivery: Delivery) throws {
        if jobs == 1 { return try runInline(delivery) }
        // One job is the calling thread's: it parses batches itself while it would otherwise wait
        // for one (`waitParsed`). With a worker a job, the calling thread was one thread more than
        // the jobs, and on as many cores as jobs the three threads of `--jobs 2` took turns on
        // two cores: about a tenth more CPU for the same work, the batches' memory refetched
        // after each switch.
        let pool = WorkerPool(threads: jobs - 1)
        defer { pool.stopAndWait() }
        let preparer = self.preparer
        var window: [Slot] = []
        // The input bytes of the batches in `window`.
        var bytesInFlight = 0
        var staged = 0  // slots at the front of `window` whose records are being prepared
        var exhausted = false
        // What ended the reading, thrown once the batches read before it are delivered.
        var readingError: (any Error)?
        var sizing = BatchSizing()

        func fill() throws {
            while !exhausted, Self.cutsAnother(inFlight: window.count, bytes: bytesInFlight, jobs: jobs) {
                let next: (any RecordBatch)?
                do {
                    next = try reader.nextBatch(limit: sizing.limit)
                } catch {
                    readingError = error
                    next = nil
                }
                guard let batch = next else {
                    exhausted = true
                    return
                }
                // Records put back together on this thread (`inline`) are prepared once it has.
                let preparesWithParse = inline == nil && batch.itemsAsParsed != nil
                let slot = Slot(batch: batch, records: sizing.limit, lane: lane(), preparesWithParse: preparesWithParse)
                slot.parsed.enter()
                // Asked when the batch is cut: a writer not open yet renders nothing ahead, and
                // the calling thread then writes those records itself.
                slot.renderer = preparesWithParse ? self.renderer() : nil
                // Parsed by the first worker free, so that a slower worker holds back no batch
                // behind it (or by the calling thread, waiting for it); the batch's other jobs then
                // go to the same thread.
                pool.submitToAny { worker in
                    if slot.claim() { slot.runParse(as: worker, preparer) }
                }
                window.append(slot)
                bytesInFlight += slot.batch.inputBytes
            }
        }

        func stage(_ slot: Slot) {
            // Each batch parsed here is prepared and freed here too.
            Self.waitParsed(slot, window: window) { $0.runParse(as: Slot.callingThread, preparer) }
            slot.items = inlined(reader.items(from: slot.batch))
            sizing.observe(slot.batch, items: slot.items.count, rendered: slot.lane?.renderedByteCount ?? 0)
            // Records prepared with the parse, or taken by the typed path while parsing: nothing
            // is left to do.
            guard !slot.preparesWithParse, slot.items.contains(where: Self.isGeneralRecord) else { return }
            let items = slot.items
            let renderer = self.renderer()
            slot.prepared.enter()
            onBatchThread(slot, urgent: true) {
                slot.prepare(items, preparer, renderer)
                slot.prepared.leave()
            }
        }

        /// Runs `job` on the thread that parsed `slot`: here, or queued to its worker (woken for it
        /// when `wakes`).
        func onBatchThread(_ slot: Slot, urgent: Bool, wakes: Bool = true, _ job: @escaping @Sendable () -> Void) {
            if slot.worker == Slot.callingThread {
                job()
            } else {
                pool.submit(to: slot.worker, urgent: urgent, wakes: wakes, job)
            }
        }

        try fill()
        while !window.isEmpty {
            // The next batch is prepared while this one is committed (one prepared with its parse
            // is not waited for before it is the next to deliver).
            while staged < min(window.count, 2), staged == 0 || !window[staged].preparesWithParse {
                stage(window[staged])
                staged += 1
            }
            let slot = window.removeFirst()
            bytesInFlight -= slot.batch.inputBytes
            staged -= 1
            slot.prepared.wait()
            // Read out of the slot once a batch, not once a record (each read of a class's stored
            // array is an exclusivity check).
            let (results, rendered) = (slot.results, slot.rendered)
            try deliver(slot.items, lane: slot.lane, delivery) { index, record in
                if let prepared = results[index] { try delivery.general(record, prepared, rendered[index]) }
            }
            // A worker with nothing to parse lets go of the batch when next woken (at most the
            // window's batches wait for it), not woken for this alone.
            onBatchThread(slot, urgent: false, wakes: false) { slot.release() }
            try fill()
        }
        if let readingError { throw readingError }
    }
}

/// A batch whose parse the first thread to claim it runs (`ParallelConversion.waitParsed`).
protocol ClaimedParse: AnyObject {
    /// True for the one caller that is to parse the batch (the first to ask).
    func claim() -> Bool
    /// True once the batch is parsed, whichever thread parsed it (asked without waiting).
    var isParsed: Bool { get }
    /// Returns once the batch is parsed.
    func waitUntilParsed()
}
