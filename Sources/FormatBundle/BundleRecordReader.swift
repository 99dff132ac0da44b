import FerryCore

/// Reads the records of a bundle's data members one after another (manifest order), each through
/// its content format's reader, stamping `file` and `member` on records and diagnostics.
///
/// Under `--jobs` (`BatchRecordReader`) the members are read in the same order and each member's
/// records go out in batches as its format allows: the batches of a member whose reader cuts
/// them (JSON Lines, CSV, a JSON document's arrays) are parsed on worker threads; the records of
/// any other member (XML) are read here and only prepared on the workers. What is reported while
/// the batches are cut (a data member the bundle lacks, a CSV header's repeated names, a content
/// reader's own problems) is held and handed over as problems in the batch, where `next()` would
/// have reported it, so diagnostics keep the order of one job.
final class BundleRecordReader: RecordReader {
    struct Step {
        var member: String
        var collection: String?
        var reader: any FormatReader
        /// The member format's `FormatDescriptor.scalarsAreText`, stamped on its records.
        var scalarsAreText: Bool
    }

    private let bundle: BundleReader
    private var steps: [Step]
    private var nextStep = 0
    private let options: ReadOptions
    /// Where the reader's own diagnostics and its members' go: on to the log, or held.
    private let relay: HeldDiagnostics
    private let relayLog: DiagnosticLog
    private var current: (reader: any RecordReader, step: Step)? {
        didSet { currentCutsBatches = true }
    }
    /// False once the current member's reader cut its last batch: an XML reader's `next()` then
    /// reads what its cutting left (the end of the document), as for a file of its own.
    private var currentCutsBatches = true
    private var innerHeader = DatasetHeader()
    private let memberStarted: ((String, any RecordReader) -> [Diagnostic])?
    /// True once a batch ended with a failure: reading stops there, as `next()`'s error stops it.
    private var failed = false

    init(
        bundle: BundleReader, steps: [Step], options: ReadOptions, log: DiagnosticLog,
        memberStarted: ((String, any RecordReader) -> [Diagnostic])? = nil
    ) {
        self.bundle = bundle
        self.steps = steps
        self.options = options
        let relay = HeldDiagnostics(log: log)
        self.relay = relay
        self.relayLog = DiagnosticLog(onReport: { relay.report($0) })
        self.memberStarted = memberStarted
    }

    /// The manifest's header; for a Documents folder, the data file's own.
    var header: DatasetHeader {
        let declared = bundle.header
        if declared.domain != nil || declared.schemaVersion != nil { return declared }
        return current?.reader.header ?? innerHeader
    }

    private func stamp(_ location: inout SourceLocation, member: String) {
        location.file = bundle.path
        location.member = member
    }

    /// A record of `step`'s member as the bundle gives it.
    private func stamped(_ record: Record, _ step: Step) -> Record {
        var record = record
        stamp(&record.location, member: step.member)
        record.scalarsAreText = step.scalarsAreText
        if record.collection == nil {
            record.collection = step.collection
            if record.location.collection == nil { record.location.collection = step.collection }
        }
        return record
    }

    /// An error met reading `member`, located in it.
    private func stamped(_ error: any Error, member: String) -> any Error {
        guard let error = error as? FerryError else { return error }
        var diagnostic = error.diagnostic
        stamp(&diagnostic.location, member: member)
        return FerryError(diagnostic, cause: error.cause)
    }

    /// The line of the last byte of `member` when the archive is cut inside it (`BundleReader.cutMember`).
    private func cutLine(of member: String) -> Int? {
        guard let cut = bundle.cutMember, cut.member == member else { return nil }
        return cut.lastLine
    }

    /// True when `error`, thrown reading `step`'s member, only says that the member ends at the
    /// archive's cut (reported by the scan): the member's records end there.
    private func endsAtCut(_ error: any Error, _ step: Step) -> Bool {
        guard let error = error as? FerryError else { return false }
        return BundleReader.echoesCut(error.diagnostic, lastLine: cutLine(of: step.member))
    }

