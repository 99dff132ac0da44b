import FerryCore
import FerrySchemas
import FerryTypedPath
import FormatBundle
import FormatCSV

/// Runs conversions, migrations and validations of whole inputs: reader -> domain processor ->
/// writer, one record at a time (DESIGN.md "Data flow").
public struct Converter: Sendable {
    public let registry: FormatRegistry
    /// Counts bytes and records for a progress display; nil counts nothing.
    public let progress: ProgressMeter?

    public init(registry: FormatRegistry, progress: ProgressMeter? = nil) {
        self.registry = registry
        self.progress = progress
    }

    /// Processes every dataset of `request`, each on its own, and reports each one: an input
    /// file, or each data file under a folder of datasets (`DatasetInputs`), with its own domain,
    /// version and ids.
    /// - Parameter report: receives every diagnostic as it is found (the CLI prints them).
    /// - Returns: one report per dataset, in input order (a folder's files in byte order). Never
    ///   throws: a failing dataset is a report with its diagnostics and exit status, and the
    ///   others still run.
    public func run(_ request: ConversionRequest, report: @escaping @Sendable (Diagnostic) -> Void) -> [DatasetReport] {
        let target: OutputTarget
        let expansion = DatasetInputs.expansion(of: request.inputs, ignoring: request.ignoredFiles, registry: registry)
        let (datasets, ownFolders) = (expansion.datasets, expansion.ownFolders)
        do {
            target = try plannedTarget(request, datasets: datasets.map(\.path))
        } catch {
            let diagnostic = Self.diagnostic(for: error)
            report(diagnostic)
            return [DatasetReport(input: request.inputs.first ?? "-", format: "", collections: [], errorCount: 1,
                                  warningCount: 0, status: diagnostic.exitStatus)]
        }
        // A file of no data format under a folder of datasets is named, as an app Documents
        // folder names its unrelated files: a note, not an error, and part of no dataset.
        for (folder, file) in expansion.skipped {
            report(DatasetInputs.ignoredNote(file, in: folder))
        }
        return datasets.map { dataset in
            let input = Self.folderName(dataset.path)
            let log = DiagnosticLog(onReport: report, keeps: request.keepsDiagnostic)
            var result = DatasetReport(input: input, format: "", collections: [], errorCount: 0, warningCount: 0, status: .success)
            do {
                let naming = OutputNaming(stem: dataset.stem, ownFolder: ownFolders)
                try convert(input, request: request, target: target, naming: naming, log: log, into: &result)
            } catch {
                log.report(Self.diagnostic(for: error))
            }
            result.errorCount = log.errorCount
            result.warningCount = log.warningCount
            result.status = log.exitStatus
            result.diagnostics = log.diagnostics
            return result
        }
    }

    /// Decides where the request's output goes and checks, before any input is read, that no
    /// output (nor the report) is an input or another output (`OutputPlan`). `run` does it too;
    /// a caller that writes the report itself calls this first, so a refused run writes nothing.
    /// - Throws: `FerryError(.usage)` naming both sides of a clash, or for a bad `-o`.
    public func checkOutputs(_ request: ConversionRequest) throws {
        _ = try plannedTarget(request, datasets: DatasetInputs.expand(request.inputs, ignoring: request.ignoredFiles, registry: registry).datasets.map(\.path))
    }

    /// `checkOutputs`, returning the output target (`datasets`: the request's datasets, which
    /// decide whether one file can take the output).
    private func plannedTarget(_ request: ConversionRequest, datasets: [String]) throws -> OutputTarget {
        let target = request.action == .convert
            ? try OutputTarget.resolve(request.output, inputs: datasets, given: request.inputs,
                offersFolderOutput: request.offersFolderOutput) : .standardOutput
        if request.action == .convert, target == .standardOutput, writesBundle(request, datasets: datasets) {
            throw FerryError(.usage, "a bundle cannot go to standard output; name it with -o FILE.tar or -o DIR/")
        }
        try OutputPlan.check(request, target: target, registry: registry)
        return target
    }

