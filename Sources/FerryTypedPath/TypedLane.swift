import FerryCore
import FerrySchemas
import FormatCSV
import FormatJSON

/// The typed path's entry for one input (issue 7): takes each raw record (a JSON Lines line, a CSV
/// row) whose collection has a typed route, decodes it straight into its model, runs the typed
/// migration stages, and renders the output line; gives up (nil) at anything else, so that the
/// record goes the general path. Shared by the worker threads; each batch of raw records is
/// offered to a `TypedLaneBatch` of its own (`batch()`), which holds the batch's output lines.
public final class TypedLane: Sendable {
    let routes: [String: LaneRoute]
    /// The routes again, in the source schema's collection order, for finding a JSON Lines
    /// line's route by its `$collection` bytes (a few names compared beat making the name and
    /// hashing it).
    let routeList: [LaneRoute]
    let options: DecodingOptions
    /// `options` for CSV rows, whose scalars are text whatever the run's other records are (a
    /// bundle's CSV member beside JSON ones: `Record.scalarsAreText`).
    private let csvOptions: DecodingOptions
    /// The context JSON lines and elements are read in: `options`, no record, no place (the
    /// reader's reports only decide that the record goes the general path, which reports it).
    let jsonContext: RecordContext
    /// What is made of a taken record: its output line, its CSV leaf stream (with the lane's key
    /// table set), its value, or nothing (validation).
    let output: LaneOutput
    /// For a CSV input: its header, and the reading of each route's model for it.
    private let csvColumns: [String]?
    private let csvReadings: [String: CSVModelReading]
    /// The readings of CSV headers other than `csvColumns` (the CSV data members of a bundle),
    /// made when a batch first meets one.
    private let otherReadings = CSVHeaderReadings()
    /// True when a record that may name a media file is left to the general path (a bundle with
    /// media: `mayNameMedia(_:)`).
    let declinesMediaNames: Bool
    /// True when the documents of a nested record are split as Firestore layouts are
    /// (`RecordPreparer.hasFirestoreLayouts`): sub-collections, and a word's `wordBookID` from its book.
    let splitsFirestoreLayouts: Bool

    /// A lane for the records `preparer` prepares, making `output` of each; `csvColumns` is the
    /// header of a CSV input (other headers, met in a bundle's members, are read as they come);
    /// `declinesMediaNames`: the input has media files, which a record may name (the general path
    /// counts them referenced, and puts external-storage media back into the record). Nil when no
    /// collection of the source version has a typed route.
    public init?(preparer: RecordPreparer, output: LaneOutput, csvColumns: [String]? = nil, declinesMediaNames: Bool = false) {
        var routes: [String: LaneRoute] = [:]
        var routeList: [LaneRoute] = []
        var textOptions = preparer.decodingOptions
        textOptions.scalarsAsText = true
        for collection in preparer.sourceCollections {
            // A route that asks each record whether it names media only where the bundle has none:
            // with media, the general path also counts a profile's or member's file found by its
            // id (`DomainDefinition.mediaStems`) as referenced.
            if let route = preparer.typedRoute(for: collection), !(declinesMediaNames && route.checksMedia),
               let laneRoute = LaneRoute(route, textOptions: textOptions)
            {
                routes[collection] = laneRoute
                routeList.append(laneRoute)
            }
        }
        guard !routes.isEmpty else { return nil }
        let options = preparer.decodingOptions
        var csvOptions = options
        csvOptions.scalarsAsText = true
        var readings: [String: CSVModelReading] = [:]
        if let csvColumns {
            for (collection, route) in routes {
                let reading = route.source.csvReading(csvColumns, csvOptions)
                if reading.isUsable { readings[collection] = reading }
            }
        }
        self.routes = routes
        self.routeList = routeList
        self.options = options
        self.csvOptions = csvOptions
        jsonContext = .placeless(options)
        if case .csvLeaves(var leaves) = output {
            leaves.layout = CSVLeafLayout(models: routeList.map(\.route.targetModel), format: leaves.format)
            self.output = .csvLeaves(leaves)
        } else {
            self.output = output
        }
        self.csvColumns = csvColumns
        self.csvReadings = readings
        self.declinesMediaNames = declinesMediaNames
        splitsFirestoreLayouts = preparer.hasFirestoreLayouts
    }

