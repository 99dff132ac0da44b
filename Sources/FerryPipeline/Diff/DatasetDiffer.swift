import FerryCore
import FerrySchemas
import FormatBundle
import Foundation

/// Compares two datasets (`ferry diff`): each side goes through the ordinary conversion path
/// (reader, model, migration, filter, writer) into a temporary canonical form at the newer of
/// the two versions, is spooled to disk keyed by id (`RecordSpool`), and the two are walked
/// collection by collection. Memory holds the id tables, never the records.
public struct DatasetDiffer: Sendable {
    /// The formats both sides are read with (and the canonical form written with).
    public let registry: FormatRegistry

    /// A differ reading with `registry` (built-ins plus any external adapters).
    public init(registry: FormatRegistry) {
        self.registry = registry
    }

    /// Runs the diff, handing what differs to `reporter` as it is found.
    /// - Parameters:
    ///   - remark: receives a sentence for people about the comparison itself, once each: that
    ///     it was not made, and why (a side with invalid or unreadable data), or what a JSON Patch
    ///     leaves out (media files of a side that has them).
    ///   - report: receives every diagnostic of reading and migrating both sides.
    /// - Returns: `.success` when nothing differs, `.invalidData` when something does (for
    ///   `canonicalJSON`, a record's move counts too), or the status of a side that could not be
    ///   compared (its diagnostics went to `report`; nothing went to `reporter`).
    /// - Throws: `FerryError(.usage)` for two standard inputs or a folder of several datasets,
    ///   `.unknownDomain` for two domains, what opening an input throws (`unreadable-input`,
    ///   `unknown-format`), `.outputUnwritable` when the temporary folder cannot be written, and
    ///   what the reporter throws.
    public func run(_ request: DiffRequest, reporter: any DiffReporter, remark: @Sendable (String) -> Void = { _ in },
                    report: @escaping @Sendable (Diagnostic) -> Void) throws -> ExitStatus
    {
        if request.old == "-" && request.new == "-" {
            throw FerryError(.usage, "OLD and NEW cannot both be standard input ('-')")
        }
        for path in [request.old, request.new] where DatasetInputs.isFolderOfDatasets(path, registry: registry) {
            throw FerryError(.usage, "diff compares two datasets, and this folder holds several; name one file of it",
                             at: SourceLocation(file: path))
        }
        let folder = try TemporaryFiles.shared.createFolder(kind: "diff")
        defer { TemporaryFiles.shared.remove(folder) }
        let oldPath = try Self.readable(request.old, folder: folder)
        let newPath = try Self.readable(request.new, folder: folder)
        let oldFound = try detect(oldPath, shown: request.old, request: request.reading)
        let newFound = try detect(newPath, shown: request.new, request: request.reading)
        if let a = oldFound?.domain, let b = newFound?.domain, a != b {
            throw FerryError(.unknownDomain, "OLD is \(a.rawValue) data and NEW is \(b.rawValue) data: datasets of two domains cannot be compared",
                             at: SourceLocation(file: request.new))
        }
        let domain = oldFound?.domain ?? newFound?.domain
        let version = [oldFound?.version, newFound?.version].compactMap { $0 }.max()
        var sides: [Spooled] = []
        for (index, (path, shown)) in [(oldPath, request.old), (newPath, request.new)].enumerated() {
            let side = try spool(path, shown: shown, name: index == 0 ? "old" : "new", domain: domain, version: version,
                                 request: request, folder: folder, report: report)
            guard case .spooled(let spooled) = side else {
                guard case .failed(let status) = side else { return .internalError }
                remark("not compared: '\(DiagnosticText.escaped(shown))' "
                    + (status == .invalidData ? "holds invalid records (above); --lenient compares the valid ones" : "could not be read (above)"))
                return status
            }
            sides.append(spooled)
        }
        // A domain whose media are fields (a notes image, base64 in `imageData`) has them in the
        // patch; other media files (a story's photos) are only named by their records.
        let inlined = domain.flatMap { domain in version.flatMap { DatasetSchema.schema(for: domain, version: $0) } }?
            .collections.contains { $0.recordType.fields.contains(where: \.isExternalStorage) } ?? false
        if request.canonicalJSON, !inlined, let shown = sides.first(where: { $0.mediaFiles > 0 })?.side.input {
            remark("'\(DiagnosticText.escaped(shown))' holds media files: the patch has the fields that name them, "
                + "not the files (a file changed under the same name is not in it); --report json compares them by SHA-256")
        }
        try reporter.begin(old: sides[0].side, new: sides[1].side)
        var summary = DiffSummary()
        var comparison = CollectionComparison(old: sides[0].spool, new: sides[1].spool, ignore: request.ignore, reporter: reporter)
        let oldOrder = sides[0].spool.order
        let order = oldOrder + sides[1].spool.order.filter { !oldOrder.contains($0) }
        for name in order { try comparison.compare(name, summary: &summary) }
        for difference in MediaComparison.differences(old: sides[0].media, new: sides[1].media) {
            switch difference.kind {
            case .added: summary.mediaAdded += 1
            case .removed: summary.mediaRemoved += 1
            case .changed: summary.mediaChanged += 1
            case .renamed: summary.mediaRenamed += 1
            }
            try reporter.media(difference)
        }
        try reporter.finish(summary)
        let differs = summary.differs || (request.canonicalJSON && summary.recordsMoved > 0)
        return differs ? .invalidData : .success
    }