    /// True when the output is a bundle, which cannot go to standard output (its media with it),
    /// as far as that shows before anything is read: `--to` names one, or there is no `--to` and
    /// an input is a bundle (a folder or an archive, by `--from` or its name), whose format the
    /// output keeps. Not for `head`, which prints a bundle's records; standard input is known to
    /// be a tar only once read (`OutputRouter` refuses it then).
    private func writesBundle(_ request: ConversionRequest, datasets: [String]) -> Bool {
        if let name = request.outputFormat { return registry.format(named: name)?.isContainer == true }
        guard !request.printsBundlesAsData else { return false }
        return datasets.contains { DatasetSource.isBundle($0, formatName: request.inputFormat, registry: registry) }
    }

    /// Where a dataset's output goes in a folder output.
    struct OutputNaming {
        /// `DatasetInput.stem`.
        var stem: String
        /// Whether the dataset gets its own file or folder in the folder output.
        var ownFolder: Bool
    }

    private func convert(
        _ input: String, request: ConversionRequest, target: OutputTarget, naming: OutputNaming, log: DiagnosticLog,
        into result: inout DatasetReport
    ) throws {
        var readOptions = request.read
        readOptions.fileName = input
        if !request.schemaFree, request.mapping == nil,
           request.domain.map({ $0.definition?.hasFirestoreLayouts ?? false }) ?? true
        {
            // A Firestore export's root collections are read document by document.
            readOptions.nestedCollections = FirestoreLayout.nestedCollections
        }
        // A run that writes nothing (validate, a dry run, stats) reads an archive's media again only
        // into the fields their records keep them in (notes' `imageData`): other domains' are only hashed.
        let keepsMedia = request.action != .convert ? Self.keepsMedia(domain: request.domain) : nil
        let source = try request.records.map { DatasetSource(records: $0, name: input, registry: registry, options: readOptions, log: log) }
            ?? DatasetSource(
                path: input, formatName: request.inputFormat, registry: registry, options: readOptions, log: log, progress: progress,
                ignoring: request.ignoredFiles, keepsMedia: keepsMedia)
        result.format = source.formatDescription
        result.media = source.bundle.map { MediaSummary(files: $0.mediaSizes) }
        let columns = source.columnSources
        if request.mapping == nil, !columns.isEmpty {
            // A field of a CSV file, or of a bundle's CSV member, is named as its column too.
            log.rewrite = { diagnostic in columns.contains(diagnostic.location) ? Self.namingCSVColumn(diagnostic) : diagnostic }
        }
        var request = request
        if source.bundle != nil {
            request.processing.media = ListedMediaCatalog(paths: source.media.keys.sorted())
        }
        // Validation writes nothing: without a filter, a selection or media to trace, no one reads
        // the values (nor the locations) of the checked records, so the processor need not build them.
        request.processing.needsOutputValues = request.action != .validate || request.filter != nil || request.selection != nil
            || !source.media.isEmpty
        // Reading an older version checks what its migration would reject, too, on every command:
        // what convert writes is what validate accepts.
        request.processing.checksMigration = true
        let mapping = try request.mapping.map(FieldMapping.load)
        // An input broken in its first record is met again, where the others are (below).
        var firstFailure: FerryError?
        let first: Record?
        do {
            first = try source.next()
        } catch let error as FerryError where error.exitStatus == .malformedInput && request.action == .convert {
            first = nil
            firstFailure = error
        }
        if let mapping {
            // A mistyped name in the mapping is one usage error before any row is mapped.
            var problems = mapping.problems(columns: source.columnNames, input: input)
            if let last = problems.popLast() {
                log.report(contentsOf: problems)
                throw FerryError(last)
            }
        }
        var planned: DatasetPlan
        do {
            planned = try DatasetPlan.make(request: request, source: source, first: first, mapping: mapping, log: log)
        } catch {
            // Without its first record the input may not say its domain: the broken record is the news.
            throw firstFailure ?? error
        }
        let selection = request.selection.map(SelectionStage.init)
        let outputSchema = planned.domain.flatMap { domain in planned.targetVersion.flatMap { DatasetSchema.schema(for: domain, version: $0) } }
        if let chosen = request.selection, let note = try SelectionStage.check(chosen, against: outputSchema, at: SourceLocation(file: input)) {
            // Records cut below their model are plain records: no domain header, no schema for the writer.
            log.report(.note(.assumption, note, at: SourceLocation(file: input)))
            planned.schemaFreeOutput = true
            planned.outputHeader = DatasetHeader()
            planned.recordTypeNames = [:]
        }
        let plan = planned
        source.isDomainData = plan.processor != nil
        result.domain = plan.processor.map { _ in plan.domain } ?? nil
        result.sourceVersion = plan.sourceVersion
        result.targetVersion = plan.targetVersion
        let filter = try FilterStage.make(request: request, plan: plan)
        // Records a filter or a selection may drop, or an observer reads, are handed on as values
        // (`emit`), not written straight from the lanes' bytes.
        let plainRecords = filter == nil && selection == nil && request.recordObserver == nil
        // A filter on the records as read runs before they are prepared: only the general path has them then.
        let filtersAsRead = filter?.beforeMigration == true
        let applier = mapping.map { MappingApplier(mapping: $0, log: log) }
        let inliner = Self.inliner(for: source, plan: plan)
        var references = MediaReferences(media: source.media)  // by any record read: for verification
        var keptReferences = MediaReferences(media: source.media)  // by records written: what a filtered bundle keeps
        let tally = RecordTally(order: plan.collections)
        func countRaw(_ record: Record) {
            tally.records += 1
            if record.nesting == nil || record.location != tally.streamedCollection {
                _ = tally.read.postIncrement(record.collection ?? "")
            }
            tally.streamedCollection = record.nesting == nil ? nil : record.location
        }
        let recheck = try Self.referenceRecheck(
            dropping: filter != nil ? "filtering (--where)" : request.selection?.keepsEveryRecord == false ? "selecting records (--skip, --limit, --sample)" : nil,
            plan: plan, request: request)

        var router: OutputRouter?
        if request.action == .convert {
            router = try makeRouter(request: request, target: target, naming: naming, source: source, plan: plan)
        }
        // Which media a bundle output carries follows from which records are written, and why the others are not.
        let outputMedia = router?.carriesMedia == true ? OutputMedia(media: source.media) : nil
        if let outputMedia { selection?.willCut = { outputMedia.note($0, .chosen) } }
        // What --lenient writes and what `stats` profiles leave out every record with an error, a
        // dangling reference included: records naming ids not read yet wait until they are.
        let held = plan.processor.flatMap { processor -> HeldRecords? in
            guard request.processing.mode == .lenient || request.recordObserver != nil, request.action != .validate,
                  processor.makesReferences
            else { return nil }
            processor.holdsUnsettledReferences = true
            return HeldRecords(processor: processor)
        }
        // `ferry head`: the reading ends once the selection is full (`SelectionFull`).
        let stopsWhenFull = request.selection?.stopsWhenFull == true
        var reading = true
        func stopIfFull() throws {
            guard stopsWhenFull, reading, let selection else { return }
            let awaited = Self.awaitedCollections(source: source, plan: plan, read: tally.read, holdsRecords: held != nil)
            if selection.isFull(awaiting: awaited) { throw SelectionFull() }
        }
        /// Writes a record the filter and the selection kept (`rendered`: its bytes made ahead).
        /// `typed`: the typed path's reading of the record, when it is the record as read.
        func write(_ record: Record, rendered: (bytes: [UInt8], range: Range<Int>)? = nil, typed: TypedPreparation? = nil) throws {
            guard request.processing.mode == .lenient else {
                keep(record, typed: typed)
                _ = try writeOut(record, rendered: rendered)
                return
            }
            // A record the output's format cannot hold is reported and left out, as an invalid
            // one is: it is written first and kept when it was (counted, too, when the write
            // fails outright and the run stops, as a record is counted before its write above).
            // One naming a record left out is left out too (a word of the same Firestore book).
            if plan.processor?.namesLeftOut(record) == true { outputMedia?.note(record, .namesLeftOut); return }
            let written: Bool
            do {
                written = try writeOut(record, rendered: rendered)
            } catch {
                tally.kept.add(record.collection)
                throw error
            }
            if written {
                keep(record, typed: typed)
            } else {
                plan.processor?.leftOut(record)
            }
        }
        /// What a kept record counts for: the tally, the progress, the media and references it
        /// names, the observer.
        func keep(_ record: Record, typed: TypedPreparation?) {
            tally.kept.add(record.collection)
            progress?.recordDone()
            keptReferences.collect(record)
            recheck?.keep(record, typed: typed)
            request.recordObserver?(record)
        }
        /// False for a record left out (`RecordLeftOut`, under `--lenient`: reported here).
        func writeOut(_ record: Record, rendered: (bytes: [UInt8], range: Range<Int>)?) throws -> Bool {
            do {
                if let rendered {
                    try router?.write(record, rendered: rendered.bytes, rendered.range)
                } else {
                    try router?.write(record)
                }
                return true
            } catch let error as FerryError where error.cause is RecordLeftOut && request.processing.mode == .lenient {
                log.report(error.diagnostic)
                return false
            }
        }
        /// `rendered`: the records' bytes made ahead on a worker (`--jobs`), one range per record.
        /// `typed`: the typed path's reading of the one record of `records`.
        func emit(_ records: [Record], rendered: RenderedRecords? = nil, typed: TypedPreparation? = nil) throws {
            for (index, record) in records.enumerated() {
                guard filter?.keepsAfterMigration(record) ?? true else { outputMedia?.note(record, .filtered); continue }
                references.collect(record)
                if let selection {
                    outputMedia?.note(record, .offered)
                    if let kept = selection.take(record) {
                        try write(kept, typed: selection.keepsRecordsWhole ? typed : nil)
                        if stopsWhenFull, selection.filledCollection { try stopIfFull() }
                    }
                } else if let rendered, let range = rendered.ranges[index] {
                    try write(record, rendered: (rendered.bytes, range))
                } else {
                    try write(record, typed: typed)
                }
            }
        }
        func process(_ record: consuming Record) throws {
            if let filter, !filter.keepsBeforeMigration(record) { outputMedia?.note(record, .filtered); return }
            guard let processor = plan.processor else { return try emit([record]) }
            let committed = processor.process(record)
            try emit(held.map { try $0.pass(committed) } ?? committed)
        }
        do {
            for record in applier?.constantRecords() ?? [] { try process(record) }
            // Plain records of a one-collection file (`cities.csv`) convert as a top-level array,
            // as Miller's do; a bundle, whose data is collections, puts records of no collection
            // (a JSON Lines file's, a top-level array's) in one named after the input.
            let plainCollection = plan.processor == nil && router?.carriesMedia != true ? source.derivedCollection : nil
            let bundleCollection = plan.processor == nil && router?.carriesMedia == true
                ? (input == "-" ? "records" : OutputRouter.stem(of: input)) : nil
            // The record is moved along, not copied: a copy retains and releases each of its
            // strings, its value and its locator.
            func take(_ record: consuming Record) throws {
                if let plainCollection, record.collection == plainCollection { record.collection = nil }
                if let bundleCollection, record.collection == nil { record.collection = bundleCollection }
                countRaw(record)
                var read = record
                if let inliner { read = try inliner.inline(read) }
                references.collect(read)  // media a record names count as referenced even when the record is invalid
                if let applier { read = applier.apply(read) }
                try process(read)
            }
            /// `take` for a record prepared ahead (`--jobs`), which had its media put back before it
            /// was prepared. Both are borrowed from the batch (which its worker frees): the calling
            /// thread copies neither the record nor its prepared form.
            func takePrepared(_ record: borrowing Record, _ prepared: borrowing PreparedRecord, rendered: RenderedRecords?) throws {
                countRaw(record)
                references.collect(record)  // media a record names count as referenced even when the record is invalid
                // A batched run always has a processor (`ParallelConversion.init`).
                guard let processor = plan.processor else { return }
                let committed = processor.commit(prepared)
                if let held {
                    // Records held and let go change what a commit returns: none rendered ahead is used.
                    return try emit(held.pass(committed))
                }
                // Bytes rendered ahead are those of every candidate output: usable when the
                // commit kept them all (it never changes one it keeps).
                try emit(committed, rendered: rendered?.ranges.count == committed.count ? rendered : nil)
            }
            // Used uncounted by `takeTyped`, once a record: `plan` holds the processor for the run.
            let typedProcessor = plan.processor.map { Unmanaged.passUnretained($0) }
            /// A record the typed path took: what `take` and `emit` do for a valid record, with its
            /// output line or CSV leaf stream already rendered or its value built (no media: see
            /// `typedLane`). True when the commit keeps the record: a rendered line or leaf stream
            /// is then written (`writeRendered`, `writeLeaves`); a value is written here, or handed
            /// to `emit` when a filter, a selection or an observer is to see it.
            func takeTyped(_ item: borrowing TakenItem, _ typed: UnsafePointer<TypedPreparation>) throws -> Bool {
                if let document = item.document {
                    // One of the documents of a nested record, which is counted once.
                    if document == 0 { countRaw(item.record) }
                } else {
                    // As `countRaw` counts a record of its own (not one document of a streamed collection).
                    _ = tally.read.postIncrement(item.collection ?? "")
                    tally.records += 1
                    tally.streamedCollection = nil
                }
                guard let typedProcessor else { return false }
                if typed.pointee.value != nil {
                    guard let output = typedProcessor._withUnsafeGuaranteedRef({ $0.commitForOutput(typed: typed.pointee, item: item) })
                    else { return false }
                    if let held {
                        try emit(held.pass([output]))
                        return true
                    }
                    if !plainRecords {
                        try emit([output], typed: typed.pointee)
                        return true
                    }
                    try write(output)
                    return true
                }
                guard typedProcessor._withUnsafeGuaranteedRef({ $0.commit(typedAt: typed, item: item) }) else { return false }
                TypedPreparation.borrowingRoute(at: typed) { tally.kept.add($0.targetCollection) }
                progress?.recordDone()
                return true
            }
            let typed = request.usesTypedPath && applier == nil && !filtersAsRead
            // Records held back or handed to `emit` are values: the lanes' bytes would skip them.
            let recordsAsValues = !plainRecords || held != nil
            var delivery = ParallelConversion.Delivery(
                general: { try takePrepared($0, $1, rendered: $2) }, typed: takeTyped,
                writeRendered: { try router?.writeRendered($0) })
            if let router {
                delivery.writeLeaves = { try router.writeLeaves($0, table: $1, collection: $2) }
                delivery.writeElement = { try router.writeElement($0, collection: $1) }
            }
            if let processor = plan.processor { delivery.warm = { processor.warmIDs(of: $0) } }
            /// --jobs: the rest of the file being read (each of a folder's files in turn) is cut into
            /// batches prepared on worker threads, or taken by the typed path (`ParallelConversion`).
            func runBatches() throws {
                guard applier == nil, !filtersAsRead else { return }
                // The lanes read this file's header (a folder's files each have their own).
                let lane = typed ? Self.typedLane(request: request, source: source, processor: plan.processor, writes: router != nil) : nil
                // For any other writer than one taking JSON Lines bytes rendered ahead: records carry values,
                // or CSV leaf streams for CSV writers (a lane made for their cell format once one is
                // open), or elements for a JSON or XML document's (once it is open).
                let valueLane = typed && (router != nil || recordsAsValues) ? Self.typedLane(source: source, processor: plan.processor, output: .values) : nil
                var leafLane: (format: CSVCellFormat, lane: TypedLane?)? = nil
                func csvLane() -> TypedLane? {
                    guard typed, let format = router?.csvCellFormat else { return nil }
                    if let leafLane, leafLane.format == format { return leafLane.lane }
                    let lane = Self.typedLane(source: source, processor: plan.processor, output: .csvLeaves(CSVLeafOutput(format: format)))
                    leafLane = (format, lane)
                    return lane
                }
                var elementLane: (form: RenderedElementForm, lane: TypedLane?)? = nil
                func elementsLane() -> TypedLane? {
                    guard typed, let form = router?.renderedElementForm else { return nil }
                    if let elementLane, elementLane.form == form { return elementLane.lane }
                    let lane = Self.typedLane(source: source, processor: plan.processor, output: LaneOutput(elementsIn: form))
                    elementLane = (form, lane)
                    return lane
                }
                let parallel = ParallelConversion(
                    jobs: request.jobs, source: source, processor: plan.processor, log: log, renderer: { recordsAsValues ? nil : router?.renderer },
                    hasLane: lane != nil || valueLane != nil,
                    // Taken records carry JSON Lines bytes for a JSON Lines writer that takes bytes
                    // rendered ahead (or nothing, when nothing is written), leaf streams for CSV
                    // writers, elements for a JSON or XML document's, values for the others.
                    lane: { recordsAsValues ? valueLane : router == nil || router?.renderer != nil ? lane : csvLane() ?? elementsLane() ?? valueLane },
                    inline: inliner.map { inliner in { try inliner.inline($0) } })
                try parallel?.run(delivery)
            }
            // Stopped once the selection was full: the rest of the input is not read.
            var stoppedEarly = false
            do {
                if let first { try take(first) }
                try stopIfFull()
            } catch is SelectionFull {
                stoppedEarly = true
            }
            var cutShort = false
            do {
                if let firstFailure { throw firstFailure }
                guard !stoppedEarly else { throw SelectionFull() }
                var batchedPart = source.partsStarted
                try runBatches()
                while let record = try source.next() {
                    try take(record)
                    // The first record of a folder's next file was read on its own, as the input's first was.
                    if source.partsStarted != batchedPart {
                        batchedPart = source.partsStarted
                        try runBatches()
                    }
                }
            } catch is SelectionFull {
                stoppedEarly = true
            } catch let error as FerryError where error.exitStatus == .malformedInput && (request.processing.mode == .lenient || router != nil) {
                // An input cut short or broken where reading cannot go on: --lenient keeps the
                // records read before it, as it does for a JSON Lines or CSV input (exit 3 still);
                // otherwise nothing is written, and the note below says what --lenient would do.
                log.report(error.diagnostic)
                cutShort = true
            }
            reading = false
            // Records read as another version than their envelope says: nothing is written of
            // them, --lenient or not.
            if !cutShort, !stoppedEarly, let late = plan.envelopeMetLate(in: source, file: input) { throw FerryError(late) }
            if let held { try emit(held.drain()) }
            // A sample is known once every record is read; it is written in input order.
            for record in selection?.finish() ?? [] { try write(record) }
            applier?.finish(columnPositions: source.columnPositions)
            // Past a cut no reference can be settled: none is reported dangling for it (a bundle's
            // archive cut inside a member, too: its records before the cut were read; or damaged:
            // the records in the damage were not).
            // Nor before a stop (`ferry head`): a reference to a record not read is not said dangling.
            if !cutShort, !stoppedEarly, source.bundle?.isReadInPart != true { plan.processor?.finish() }
            if let processor = plan.processor { recheck?.report(into: log, readBy: processor) }
            let referenced = references.referenced.union(inliner?.referenced ?? [])
            // A bundle cut short lacks what its manifest lists: no follow-on errors for that (nor for
            // one whose reading stopped: its counts and media are those of the records read).
            if let bundle = source.bundle, !cutShort, !stoppedEarly {
                bundle.verify(referencedMedia: Set(referenced.compactMap { source.media[$0] }), recordCounts: tally.read.counts, log: log)
            }
            result.collections = tally.kept.counts
            // A Firestore export's raw record can hold several documents: the processor counts them.
            result.recordsRead = max(tally.records, plan.processor?.documentsCommitted ?? 0)
            if cutShort || source.bundle?.isCutShort == true, request.processing.mode == .lenient,
               tally.kept.counts.allSatisfy({ $0.count == 0 }), let router
            {
                // Nothing before the cut could be kept (a zip is read from its directory at the
                // end: a cut one gives no member): no output is better than an empty one.
                router.discard()
                log.report(.note(.assumption, "nothing was written: the input is cut short before any record that could be kept",
                                 at: SourceLocation(file: input)))
                return
            }
            if log.hasErrors && request.processing.mode != .lenient {
                if let router {
                    router.discard()
                    log.report(.note(.assumption, "nothing was written because of the errors above; --lenient writes the valid records",
                                     at: SourceLocation(file: input)))
                }
                return
            }
            try router?.ensureOpened(collection: nil)
            let media = MediaOutcome(read: references, written: keptReferences, inlined: inliner?.referenced ?? [], dropped: outputMedia,
                                     carriesOrphans: filter == nil && selection == nil && !stoppedEarly)
            guard try commit(router, media: media, source: source, request: request, input: input, log: log, into: &result) else { return }
            result.output = router.map { r in r.paths.isEmpty ? "-" : r.paths.joined(separator: ", ") }
        } catch {
            router?.discard()
            result.collections = tally.kept.counts
            throw error
        }
    }
}