    /// The reading of `columns` by `route`'s model, as `init` makes those of `csvColumns`.
    private func csvReading(_ route: LaneRoute, _ columns: [String]) -> CSVModelReading {
        route.source.csvReading(columns, csvOptions)
    }

    /// A taker for one batch of raw records, rendering into a buffer of its own, with room for
    /// the preparations of `records` records (more grow its list).
    public func batch(reserving records: Int = 0) -> TypedLaneBatch { TypedLaneBatch(lane: self, reserving: records) }

    /// What `TypedLaneBatch.take` makes of `record` (and the collection it named), with the
    /// batch's `state`: making its `output` of it (the lane's, with the batch's encoder) and
    /// appending what it renders to its buffer; its last routes are tried first.
    func take(_ record: RawRecord, _ state: UnsafeMutablePointer<LaneBatchState>)
        -> (TypedPreparation, named: String?)?
    {
        switch record {
        case .jsonLine(let bytes, let line, let defaultCollection):
            guard !options.scalarsAsText, !declinesMediaNames || !MediaNameScan.mayNameMedia(bytes) else { return nil }
            // As it stands first, out of line of any closure (the usual case: a closure here made
            // the compiler copy the batch's output once a record).
            if !state.pointee.reorders, let taken = takeLine(bytes, line: line, defaultCollection: defaultCollection, state) {
                return taken
            }
            return takeJSON(bytes, isLine: true, collection: defaultCollection, line: line,
                maximumDepth: JSONRecordScan.defaultMaximumDepth, state)
            {
                takeLine(bytes, line: line, defaultCollection: defaultCollection, state)
            }
        case .csvRow(let row):
            if declinesMediaNames, MediaNameScan.mayNameMedia(row) { return nil }
            return takeRow(CSVRowInput(row: row, readers: state.pointee.readers), output: state.pointee.output,
                cache: &state.pointee.routeCache, into: &state.pointee.buffer)
        case .jsonElement(let bytes, let start, let collection, let maximumDepth):
            // A `$collection` member does not name a document element's collection: the element
            // is left to the usual way, which reads it as it always has.
            guard !options.scalarsAsText, !declinesMediaNames || !MediaNameScan.mayNameMedia(bytes) else { return nil }
            if !state.pointee.reorders, let (preparation, _) = takeElement(bytes, collection: collection, maximumDepth: maximumDepth, state) {
                return (preparation.onLine(JSONFieldLocator.idLine(in: bytes, start: start)), nil)
            }
            guard let (preparation, _) = takeJSON(bytes, isLine: false, collection: collection, line: 0,
                maximumDepth: maximumDepth, state, asItStands: {
                    takeElement(bytes, collection: collection, maximumDepth: maximumDepth, state)
                })
            else { return nil }
            return (preparation.onLine(JSONFieldLocator.idLine(in: bytes, start: start)), nil)
        case .jsonNested:
            // Several records: `takeNested(_:_:)`.
            return nil
        case .parsedText(let record):
            guard !declinesMediaNames, let collection = record.collection,
                  let route = elementRoute(of: collection, last: &state.pointee.lastLineRoute),
                  let preparation = route._withUnsafeGuaranteedRef({
                      takeInput(ValueInput(value: record.value, readers: state.pointee.readers), $0, $0.textValueReading,
                          output: state.pointee.output, into: &state.pointee.buffer)
                  })
            else { return nil }
            // The id's line, found here on the parsing thread (the commit's `idLine(of:)` would
            // look for it on the calling thread).
            return (DatasetProcessor.idLine(of: record).map { preparation.onLine($0) } ?? preparation, nil)
        }
    }

