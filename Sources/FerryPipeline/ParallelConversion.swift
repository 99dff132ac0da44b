import FerryCore
import FerrySchemas
import Foundation

/// `--jobs N` inside one input (issue 7): the input is cut into batches of raw records (JSON
/// Lines lines, CSV rows cut at newlines outside quotes), and N worker threads parse each batch and decode, validate and migrate its
/// records (`RecordPreparer`), while the calling thread keeps everything that spans records in
/// input order: the reader's own bookkeeping (`BatchRecordReader.items(from:)`), the processor's
/// id and reference checks (`DatasetProcessor.commit(_:)`) and the writing. Output, diagnostics
/// and their order are exactly those of a run with one job.
///
/// When the output's writer can render records ahead (`PrerenderingWriter`, JSON Lines), the
/// workers also render what each prepared record would become if the commit keeps it
/// (`PreparedRecord.candidateOutputs`); the calling thread then only appends those bytes. The
/// commit cannot change a record it keeps (it only drops records and sets their positions), so
/// the bytes are the ones it would have written; when it drops one of a record's documents the
/// caller writes the others the usual way. Batches done with are also freed on a worker.
///
/// A few batches are in flight at once (one per worker and one more), so memory stays bounded
/// whatever the input's size.
struct ParallelConversion {
    /// Raw records per batch: big enough that handing batches over costs little, small enough
    /// that the batches in flight hold a few MB.
    static let batchSize = 128

    let jobs: Int
    let reader: any BatchRecordReader
    let preparer: RecordPreparer
    let log: DiagnosticLog
    /// The renderer of the output's writer, once it is open and can render ahead (asked again
    /// for every batch: the writer opens with the first record written).
    let renderer: () -> (any RecordRenderer)?
    /// The typed path, when the records may take it (asked again for every batch: it needs the
    /// output's writer open and rendering ahead, or no output at all).
    let taker: () -> (any RawRecordTaker)?

    /// The batched run of `source`, when it can have one: a domain processor, an input whose
    /// reader cuts batches (a single JSON Lines or UTF-8 CSV file), and more than one job or a
    /// typed path (`hasTaker`; with one job the batches run on the calling thread). Nil
    /// otherwise: the caller reads record by record.
    init?(
        jobs: Int, source: DatasetSource, processor: DatasetProcessor?, log: DiagnosticLog,
        renderer: @escaping () -> (any RecordRenderer)? = { nil }, hasTaker: Bool = false,
        taker: @escaping () -> (any RawRecordTaker)? = { nil }
    ) {
        guard jobs > 1 || hasTaker, let processor, let reader = source.batchReader else { return nil }
        self.jobs = max(jobs, 1)
        self.reader = reader
        self.preparer = processor.preparer
        self.log = log
        self.renderer = renderer
        self.taker = taker
    }

    /// The prepared form of a general record and the bytes `renderer` rendered ahead for it (nil
    /// for other items: a taken record was prepared by the typed path as it was parsed).
    static func prepare(_ item: RecordBatchItem, _ preparer: RecordPreparer, _ renderer: (any RecordRenderer)?)
        -> (PreparedRecord?, RenderedRecords?)
    {
        switch item {
        case .record(let record):
            let prepared = preparer.prepare(record)
            return (prepared, renderer.map { $0.render(prepared.candidateOutputs) })
        case .taken, .problem, .failure:
            return (nil, nil)
        }
    }

    /// True for a record to prepare the general way.
    static func isGeneralRecord(_ item: RecordBatchItem) -> Bool {
        if case .record = item { return true }
        return false
    }

    /// One job: each batch is parsed, prepared and handed over on the calling thread.
    private func runInline(_ take: (Record, PreparedRecord, RenderedRecords?) throws -> Void,
        typed: (Record, TypedPreparation) throws -> Void) throws
    {
        while let batch = try reader.nextBatch(limit: Self.batchSize) {
            batch.parse(offering: taker())
            for item in reader.items(from: batch) {
                switch item {
                case .problem(let diagnostic):
                    log.report(diagnostic)
                case .failure(let error):
                    throw error
                case .record(let record):
                    // The writer renders general records itself: nothing is gained rendering ahead.
                    try take(record, preparer.prepare(record), nil)
                case .taken(let record, let payload):
                    if let preparation = payload as? TypedPreparation { try typed(record, preparation) }
                }
            }
        }
    }

    /// One batch on its way through the pipeline.
    private final class Slot: @unchecked Sendable {
        // @unchecked: a worker writes `results` before leaving `prepared`; the calling thread
        // reads it only after waiting on it, and `items` is written and read on the calling thread.
        let batch: any RecordBatch
        let parsed = DispatchGroup()
        let prepared = DispatchGroup()
        var items: [RecordBatchItem] = []
        var results: [PreparedRecord?] = []
        /// Per item, the output rendered ahead (nil: none).
        var rendered: [RenderedRecords?] = []