    /// One side converted and spooled.
    private struct Spooled {
        var side: DiffSide
        var spool: RecordSpool
        /// Media path to SHA-256, empty for `canonicalJSON`.
        var media: [String: String]
        /// The number of media files the input holds, compared or not.
        var mediaFiles: Int
    }

    private enum SideResult {
        case spooled(Spooled)
        case failed(ExitStatus)
    }

    /// A path the input can be read from twice: standard input is copied to a file first.
    private static func readable(_ path: String, folder: String) throws -> String {
        guard path == "-" else { return path }
        let copy = folder + "/standard-input"
        guard FileManager.default.createFile(atPath: copy, contents: nil),
              let handle = FileHandle(forWritingAtPath: copy)
        else { throw FerryError(.outputUnwritable, "cannot keep standard input in a temporary file", at: SourceLocation(file: copy)) }
        defer { try? handle.close() }
        while let chunk = try? FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
            try handle.write(contentsOf: chunk)
        }
        return copy
    }

    /// The domain and version of an input, as a conversion would detect them; nil for data of
    /// no known domain (or a malformed input, whose conversion then reports why).
    private func detect(_ path: String, shown: String, request: ConversionRequest) throws -> (domain: Domain, version: Int)? {
        guard !request.schemaFree else { return nil }
        var options = request.read
        options.fileName = shown
        let source = try DatasetSource(path: path, formatName: request.inputFormat, registry: registry, options: options, log: DiagnosticLog())
        let first = (try? source.next()) ?? nil
        return DomainDetector.detect(
            domain: request.domain, version: request.sourceVersion, header: source.header,
            collections: source.declaredCollections + [first?.collection].compactMap { $0 },
            sample: DatasetPlan.detectionSample(first: first?.value, columns: source.columnNames.map { $0 + source.laterColumnNames }))
    }

    /// Converts one side to its temporary canonical form and spools its records.
    private func spool(
        _ path: String, shown: String, name: String, domain: Domain?, version: Int?, request: DiffRequest, folder: String,
        report: @escaping @Sendable (Diagnostic) -> Void
    ) throws -> SideResult {
        // A bundle folder with data in the comparison form (JSON Lines) keeps media files apart
        // (compared by digest); the canonical JSON form, or schema-free data, is one such file.
        let asBundle = !request.canonicalJSON && domain != nil
        guard let comparisonFormat = registry.format(playing: .comparisonForm),
            let bundleFormat = registry.format(playing: .defaultBundle)
        else {
            throw FerryError(.internalError, "no registered format plays the comparison form or the default bundle")
        }
        var conversion = request.reading
        conversion.action = .convert
        conversion.inputs = [path]
        conversion.output = folder + "/" + name + (asBundle ? "/" : "." + (comparisonFormat.extensions.first ?? comparisonFormat.name))
        conversion.outputFormat = asBundle ? bundleFormat.name : comparisonFormat.name
        conversion.dataFormat = asBundle ? comparisonFormat.name : nil
        conversion.domain = domain
        conversion.targetVersion = domain == nil ? nil : version
        conversion.schemaFree = request.reading.schemaFree || domain == nil
        conversion.filter = request.filter
        conversion.mediaAccountedFor = true
        conversion.read.header = DatasetHeader(domain: domain?.rawValue, schemaVersion: request.reading.sourceVersion)
        // Diagnostics name the input as the user did (standard input copied to a file is `-`).
        let rename: @Sendable (Diagnostic) -> Void = { diagnostic in
            var diagnostic = diagnostic
            if path != shown, diagnostic.location.file == path { diagnostic.location.file = shown }
            report(diagnostic)
        }
        guard let result = Converter(registry: registry).run(conversion, report: rename).first else { return .failed(.internalError) }
        // Invalid records stop the diff (their diagnostics say why), unless --lenient left them out.
        let compared = result.status < .invalidData || (result.status == .invalidData && conversion.processing.mode == .lenient)
        guard compared, result.output != nil, let output = conversion.output else { return .failed(max(result.status, .invalidData)) }
        let side = DiffSide(input: shown, format: result.format, domain: result.domain,
                            version: result.sourceVersion, comparedVersion: result.targetVersion)
        let spool = try RecordSpool()
        var media: [String: String] = [:]
        let log = DiagnosticLog()
        if asBundle {
            let manifest = try BundleManifest(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: output + "manifest.json"))))
            let dataFiles = Set(manifest.collections.map(\.path))
            for file in manifest.files where !dataFiles.contains(file.path) { media[manifest.datasetPath(of: file.path)] = file.sha256 }
            for collection in manifest.collections {
                var options = ReadOptions()
                options.collection = collection.name
                let source = try DatasetSource(path: output + collection.path, formatName: collection.format, registry: registry,
                                               options: options, log: log)
                while let record = try source.next() { try spool.append(record) }
            }
        } else {
            let source = try DatasetSource(path: output, formatName: comparisonFormat.name, registry: registry,
                                           options: ReadOptions(), log: log)
            while let record = try source.next() { try spool.append(record) }
        }
        spool.finish()
        if log.hasErrors {
            throw FerryError(.internalError, "cannot read back the compared form of this input: \(log.diagnostics.first.map(\.description) ?? "")",
                             at: SourceLocation(file: shown))
        }
        return .spooled(Spooled(side: side, spool: spool, media: media, mediaFiles: result.media?.count ?? 0))
    }
}