    func next() throws -> Record? {
        while true {
            if let (reader, step) = current {
                let record: Record?
                do {
                    record = try reader.next()
                } catch let error where endsAtCut(error, step) {
                    record = nil
                } catch {
                    throw stamped(error, member: step.member)
                }
                if let record { return stamped(record, step) }
                innerHeader = reader.header
                current = nil
            }
            guard try openNextMember() else { return nil }
        }
    }

    /// Starts reading the next data member the bundle holds; false after the last.
    private func openNextMember() throws -> Bool {
        while nextStep < steps.count {
            let step = steps[nextStep]
            nextStep += 1
            guard bundle.checkPresent(step.member, collection: step.collection, log: relayLog) else { continue }
            var memberOptions = options
            memberOptions.fileName = bundle.path
            memberOptions.member = step.member
            if let collection = step.collection { memberOptions.collection = collection }
            let relay = self.relay
            let path = bundle.path
            let member = step.member
            let cutLine = cutLine(of: member)
            memberOptions.endsAtCut = cutLine != nil
            let memberLog = DiagnosticLog(onReport: { diagnostic in
                if BundleReader.echoesCut(diagnostic, lastLine: cutLine) { return }
                var diagnostic = diagnostic
                diagnostic.location.file = path
                diagnostic.location.member = member
                relay.report(diagnostic)
            })
            do {
                let source = try bundle.open(step.member)
                let reader = try step.reader.makeReader(source, options: memberOptions, log: memberLog)
                current = (reader, step)
                for diagnostic in memberStarted?(step.member, reader) ?? [] { relay.report(diagnostic) }
            } catch {
                throw stamped(error, member: step.member)
            }
            return true
        }
        return false
    }
}

extension BundleRecordReader: BatchRecordReader {
    /// A member's raw records are offered as its own reader offers them (JSON Lines lines, CSV
    /// rows, a JSON document's elements): worth batching with one job too.
    var takesRawRecords: Bool { true }

    /// The next batch: at most `limit` records read here with the problems reported while they
    /// were read, or the problems reported while a member was opened followed by a batch that
    /// member's reader cut; nil at the end of the bundle.
    func nextBatch(limit: Int) throws -> (any RecordBatch)? {
        if failed { return nil }
        var items: [RecordBatchItem] = []
        var records = 0
        relay.hold()
        defer { _ = relay.release() }
        /// Moves what was reported so far into the batch, where `next()` would have reported it.
        func takeHeld() {
            items += relay.release().map { .problem($0) }
            relay.hold()
        }
        func fail(_ error: any Error) {
            takeHeld()
            items.append(.failure(error))
            failed = true
        }
        while records < limit {
            guard let (reader, step) = current else {
                do {
                    let opened = try openNextMember()
                    takeHeld()
                    if opened { continue }
                } catch {
                    fail(error)
                }
                break
            }
            if currentCutsBatches, let batching = reader as? any BatchRecordReader {
                // A member's own batches go out after the records read here.
                if records > 0 { break }
                do {
                    let batch = try batching.nextBatch(limit: limit)
                    takeHeld()
                    if let batch { return BundleMemberBatch(leading: items, member: (batching, batch, step)) }
                    currentCutsBatches = false
                    continue
                } catch let error where endsAtCut(error, step) {
                    takeHeld()
                } catch {
                    fail(stamped(error, member: step.member))
                    break
                }
            } else {
                do {
                    let record = try reader.next()
                    takeHeld()
                    if let record {
                        items.append(.record(stamped(record, step)))
                        records += 1
                        continue
                    }
                } catch let error where endsAtCut(error, step) {
                    takeHeld()
                } catch {
                    fail(stamped(error, member: step.member))
                    break
                }
            }
            innerHeader = reader.header
            current = nil
        }
        if items.isEmpty { return nil }
        return BundleMemberBatch(leading: items)
    }