        init(batch: any RecordBatch) { self.batch = batch }

        /// Drops the records, so that their memory is freed on the thread calling this.
        func release() {
            items = []
            results = []
            rendered = []
        }
    }

    /// Hands every remaining record of the input to `take`, in input order, with its prepared
    /// form (for `DatasetProcessor.commit(_:)`) and, when the writer renders ahead, the bytes of
    /// its candidate outputs; reports the reader's problems to the log in turn.
    /// - Throws: what reading or `take` throws; batches still in flight are abandoned.
    func run(_ take: (Record, PreparedRecord, RenderedRecords?) throws -> Void,
        typed: (Record, TypedPreparation) throws -> Void) throws
    {
        if jobs == 1 { return try runInline(take, typed: typed) }
        let pool = WorkerPool(threads: jobs)
        defer { pool.stop() }
        let preparer = self.preparer
        let depth = jobs + 1
        var window: [Slot] = []
        var staged = 0  // slots at the front of `window` whose records are being prepared
        var exhausted = false

        func fill() throws {
            while !exhausted, window.count < depth {
                guard let batch = try reader.nextBatch(limit: Self.batchSize) else {
                    exhausted = true
                    return
                }
                let slot = Slot(batch: batch)
                let taker = self.taker()
                slot.parsed.enter()
                pool.submit(urgent: false) {
                    slot.batch.parse(offering: taker)
                    slot.parsed.leave()
                }
                window.append(slot)
            }
        }

        func stage(_ slot: Slot) {
            slot.parsed.wait()
            slot.items = reader.items(from: slot.batch)
            let items = slot.items
            let renderer = self.renderer()
            let work: @Sendable () -> Void = {
                var results: [PreparedRecord?] = []
                var rendered: [RenderedRecords?] = []
                results.reserveCapacity(items.count)
                rendered.reserveCapacity(items.count)
                for item in items {
                    let (prepared, bytes) = Self.prepare(item, preparer, renderer)
                    results.append(prepared)
                    rendered.append(bytes)
                }
                slot.results = results
                slot.rendered = rendered
            }
            // Records the typed path took were prepared while parsing: what is left of them is a
            // few small values, cheaper to make here than to hand over to a worker and wait for.
            guard items.contains(where: Self.isGeneralRecord) else { return work() }
            slot.prepared.enter()
            pool.submit(urgent: true) {
                work()
                slot.prepared.leave()
            }
        }

        try fill()
        while !window.isEmpty {
            // The next batch is prepared while this one is committed.
            while staged < min(window.count, 2) {
                stage(window[staged])
                staged += 1
            }
            let slot = window.removeFirst()
            staged -= 1
            slot.prepared.wait()
            for index in slot.items.indices {
                switch slot.items[index] {
                case .problem(let diagnostic):
                    log.report(diagnostic)
                case .failure(let error):
                    throw error
                case .record(let record):
                    if let prepared = slot.results[index] { try take(record, prepared, slot.rendered[index]) }
                case .taken(let record, let payload):
                    if let preparation = payload as? TypedPreparation { try typed(record, preparation) }
                }
            }
            pool.submit(urgent: false) { slot.release() }
            try fill()
        }
    }
}

/// A fixed set of worker threads taking closures from two queues, the urgent one first (work
/// the calling thread is about to wait for goes ahead of read-ahead work).
final class WorkerPool: @unchecked Sendable {
    // @unchecked: every mutable property is guarded by `condition`.
    private let condition = NSCondition()
    private var urgent: [@Sendable () -> Void] = []
    private var normal: [@Sendable () -> Void] = []
    private var urgentHead = 0
    private var normalHead = 0
    private var stopping = false

    init(threads: Int) {
        for _ in 0..<max(threads, 1) {
            let thread = Thread { [self] in work() }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Queues `job`; `urgent` jobs run before the others.
    func submit(urgent isUrgent: Bool, _ job: @escaping @Sendable () -> Void) {
        condition.lock()
        if isUrgent { urgent.append(job) } else { normal.append(job) }
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads end once the queues are empty.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while urgentHead == urgent.count, normalHead == normal.count, !stopping { condition.wait() }
            let job: (@Sendable () -> Void)?
            if urgentHead < urgent.count {
                job = urgent[urgentHead]
                urgentHead += 1
                if urgentHead == urgent.count {
                    urgent.removeAll(keepingCapacity: true)
                    urgentHead = 0
                }
            } else if normalHead < normal.count {
                job = normal[normalHead]
                normalHead += 1
                if normalHead == normal.count {
                    normal.removeAll(keepingCapacity: true)
                    normalHead = 0
                }
            } else {
                job = nil
            }
            condition.unlock()
            guard let job else { return }
            job()
        }
    }
}
