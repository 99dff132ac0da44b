import FerryCore
import FerrySchemas

/// What an input is (detected domain and version) and what to do with its records.
struct DatasetPlan {
    var domain: Domain?
    var sourceVersion: Int?
    var targetVersion: Int?
    /// Nil for schema-free data: records pass through untouched.
    var processor: DatasetProcessor?
    /// The output's collections in canonical order.
    var collections: [String]
    var recordTypeNames: [String: String]
    var outputHeader: DatasetHeader
    /// True when the output is written as schema-free records although the input has a domain
    /// (`--select` left out a required field): no domain header, no schema for the writer.
    var schemaFreeOutput = false
    /// The domain and version known when they were detected, besides the records' fields: named
    /// by flags or a mapping, or said by the input's header so far (`envelopeMetLate`).
    var knownAtDetection = DatasetHeader()

    /// The record that field shapes are read from for detection. A CSV row leaves out its empty
    /// cells, so the first row alone can hide the columns that tell versions apart (in a file of
    /// several collections the first row is a profile, and a V2 story's `location` columns come
    /// later): every header column's top-level field stands in the sample too, null where the row
    /// has no value.
    static func detectionSample(first: Value?, columns: [String]?) -> Value? {
        guard let columns, !columns.isEmpty else { return first }
        var object = first?.objectValue ?? ValueObject()
        // A set, not the object's own lookup (a scan of its members): a header of 30,000 columns.
        var present = Set(object.keys)
        for column in columns where column != "$collection" {
            let key = column.split(separator: ".", maxSplits: 1).first.map(String.init) ?? column
            if present.insert(key).inserted { object.append(key, .null) }
        }
        return .object(object)
    }

    /// Detects the input's domain and version (flags, then the input's header, then collection
    /// names and field shapes) and sets up the processor.
    /// `--schema-free` skips detection: the records pass through as plain records.
    /// - Throws: `FerryError(.unknownDomain)` when a version change is asked of data of no known
    ///   domain (unless the input is malformed: its syntax error is reported or thrown instead),
    ///   `.unknownVersion` for a down-migration or an unknown version.
    static func make(
        request: ConversionRequest, source: DatasetSource, first: Record?, mapping: FieldMapping?, log: DiagnosticLog
    ) throws -> DatasetPlan {
        let collections = source.declaredCollections + [first?.collection].compactMap { $0 }
        let detected = request.schemaFree ? nil : mapping.map { (domain: $0.domain, version: $0.schemaVersion) } ?? DomainDetector.detect(
            domain: request.domain, version: request.sourceVersion, header: source.header,
            collections: collections, sample: detectionSample(first: first?.value, columns: source.columnNames.map { $0 + source.laterColumnNames }))
        guard let detected else {
            if !request.schemaFree, request.domain != nil || request.targetVersion != nil {
                // A malformed input says nothing reliable of its domain: its syntax error, with its
                // position, is the one to show. The rest is read (and dropped) to find it; a reader
                // that stops at it throws it from here.
                while try source.next() != nil {}
                if log.exitStatus < .malformedInput {
                    throw FerryError(.unknownDomain, "cannot tell the domain and version of this input; name them with --domain and --schema-version",
                                     at: SourceLocation(file: source.name))
                }
            }
            if !request.schemaFree, mapping == nil, let named = source.header.domain, Domain(rawValue: named) == nil {
                // A domain the input names that no definition describes (a typo, another tool's):
                // its records still convert, as plain records, and the user is told why nothing
                // was checked against a schema.
                let known = Domain.allCases.map(\.rawValue).joined(separator: ", ")
                log.report(.note(.assumption, "the input names the domain \(DiagnosticText.quoted(named)), which is none of Ferry's (\(known)): its records are read as plain records, checked for well-formedness only",
                                 at: SourceLocation(file: source.name)))
            }
            return DatasetPlan(domain: nil, sourceVersion: source.header.schemaVersion, targetVersion: nil, processor: nil,
                               collections: [], recordTypeNames: [:], outputHeader: source.header)
        }
        let target = request.action == .validate ? detected.version : (request.targetVersion ?? detected.version)
        if request.notesVersionAlreadyReached, request.targetVersion == detected.version {
            log.report(.note(.assumption, "the input is at version \(detected.version) already: nothing to migrate",
                             at: SourceLocation(file: source.name)))
        }
        var options = request.processing
        options.scalarsAsText = options.scalarsAsText || source.scalarsAreText
        options.inputFormatTitle = source.formatTitle
        let processor: DatasetProcessor
        do {
            processor = try DatasetProcessor(
                domain: detected.domain, sourceVersion: detected.version, targetVersion: target, options: options, log: log)
        } catch var error as FerryError where error.diagnostic.location.file == nil {
            // An unknown version is the input's (or the request's) problem: name the input.
            error.diagnostic.location.file = source.name
            throw error
        }
        let schema = processor.targetSchema
        var names: [String: String] = [:]
        for collection in schema.collections { names[collection.name] = collection.recordType.name }
        return DatasetPlan(
            domain: detected.domain, sourceVersion: detected.version, targetVersion: target, processor: processor,
            collections: schema.collections.map(\.name), recordTypeNames: names,
            outputHeader: DatasetHeader(domain: detected.domain.rawValue, schemaVersion: target),
            knownAtDetection: DatasetHeader(
                domain: mapping?.domain.rawValue ?? request.domain?.rawValue ?? source.header.domain,
                schemaVersion: mapping?.schemaVersion ?? request.sourceVersion ?? source.header.schemaVersion))
    }

    /// An error (`unknown-version`, `unknown-domain`: exit 4) when the header of `source` read to
    /// the end names another version or domain than the records were read as, having said nothing
    /// of it when they were detected: an envelope whose members stand after the collections in
    /// input that was not read a second time to find them first (`ReadOptions.reopen`): a pipe
    /// whose first collection starts past the bytes it keeps, or without a temporary file
    /// (`DatasetSource.readAgainRefusal` says which). Nil when it agrees, or flags or a mapping
    /// named them.
    func envelopeMetLate(in source: DatasetSource, file: String) -> Diagnostic? {
        guard processor != nil, let domain else { return nil }
        let header = source.header
        let advice = (source.readAgainRefusal.map { Self.readOnce($0) + ": " } ?? "") + "put the envelope before the collections, or name it"
        if knownAtDetection.domain == nil, let named = header.domain, named != domain.rawValue {
            return .error(.unknownDomain, "the envelope's domain \(DiagnosticText.quoted(named)) stands after the records, "
                + "which were read as \(domain.rawValue); \(advice) with --domain", at: SourceLocation(file: file))
        }
        if knownAtDetection.schemaVersion == nil, let version = header.schemaVersion, version != sourceVersion {
            return .error(.unknownVersion, "the envelope's schemaVersion \(version) stands after the records, "
                + "which were read as version \(sourceVersion ?? 0) from their fields; \(advice) with --schema-version \(version)",
                at: SourceLocation(file: file))
        }
        return nil
    }

    /// Why a pipe was read once, for `envelopeMetLate`.
    private static func readOnce(_ refusal: SpooledPipeSource.Refusal) -> String {
        switch refusal {
        case .pastKeptPrefix(let limit):
            "a pipe is read a second time only when its first collection starts in its first \(limit >> 20) MiB"
        case .noTemporaryFile(let reason):
            "a pipe is read a second time from a temporary file, which could not be made (\(reason))"
        case .copyFailed(let reason):
            "reading the pipe ahead to read it a second time failed (\(reason))"
        }
    }
}