    /// A JSON Lines line taken as it stands, or nil.
    @inline(__always)
    func takeLine(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, defaultCollection: String?,
        _ state: UnsafeMutablePointer<LaneBatchState>) -> (TypedPreparation, named: String?)?
    {
        guard let scan = JSONRecordScan(bytes),
              let (route, named) = self.route(of: scan, defaultCollection: defaultCollection, last: &state.pointee.lastLineRoute)
        else { return nil }
        // The route borrowed (`Unmanaged`), here and below: a retain per record would write
        // the route's reference count from every worker thread.
        return route._withUnsafeGuaranteedRef {
            takeLine(scan, $0, named: named, line: line, output: state.pointee.output, reading: state.pointee.jsonReading,
                into: &state.pointee.buffer)
        }
    }

    /// A document element (or a nested record's document) of `collection` taken as it stands, or nil.
    @inline(__always)
    func takeElement(_ bytes: UnsafeBufferPointer<UInt8>, collection: String, maximumDepth: Int,
        _ state: UnsafeMutablePointer<LaneBatchState>) -> (TypedPreparation, named: String?)?
    {
        guard let scan = JSONRecordScan(bytes, maximumDepth: maximumDepth),
              !scan.namesCollection, let route = elementRoute(of: collection, last: &state.pointee.lastLineRoute)
        else { return nil }
        return route._withUnsafeGuaranteedRef {
            takeLine(scan, $0, named: nil, line: 0, output: state.pointee.output, reading: state.pointee.jsonReading,
                into: &state.pointee.buffer)
        }
    }

    /// The route of a document element's collection: `last`, the route of the batch's element
    /// before, when it is the same (a batch holds one collection's elements), else looked up.
    @inline(__always)
    func elementRoute(of collection: String, last: inout Unmanaged<LaneRoute>?) -> Unmanaged<LaneRoute>? {
        if let last, last._withUnsafeGuaranteedRef({ $0.route.sourceCollection == collection }) {
            return last
        }
        guard let route = routes[collection] else { return nil }
        last = Unmanaged.passUnretained(route)
        return last
    }

    /// A scanned JSON Lines line of `route` (standing on `line`) taken whole, or nil.
    @inline(__always)
    func takeLine(_ scan: JSONRecordScan, _ route: LaneRoute, named: String?, line: Int, output: LaneOutput,
        reading: JSONLineReading, into rendered: inout ByteBuffer) -> (TypedPreparation, named: String?)?
    {
        // The codecs are called where the route keeps them (`!`), not bound with `if let`: a
        // binding copies them, retaining their closures' contexts, which every worker shares.
        if route.takeJSON != nil {
            guard let passed = route.takeJSON!(scan, reading, route.route.targetCollection, output, &rendered)
            else { return nil }
            return (preparation(of: passed, route, singleLine: line), named)
        }
        if route.migrateJSON != nil {
            guard let (passed, references) = route.migrateJSON!(scan, reading, output, &rendered)
            else { return nil }
            return (preparation(of: passed, route, singleLine: line, references: references), named)
        }
        if route.referencing != nil {
            guard let (passed, references) = route.referencing!.passJSON(scan, reading, route.route, output, &rendered)
            else { return nil }
            return (preparation(of: passed, route, singleLine: line, references: references), named)
        }
        guard let model = route.source.decodeJSON(scan, reading),
              let preparation = finish(model, route: route, output: output, singleLine: line, into: &rendered)
        else { return nil }
        return (preparation, named)
    }