    /// The batch's leading items, then its member batch's records stamped as `next()` stamps them.
    func items(from batch: any RecordBatch) -> [RecordBatchItem] {
        guard let batch = batch as? BundleMemberBatch else { return [] }
        var items = batch.leading
        guard let (reader, inner, step) = batch.member else { return items }
        // The stamping source of the member batch's taken records (one for each source met).
        var stamping: BundleTakenSource? = nil
        for item in reader.items(from: inner) {
            switch item {
            case .record(let record):
                items.append(.record(stamped(record, step)))
            case .taken(var taken):
                if stamping == nil || stamping?.base !== taken.source {
                    stamping = BundleTakenSource(base: taken.source, file: bundle.path, step: step)
                }
                // The record made when asked is stamped by `stamping`, as `stamped(_:_:)` stamps one.
                taken.collection = taken.collection ?? step.collection
                taken.source = stamping!
                items.append(.taken(taken))
            case .problem(var diagnostic):
                if BundleReader.echoesCut(diagnostic, lastLine: cutLine(of: step.member)) { continue }
                stamp(&diagnostic.location, member: step.member)
                items.append(.problem(diagnostic))
            case .failure(let error):
                // The member's records end at the archive's cut: reading goes on past it (the
                // members after it are absent, and not reported missing).
                if endsAtCut(error, step) { continue }
                items.append(.failure(stamped(error, member: step.member)))
                failed = true
            }
        }
        return items
    }
}

/// A batch of a bundle: records read already and the problems reported while they were read or
/// while a member was opened, then a member reader's own batch, if any.
final class BundleMemberBatch: RecordBatch, @unchecked Sendable {
    // @unchecked: only `member.batch` is touched off the calling thread (its own `parse`); the
    // reader is used by `BundleRecordReader.items(from:)` on the calling thread.
    typealias Member = (reader: any BatchRecordReader, batch: any RecordBatch, step: BundleRecordReader.Step)
    let leading: [RecordBatchItem]
    let member: Member?

    var inputBytes: Int { member?.batch.inputBytes ?? 0 }

    init(leading: [RecordBatchItem], member: Member? = nil) {
        self.leading = leading
        self.member = member
    }

    /// Parses the member's batch as its reader parses its own, offering its raw records to
    /// `taker`; the records read already (`leading`) are not offered.
    func parse(offering taker: (any RawRecordTaker)?) {
        member?.batch.parse(offering: taker)
    }
}

/// Passes diagnostics on to a log, or holds them while `BundleRecordReader.nextBatch` reads
/// ahead of the records being handed over.
final class HeldDiagnostics: @unchecked Sendable {
    // @unchecked: used on the calling thread only (member readers report while they are read).
    private let log: DiagnosticLog
    private var held: [Diagnostic]?

    init(log: DiagnosticLog) { self.log = log }

    func report(_ diagnostic: Diagnostic) {
        if held != nil { held?.append(diagnostic) } else { log.report(diagnostic) }
    }

    /// Holds what is reported from now on.
    func hold() { held = held ?? [] }

    /// What was held, passed on no longer held.
    func release() -> [Diagnostic] {
        defer { held = nil }
        return held ?? []
    }
}

/// Makes the records of a member's taken items as the bundle gives them: the member's record,
/// stamped as `BundleRecordReader` stamps those it reads (file, member, scalars as text, the
/// member's collection for a record of none).
final class BundleTakenSource: TakenRecordSource {
    let base: any TakenRecordSource
    let file: String
    let member: String
    let collection: String?
    let scalarsAreText: Bool

    init(base: any TakenRecordSource, file: String, step: BundleRecordReader.Step) {
        self.base = base
        self.file = file
        member = step.member
        collection = step.collection
        scalarsAreText = step.scalarsAreText
    }

    func record(of item: TakenItem) -> Record {
        var record = base.record(of: item)
        record.location.file = file
        record.location.member = member
        record.scalarsAreText = scalarsAreText
        if record.collection == nil {
            record.collection = collection
            if record.location.collection == nil { record.location.collection = collection }
        }
        return record
    }
}
