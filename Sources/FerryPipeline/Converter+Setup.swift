import FerryCore
import FerrySchemas
import FerryTypedPath
import FormatBundle
import Foundation

/// What `convert` sets a dataset's run up with: its output router, the typed path, the reference
/// recheck after a filter, the media inliner.
extension Converter {
    func makeRouter(
        request: ConversionRequest, target: OutputTarget, naming: OutputNaming, source: DatasetSource, plan: DatasetPlan
    ) throws -> OutputRouter {
        if request.outputFormat == nil, case .file(let path) = target, target.formatName(registry: registry) == nil {
            let ext = URL(fileURLWithPath: Compression.forPath(path).innerPath).pathExtension.lowercased()
            if !ext.isEmpty {
                throw FerryError(.unknownFormat, "no format writes '.\(ext)' files; name one with --to (`ferry formats` lists them)"
                                 + registry.undescribedNote(for: ext), at: SourceLocation(file: path))
            }
        }
        var formatName = request.outputFormat ?? target.formatName(registry: registry) ?? source.formatName
        if request.outputFormat == nil, case .standardOutput = target, request.printsBundlesAsData,
           registry.format(named: formatName)?.isContainer == true,
           let instead = registry.format(playing: .defaultBundleData)?.name
        {
            formatName = instead
        }
        if formatName.isEmpty {
            // Records from memory (`ConversionRequest.records`) have no format an output could keep.
            throw FerryError(.unknownFormat, "nothing names the output format: name it, or give the output an extension that does")
        }
        // A format the output's extension named is said at the output.
        var location = SourceLocation()
        if request.outputFormat == nil, case .file(let path) = target { location = SourceLocation(file: path) }
        let format = try registry.outputFormat(named: formatName, at: location)
        if let dataFormat = request.dataFormat, !format.isContainer {
            throw FerryError(.usage, "--data-format \(dataFormat) names the data format inside a bundle, and the output is "
                + "\(format.name), not a bundle: add --to tar (or -o NAME.tar)")
        }
        var options = request.write
        options.header = plan.outputHeader
        options.collections = plan.collections
        options.recordTypeNames = plan.recordTypeNames
        let schema = plan.schemaFreeOutput ? nil : plan.domain.flatMap { domain in plan.targetVersion.flatMap { DatasetSchema.schema(for: domain, version: $0) } }
        return OutputRouter(target: target, format: format, options: options, stem: naming.stem,
                            ownFolder: naming.ownFolder, registry: registry, schema: schema, dataFormat: request.dataFormat,
                            holdsStandardOutput: request.processing.mode != .lenient, runFolders: request.runFolders)
    }

    /// The typed path for a domain run (issue 7): records go from bytes to model to bytes. Nil
    /// when there is no domain, the input has media, or the output's lines cannot be rendered
    /// from models (`writes`: the run writes an output).
    static func typedLane(request: ConversionRequest, source: DatasetSource, processor: DatasetProcessor?,
        writes: Bool) -> TypedLane?
    {
        var output = LaneOutput.nothing
        if writes {
            guard let plain = JSONLinesRendering(options: request.write) else { return nil }
            output = .lines(plain)
        }
        return typedLane(source: source, processor: processor, output: output)
    }

    /// The typed path making `output` of each record it takes. In a bundle, only the collections
    /// whose records need no media catalog have routes (`RecordPreparer.typedRoute(for:)`), and
    /// with media a record that may name one is left to the general path, which counts it
    /// referenced and puts external-storage media back (`MediaInliner`).
    static func typedLane(source: DatasetSource, processor: DatasetProcessor?, output: LaneOutput) -> TypedLane? {
        guard let processor else { return nil }
        let columns = source.batchHeaderFields
        return TypedLane(preparer: processor.preparer, output: output, csvColumns: columns,
            declinesMediaNames: !source.media.isEmpty)
    }

    /// With a filter or a record selection, a second processor sees the kept records only, so
    /// references that they left dangling (a story tagging a member filtered out) are reported.
    /// - Parameter dropping: what drops records (`filtering (--where)`), named in the warnings; nil
    ///   when nothing does.
    static func referenceRecheck(dropping: String?, plan: DatasetPlan, request: ConversionRequest) throws -> ReferenceRecheck? {
        // Records that name none (wine notes) cannot leave one dangling: nothing to check again.
        guard let dropping, let domain = plan.domain, let version = plan.targetVersion, plan.processor?.makesReferences == true
        else { return nil }
        let log = DiagnosticLog()
        var options = request.processing
        options.mode = .lenient
        // The kept records were checked as read: only their ids and references are read again.
        options.checksRecords = false
        options.needsOutputValues = false
        // Records of a Firestore export's documents are named where those stand, as the first
        // processor named them (it marks them so).
        options.namesDocumentsBySource = true
        plan.processor?.marksDocumentSources = true
        let processor = try DatasetProcessor(domain: domain, sourceVersion: version, targetVersion: version, options: options, log: log)
        return ReferenceRecheck(processor: processor, log: log, reason: dropping)
    }

    /// Whether a run that writes nothing keeps an archive's media (`BundleReader.Options.keepsMedia`): when the
    /// dataset's domain (`domain`, else the manifest's) reads media back into its records, or is
    /// not known.
    static func keepsMedia(domain: Domain?) -> @Sendable (String?) -> Bool {
        { named in
            guard let domain = domain ?? named.flatMap({ Domain(rawValue: $0) }) else { return true }
            return keepsMediaInRecords(domain)
        }
    }

    /// True when some version of `domain` has a field kept outside its records in a bundle
    /// (`isExternalStorage`: notes' `imageData`), whose media a run reads back into its records.
    static func keepsMediaInRecords(_ domain: Domain) -> Bool {
        guard let plan = domain.definition?.migrationPlan else { return true }
        return plan.schemas.contains { schema in
            DatasetSchema.schema(for: domain, version: schema.versionIdentifier.major)?.collections
                .contains { $0.recordType.fields.contains(where: \.isExternalStorage) } ?? true
        }
    }

    /// For a bundle holding records with external storage, the inliner that puts their media back.
    static func inliner(for source: DatasetSource, plan: DatasetPlan) -> MediaInliner? {
        guard let bundle = source.bundle, let domain = plan.domain, let version = plan.sourceVersion,
              let schema = DatasetSchema.schema(for: domain, version: version)
        else { return nil }
        return MediaInliner(schema: schema, media: source.media) { member in try bundle.open(member) }
    }
}