    /// A CSV row taken whole, or nil; `cache` holds the route of the collection named last.
    @inline(__always)
    private func takeRow(_ row: CSVRowInput, output: LaneOutput, cache: inout LaneRouteCache, into rendered: inout ByteBuffer)
        -> (TypedPreparation, named: String?)?
    {
        guard let collection = row.row.collection, let route = csvRoute(of: collection, row.row.columns, &cache),
              cache.reading != nil
        else { return nil }
        // The route borrowed and the reading used where the cache keeps it: copies would count the
        // route and the reading's closures, which every worker shares, once a row.
        guard let preparation = route._withUnsafeGuaranteedRef({
            takeInput(row, $0, cache.reading!, output: output, into: &rendered)
        })
        else { return nil }
        return (preparation, nil)
    }

    /// An input of text scalars (a CSV row, an XML record's value) taken whole by `route` through
    /// `reading`, or nil.
    @inline(__always)
    private func takeInput<Input>(_ input: Input, _ route: LaneRoute, _ reading: ModelReading<Input>, output: LaneOutput,
        into rendered: inout ByteBuffer) -> TypedPreparation?
    {
        if !route.route.migrates && !route.checks && !route.checksMedia {
            guard route.route.hasReferences else {
                guard let passed = reading.pass(input, route.route.targetCollection, output, &rendered) else { return nil }
                return preparation(of: passed, route)
            }
            guard let (passed, references) = reading.passReferencing(input, route.route, output, &rendered) else { return nil }
            return preparation(of: passed, route, references: references)
        }
        if route.pair != nil {
            guard let (passed, references) = route.pair!.migrate(input, reading, output, &rendered) else { return nil }
            return preparation(of: passed, route, references: references)
        }
        guard let model = reading.decode(input) else { return nil }
        return finish(model, route: route, output: output, scalarsAsText: true, into: &rendered)
    }

    /// The route of a scanned line's collection (its `$collection`, else `defaultCollection`),
    /// and the `$collection` it named (the route's own name: equal, and no string is made per
    /// line); nil when the collection has no route. `last`, the route a line of the batch named
    /// last, is tried first (a collection's records come in runs), its name compared as bytes.
    @inline(__always)
    private func route(of scan: JSONRecordScan, defaultCollection: String?, last: inout Unmanaged<LaneRoute>?)
        -> (Unmanaged<LaneRoute>, named: String?)?
    {
        // The lane holds its routes as long as its batches live.
        guard scan.namesCollection else {
            guard let defaultCollection, let route = routes[defaultCollection] else { return nil }
            return (Unmanaged.passUnretained(route), nil)
        }
        if let last, last._withUnsafeGuaranteedRef({ scan.collectionIs($0.sourceName) }) {
            return (last, last._withUnsafeGuaranteedRef { $0.route.sourceCollection })
        }
        for route in routeList where scan.collectionIs(route.sourceName) {
            last = Unmanaged.passUnretained(route)
            return (Unmanaged.passUnretained(route), route.route.sourceCollection)
        }
        return nil
    }

    /// The route of `collection`, with `cache` holding it and its model's reading of the CSV header
    /// `columns`: kept from before when it is for the same collection and header (rows of one
    /// batch nearly always are: the dictionaries are then not asked, the name not hashed).
    @inline(__always)
    private func csvRoute(of collection: String, _ columns: [String], _ cache: inout LaneRouteCache)
        -> Unmanaged<LaneRoute>?
    {
        if let cached = cache.route, cache.reading != nil, cache.collection == collection,
           Self.sameHeader(cache.columns, columns)
        {
            return cached
        }
        guard let route = routes[collection] else { return nil }
        let reading: CSVModelReading
        if isInputHeader(columns) {
            guard let input = csvReadings[collection] else { return nil }
            reading = input
        } else {
            reading = otherReadings.reading(collection, columns) { csvReading(route, columns) }
            guard reading.isUsable else { return nil }
        }
        // The lane holds its routes as long as its batches live.
        let unmanaged = Unmanaged.passUnretained(route)
        cache = LaneRouteCache(collection: collection, columns: columns, route: unmanaged, reading: reading)
        return unmanaged
    }

    /// True when `a` and `b` are the same header (rows share their header's array: usually one
    /// comparison of addresses).
    private static func sameHeader(_ a: [String], _ b: [String]) -> Bool {
        let same = a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
        return same || a == b
    }

    /// The preparation of a record taken whole; `singleLine`: the one line it stands on (a JSON
    /// Lines line; 0: none); `references`: those it makes.
    private func preparation(of passed: PassedRecord, _ route: LaneRoute, singleLine: Int = 0,
        references: [ModelReference] = []) -> TypedPreparation
    {
        TypedPreparation(route: route.route, id: passed.id, rendered: passed.rendered, value: passed.value, singleLine: singleLine,
            references: references)
    }

    /// Migrates and renders a decoded record (that stands on the one line `singleLine`, 0: not
    /// known; `scalarsAsText`: a CSV row), appending its output line or leaf stream to `buffer`
    /// (`output`).
    private func finish(_ model: any FieldCodableCollection, route laneRoute: LaneRoute, output: LaneOutput,
        singleLine: Int = 0, scalarsAsText: Bool = false, into buffer: inout ByteBuffer) -> TypedPreparation?
    {
        let route = laneRoute.route
        if laneRoute.checksMedia, route.namesMedia(model) { return nil }
        if let (step, environment, rules) = laneRoute.singleStage {
            // The new model is checked and written by the target codec, specialized for it, and
            // unboxed once.
            guard let new = step.migrateUnchecked(boxed: model, in: environment),
                  !laneRoute.checks || route.passesChecks(model, scalarsAsText: scalarsAsText),
                  let passed = laneRoute.target.passMigrated(new, model.recordID, environment, rules, scalarsAsText,
                      route.targetCollection, output, &buffer)
            else { return nil }
            return TypedPreparation(route: route, id: passed.id, rendered: passed.rendered, value: passed.value,
                singleLine: singleLine, references: route.references(of: model))
        }
        guard let target = route.migrate(model, scalarsAsText: scalarsAsText) else { return nil }
        if laneRoute.checks {
            guard route.passesChecks(model, scalarsAsText: scalarsAsText) else { return nil }
        }
        // Nil when the writer would refuse the model (the general path then reports that).
        guard let passed = laneRoute.target.passBoxed(target, model.recordID, route.targetCollection, output, &buffer)
        else { return nil }
        return TypedPreparation(route: route, id: passed.id, rendered: passed.rendered, value: passed.value,
            singleLine: singleLine, references: route.references(of: model))
    }

    /// True when `columns` is the header the CSV readings were made for (the rows share the
    /// header's array, so the usual check is one comparison of addresses).
    private func isInputHeader(_ columns: [String]) -> Bool {
        guard let csvColumns else { return false }
        return Self.sameHeader(columns, csvColumns)
    }
}

/// The route a `TypedLaneBatch` looked up last for a CSV row, with the collection it is for and
/// its model's reading of the header.
struct LaneRouteCache {
    var collection: String?
    /// The header the reading is for (held: its address stays its own while cached).
    var columns: [String] = []
    var route: Unmanaged<LaneRoute>?
    var reading: CSVModelReading?
}

/// A typed route with the codecs of its source and target models (specialized for them). A
/// class: looking a route up hands out one reference, not copies of its closures.
final class LaneRoute: @unchecked Sendable {
    // @unchecked: `sourceName`'s bytes are written once, in `init`.
    let route: TypedRoute
    /// `route.sourceCollection`'s UTF-8 bytes, which a line's `$collection` is compared with (no
    /// string copied or counted per line).
    let sourceName: UnsafeBufferPointer<UInt8>
    let source: TypedModelCodec
    let target: TypedModelCodec
    /// The source model's fields (`recordType.table`, by pointer: no count per record), for
    /// putting a record's members in order (`CanonicalOrder`); `sourceType` keeps them.
    let sourceTable: RecordType.Table
    private let sourceType: RecordType
    /// Takes a scanned JSON Lines line whole in one call specialized for the route's model: the
    /// source codec's `passJSON` for a route with no stage whose records name no others; nil for
    /// others.
    let takeJSON: (@Sendable (JSONRecordScan, JSONLineReading, String, LaneOutput, inout ByteBuffer) -> PassedRecord?)?
    /// For a route with one stage (and no checks): takes a JSON Lines line or a CSV row whole, the
    /// step run on the old model and the new one checked and written, with the references the
    /// records make, in calls specialized for the two models (`TypedPairCodec`); for a route with
    /// one check stage and no stage, the same with the old model written; nil for others
    /// (decoded, migrated by `TypedRoute.migrate(_:)` on boxed models and rendered by the target
    /// codec).
    let pair: TypedPairCodec?
    /// `pair`'s `migrateJSON`, kept here: called out of `pair`, its closure's context was
    /// retained and released once a record, by every worker.
    let migrateJSON: (@Sendable (JSONRecordScan, JSONLineReading, LaneOutput, inout ByteBuffer)
        -> (PassedRecord, [ModelReference])?)?
    /// For a route with no stage whose records name others: takes a scanned line whole, its
    /// references captured, in one call specialized for the model; nil for others.
    let referencing: ReferencingCodec?
    /// `route.checks`, read once (no call into the route per record on the other routes).
    let checks: Bool
    /// `route.checksMedia`, read once.
    let checksMedia: Bool
    /// The route's one stage (nil: none or several), whose new model the target codec checks and
    /// writes (specialized for it).
    let singleStage: (step: any CollectionMigration, environment: MigrationEnvironment, rules: FieldRulePlan)?
    /// The reading of the source model from a record's parsed value of text scalars (an XML
    /// record's), with the run's options and `scalarsAsText`.
    let textValueReading: ModelReading<ValueInput>

    /// Nil when a model is one no schema lists (it has no codec). `textOptions`: the run's
    /// decoding options with `scalarsAsText` set.
    init?(_ route: TypedRoute, textOptions: DecodingOptions) {
        guard let source = TypedModelCodec.codec(for: route.sourceModel),
              let target = TypedModelCodec.codec(for: route.targetModel)
        else { return nil }
        self.route = route
        let name = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: route.sourceCollection.utf8.count)
        _ = name.initialize(from: route.sourceCollection.utf8)
        sourceName = UnsafeBufferPointer(name)
        self.source = source
        self.target = target
        sourceType = route.sourceModel.recordType
        sourceTable = sourceType.table
        textValueReading = source.textValueReading(textOptions)
        checks = route.checks
        checksMedia = route.checksMedia
        singleStage = route.singleStage
        // A route whose records' media must be looked up: each record decoded and finished, which
        // asks its model (`TypedRoute.namesMedia`).
        guard !checksMedia else {
            referencing = nil
            takeJSON = nil
            pair = nil
            migrateJSON = nil
            return
        }
        // A route that runs the migration's checks: its one check stage run by `pair`, specialized
        // for the two models; with several, its records are decoded and finished, which runs them
        // (`TypedRoute.passesChecks` on the boxed model).
        guard !route.checks else {
            referencing = nil
            takeJSON = nil
            pair = TypedPairCodec.checking(for: route)
            migrateJSON = pair?.migrateJSON
            return
        }
        referencing = ReferencingCodec.codec(for: route)
        // A route with no stage whose records name others is taken by `referencing`.
        guard route.migrates else {
            takeJSON = route.hasReferences ? nil : source.passJSON
            pair = nil
            migrateJSON = nil
            return
        }
        takeJSON = nil
        pair = TypedPairCodec.codec(for: route)
        migrateJSON = pair?.migrateJSON
    }

    deinit { sourceName.deallocate() }
}
