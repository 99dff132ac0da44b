import FerryCore
import FerrySchemas
import FormatBundle
import Foundation

/// One input as a stream of records: a file, standard input, or a folder whose files each hold a
/// collection (`out/wineTastingNotes.csv`, the shape `ferry convert --to csv -o out/` writes).
final class DatasetSource {
    /// The input as the user named it.
    let name: String
    /// The format of the input's data files (`json`, `csv`, ...).
    let formatName: String
    /// The input's kind for people: the format, or `bundle folder` / `app Documents folder`.
    var formatDescription: String { bundleDescription ?? formatName }
    /// The data format's name in a sentence (`FormatDescriptor.title`: `JSON`, `CSV`), of the
    /// first file of a folder, of the bundle's format for a bundle.
    let formatTitle: String
    // One thread uses it at a time: its state is not checked for exclusive access at run time
    // (`@exclusivity(unchecked)`; each check cost about 65 instructions, several a record).
    @exclusivity(unchecked) private var bundleDescription: String?
    /// True when every data format of the input gives scalars as text (`FormatDescriptor.scalarsAreText`:
    /// CSV, XML), whether it is a file, a folder of such files or a bundle holding them: a
    /// domain's records are then typed by the schema the same way for all three. Where formats
    /// mix (a bundle with `data/notes.json` and `data/wine.csv`), each record carries its own
    /// file's or member's `Record.scalarsAreText` instead.
    let scalarsAreText: Bool
    /// Collections known before reading: the file stems of a folder input (less those of files
    /// whose records name their own collections, once read).
    @exclusivity(unchecked) private(set) var declaredCollections: [String]
    /// The collection taken from a one-collection file's name (`wineTastingNotes.csv`), not from
    /// `--collection`: it names a domain's collection, and is dropped again for schema-free data,
    /// which then converts as plain records (a top-level array), like Miller.
    @exclusivity(unchecked) private(set) var derivedCollection: String?
    /// The bundle being read, when the input is one (a tar, a bundle folder, an app Documents folder).
    let bundle: BundleReader?
    /// The bundle's media files: dataset-root paths as records name them (`media/Stories/s1/m1.jpg`)
    /// mapped to the bundle's member paths (`Stories/s1/m1.jpg` in a Documents folder).
    let media: [String: String]

    @exclusivity(unchecked) private var parts: [Part]
    @exclusivity(unchecked) private var current: (any RecordReader)?
    /// The file `current` reads, when the input is not a bundle.
    @exclusivity(unchecked) private var currentPart: Part?
    private let options: ReadOptions
    private let log: DiagnosticLog
    @exclusivity(unchecked) private var mergedHeader = DatasetHeader()
    private let progress: ProgressMeter?
    /// The input when it is one compressed data file: its stream may stop early.
    @exclusivity(unchecked) private var cut: CutCompressedInput?
    /// The input's bytes when it is a data file that is no regular file (a pipe), kept to be read again.
    private let pipe: SpooledPipeSource?
    /// `pipe` until its reader hands on its first record, after which no reader asks to read it
    /// again (`ReadOptions.reopen`): its first bytes are dropped then, not kept up to 8 MiB.
    @exclusivity(unchecked) private var pipeBeforeFirstRecord: SpooledPipeSource?

    /// Why the input, a pipe, was not read a second time when its reader asked; nil otherwise.
    var readAgainRefusal: SpooledPipeSource.Refusal? { pipe?.refusal }

    struct Part {
        var path: String
        var displayName: String
        var format: FormatDescriptor
        var collection: String?
        var source: (any ByteSource)?
        /// Opens the file again from its start (`ReadOptions.reopen`); nil for what is read once.
        var reopen: (@Sendable () throws -> any ByteSource)?
    }

    /// Whether the data belongs to a domain, once known (nil before): a CSV file (or CSV bundle
    /// member) with a repeated header name is then an error (`duplicate-header`); in schema-free
    /// data the repeats are renamed `name_2`, `name_3`, ... (Miller's way) and a note says so
    /// (SCHEMAS.md "CSV").
    var isDomainData: Bool? {
        didSet {
            guard isDomainData != nil else { return }
            for (reader, location) in uncheckedHeaders { log.report(contentsOf: repeatedHeaders(of: reader, at: location)) }
            uncheckedHeaders = []
        }
    }
    /// Header-line readers (CSV) started before the domain was known, with where their file is.
    @exclusivity(unchecked) private var uncheckedHeaders: [(any ColumnRecordReader, SourceLocation)] = []
    /// Whether the records of the file being read have text scalars (its format's).
    @exclusivity(unchecked) private var currentScalarsAreText = false

    /// Checks the header of a file or bundle member just started, now or once the domain is known:
    /// the problems to report now (a bundle's reader reports them in turn with its records).
    private func headerStarted(_ reader: any RecordReader, at location: SourceLocation) -> [Diagnostic] {
        guard let columns = reader as? any ColumnRecordReader else { return [] }
        guard isDomainData != nil else {
            uncheckedHeaders.append((columns, location))
            return []
        }
        return repeatedHeaders(of: columns, at: location)
    }

    /// An error a repeated header cell in a domain's data; in schema-free data one note a header.
    private func repeatedHeaders(of reader: any ColumnRecordReader, at file: SourceLocation) -> [Diagnostic] {
        let repeats = reader.duplicateHeaderCells
        guard let first = repeats.first else { return [] }
        func at(_ position: TextPosition) -> SourceLocation {
            var location = file
            location.position = position
            return location
        }
        guard isDomainData == false else {
            return repeats.map { name, position in
                .error(.duplicateHeader, "the header names '\(name)' more than once; a domain's fields are unique", at: at(position))
            }
        }
        var seen: Set<String> = []
        let names = repeats.map(\.name).filter { seen.insert($0).inserted }
        let shown = names.prefix(3).map(DiagnosticText.quoted).joined(separator: ", ") + (names.count > 3 ? ", ..." : "")
        return [.note(.assumption, "the header names \(shown) more than once: each repeat is read as NAME_2, NAME_3, ... (Miller's way)",
                      at: at(first.position))]
    }

    /// The files and bundle members of the input read by a format whose records are columns
    /// (`FormatDescriptor.hasHeaderColumns`): their field diagnostics name the column.
    @exclusivity(unchecked) private(set) var columnSources = ColumnSources()

    /// Where each column's header cell stands in the last CSV file read (empty for other formats).
    @exclusivity(unchecked) private(set) var columnPositions: [String: TextPosition] = [:]

    private func noteColumnPositions() {
        guard let columns = current as? any ColumnRecordReader else { return }
        columnPositions = Dictionary(columns.headerCells.map { ($0.name, $0.position) }, uniquingKeysWith: { first, _ in first })
        lastColumnNames = columns.headerCells.map(\.name)
    }

    @exclusivity(unchecked) private var lastColumnNames: [String]?

    /// The header names of the CSV file being read (or last read), in order; nil for other formats.
    var columnNames: [String]? {
        if let columns = current as? any ColumnRecordReader { return columns.headerCells.map(\.name) }
        return lastColumnNames
    }

    /// The header names of the files of a folder input not started yet whose format has header
    /// columns (each such file's header read here once more), for detection: the file read first,
    /// in collection order, may hold nothing that tells the version (a pet-story profile).
    var laterColumnNames: [String] {
        var names: [String] = []
        for part in parts where part.source == nil && part.format.hasHeaderColumns {
            guard let source = try? FileDescriptorSource(path: part.path),
                  let started = try? part.format.reader?.makeReader(source, options: options, log: DiagnosticLog()),
                  let columns = started as? any ColumnRecordReader
            else { continue }
            if columns.headerCells.isEmpty { _ = try? started.next() }
            names += columns.headerCells.map(\.name)
        }
        return names
    }

    /// The header declared by the inputs read so far.
    var header: DatasetHeader {
        var header = mergedHeader
        if let current {
            header.domain = header.domain ?? current.header.domain
            header.schemaVersion = header.schemaVersion ?? current.header.schemaVersion
        }
        return header
    }

    /// Opens `path` (`-` for standard input). The format and compression come from `formatName`
    /// (`--from`, such as `json` or `json.gz`), else the file name, else the first bytes (a tar, gzip,
    /// zstd, xz or bzip2 stream is recognised by content too; see `InputProbe`).
    /// `ignoring`: files of a folder input that are no data (`ConversionRequest.ignoredFiles`).
    /// `keepsMedia`: for an archive, whether its media are kept to be read again
    /// (`BundleReader.Options.keepsMedia`; nil: they are).
    /// - Throws: `FerryError` with `unreadable-input` or `unknown-format`.
    init(
        path: String, formatName: String?, registry: FormatRegistry, options: ReadOptions, log: DiagnosticLog,
        progress: ProgressMeter? = nil, ignoring: Set<String> = [], keepsMedia: (@Sendable (String?) -> Bool)? = nil
    ) throws {
        self.progress = progress
        self.name = path
        self.options = options
        self.log = log
        var isFolder: ObjCBool = false
        let exists = path != "-" && FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if path != "-" && !exists {
            throw FerryError(.unreadableInput, "no such file or folder", at: SourceLocation(file: path))
        }
        let bundleFormat = registry.format(playing: .defaultBundle)
        let isBundle = Self.isBundle(path, isFolder: isFolder.boolValue, formatName: formatName, registry: registry)
        // A file or standard input whose name says nothing is opened first: its bytes may show a tar.
        // Before the probe reads any of it: where standard input starts, should it be read again.
        let standardInputStart = path == "-" ? FileDescriptorSource.regularFileOffset(of: 0) : nil
        let probe = isBundle || isFolder.boolValue ? nil : try InputProbe.open(path: path, formatName: formatName, registry: registry)
        if isBundle || probe?.isArchive == true {
            // An archive's members are read once: nothing of a piped one is kept.
            probe?.pipe?.stopKeeping()
            pipe = nil
            var bundleOptions = BundleReader.Options(
                documentsDataFile: isFolder.boolValue ? DocumentsFolder.dataFile(in: path, domain: options.header.domain) : nil)
            bundleOptions.keepsMedia = keepsMedia
            let bundle = try probe.map { try BundleReader(path: path, source: $0.source, options: bundleOptions, log: log) }
                ?? BundleReader(path: path, options: bundleOptions, log: log)
            self.bundle = bundle
            self.parts = []
            // A zip is named by its own format; a tar and a folder by the bundle format's.
            self.formatName = bundle.layout == .archive && bundle.container == .zip
                ? bundle.container.rawValue : bundleFormat?.name ?? bundle.container.rawValue
            switch bundle.layout {
            case .archive: self.bundleDescription = nil
            case .folder: self.bundleDescription = "bundle folder"
            case .documentsFolder: self.bundleDescription = "app Documents folder"
            }
            self.declaredCollections = bundle.manifest?.collections.map(\.name) ?? []
            let members = bundle.dataMembers(registry: registry)
            self.scalarsAreText = !members.isEmpty && members.allSatisfy { $0.format.scalarsAreText }
            self.formatTitle = bundleFormat?.title ?? self.formatName.uppercased()
            self.columnSources.members = Set(members.filter { $0.format.hasHeaderColumns }.map(\.member))
            self.media = Self.mediaTable(bundle)
            self.current = try bundle.makeRecordReader(registry: registry, options: options, log: log) { [weak self] member, reader in
                self?.headerStarted(reader, at: SourceLocation(file: path, member: member)) ?? []
            }
            return
        }
        bundle = nil
        media = [:]
        pipe = probe?.pipe
        pipeBeforeFirstRecord = pipe
        guard let probe, case .records(let format) = probe.kind else {
            let parts = try Self.folderParts(
                path, formatName: formatName.flatMap { InputProbe.requested($0, registry: registry)?.format.name }, registry: registry,
                ignoring: ignoring)
            guard let first = parts.first else {
                throw FerryError(.unknownFormat, "the folder holds no file of a known format", at: SourceLocation(file: path))
            }
            self.parts = parts
            self.formatName = first.format.name
            self.formatTitle = first.format.title
            self.declaredCollections = parts.compactMap(\.collection)
            self.scalarsAreText = parts.allSatisfy { $0.format.scalarsAreText }
            self.columnSources.files = Set(parts.filter { $0.format.hasHeaderColumns }.map(\.displayName))
            return
        }
        let innerPath = probe.innerPath
        var stream = probe.source
        if probe.compression != .none, let decompressing = stream as? any DecompressingSource {
            cut = CutCompressedInput(decompressing, file: path)
        }
        if let progress {
            if probe.compression == .none { progress.expect(bytes: Self.size(of: path)) }
            stream = CountingSource(stream, meter: progress)
        }
        guard format.reader != nil else {
            // Named (--from, the extension) but write-only, as an external adapter may be.
            throw FerryError(.unknownFormat, "format '\(format.name)' is written only, not read; `ferry formats` lists what reads",
                             at: SourceLocation(file: path))
        }
        // A one-collection file (CSV) names its collection after itself: `wineTastingNotes.csv`.
        var collection = options.collection
        if collection == nil, format.isSingleCollection, path != "-" {
            let name = URL(fileURLWithPath: innerPath).lastPathComponent
            collection = String(name.prefix { $0 != "." })
        }
        self.parts = [Part(path: path, displayName: path, format: format, collection: collection, source: stream,
                           reopen: Self.reopener(path, compressed: probe.compression != .none, standardInputStart: standardInputStart,
                                                 pipe: probe.pipe))]
        self.formatName = format.name
        self.formatTitle = format.title
        self.declaredCollections = collection.map { [$0] } ?? []
        self.scalarsAreText = format.scalarsAreText
        if format.hasHeaderColumns { self.columnSources.isWhole = true }
        self.derivedCollection = options.collection == nil ? collection : nil
    }

    /// A program's own records (`ConversionRequest.records`), read as the input `name`.
    init(records: RecordsInput, name: String, registry: FormatRegistry, options: ReadOptions, log: DiagnosticLog) {
        self.name = name
        self.options = options
        self.log = log
        self.progress = nil
        self.bundle = nil
        self.pipe = nil
        self.media = [:]
        self.parts = []
        // No format of the registry's: an output names its own.
        self.formatName = ""
        self.formatTitle = "records"
        self.scalarsAreText = false
        self.declaredCollections = records.collections
        self.current = RecordsInputReader(records)
        partsStarted = 1
    }

    /// True for a tar by name (by extension or `--from tar`; a tar found by content is
    /// `InputProbe`'s), a folder with `manifest.json` or `data/`, or a
    /// folder laid out like the app's Documents folder (SCHEMAS.md "Bundle").
    /// True when `path` is read as a bundle whatever its content: `--from` (`formatName`) or its
    /// name names a container format, or it is a folder holding a bundle's or an app Documents
    /// folder's parts.
    static func isBundle(_ path: String, formatName: String?, registry: FormatRegistry) -> Bool {
        var isFolder: ObjCBool = false
        let exists = path != "-" && FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        return isBundle(path, isFolder: exists && isFolder.boolValue, formatName: formatName, registry: registry)
    }

    private static func isBundle(_ path: String, isFolder: Bool, formatName: String?, registry: FormatRegistry) -> Bool {
        if let formatName { return InputProbe.requested(formatName, registry: registry)?.format.isContainer ?? false }
        guard isFolder else { return path != "-" && (registry.format(forPath: path)?.isContainer ?? false) }
        let names = Set((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
        return !names.isDisjoint(with: ["manifest.json", "data", "ProfileImages", "MemberImages", "Stories", "media"])
    }

    /// The size of a regular file, 0 for anything else (standard input, a pipe).
    private static func size(of path: String) -> Int64 {
        guard path != "-", let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              (attributes[.type] as? FileAttributeType) == .typeRegular
        else { return 0 }
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Media paths as records name them (always under `media/`, relative to the dataset root:
    /// a bag's payload folder), to member paths.
    private static func mediaTable(_ bundle: BundleReader) -> [String: String] {
        var table: [String: String] = [:]
        for path in bundle.mediaPaths {  // paths only: no digest is waited for
            let relative = bundle.datasetPath(of: path)
            table[relative.hasPrefix("media/") ? relative : "media/" + relative] = path
        }
        return table
    }

    /// The readable files of a folder, each named after its collection, in its domain's
    /// collection order (then by name).
    private static func folderParts(
        _ folder: String, formatName: String?, registry: FormatRegistry, ignoring: Set<String>
    ) throws -> [Part] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        var parts: [Part] = []
        for name in names {
            let path = (folder as NSString).appendingPathComponent(name)
            if !ignoring.isEmpty, ignoring.contains(InputExpander.standardized(path)) { continue }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let format = formatName.flatMap { registry.format(named: $0) } ?? registry.format(forPath: name)
            guard let format, format.reader != nil, !format.isContainer else { continue }
            let stem = String(name.prefix { $0 != "." })
            parts.append(Part(path: path, displayName: path, format: format, collection: stem, source: nil,
                              reopen: reopener(path, compressed: false)))
        }
        return DomainDetector.inCollectionOrder(parts) { $0.collection ?? "" }
    }

    /// The reader of the file being read when it cuts batches of records (JSON Lines, CSV, a JSON
    /// document, XML), or of a bundle (its members' batches, `BundleRecordReader`), for `--jobs`;
    /// nil for other formats. In a folder it is the reader of the file `next()` is in, and reads
    /// that file only: once its batches are done, `next()` moves on to the next file, whose
    /// reader is another (`partsStarted` counts them). Nil for a file whose records are typed
    /// otherwise than the input's (`scalarsAreText`: a CSV file in a folder of JSON), as
    /// batches carry no mark of their own. Valid once `next()` returned a record.
    var batchReader: (any BatchRecordReader)? {
        // A bundle's reader marks its members' records itself.
        guard bundle != nil || currentScalarsAreText == scalarsAreText,
              let reader = current as? any BatchRecordReader else { return nil }
        if let cut { return CutCompressedBatchReader(reader, cut: cut) }
        return reader
    }

    /// The header names of `batchReader`'s file when its records are columns (CSV); nil otherwise.
    var batchHeaderFields: [String]? {
        guard batchReader != nil else { return nil }
        return (current as? any ColumnRecordReader)?.headerFields
    }

    /// The collections whose records may still come from `next()`, as far as the input tells
    /// before it is read to its end (`""` for records that name none); nil when any may.
    ///
    /// A bundle's manifest lists its collections and their counts: those whose count is above
    /// the records read of them so far (`read`, by collection as read) may still come. Otherwise
    /// the one file being read, once no other file of a folder is left to open, may hold only
    /// its own collection when its format holds one (CSV) and its rows do not name theirs (no
    /// `$collection` column), or when its reader says so (`remainingRecordsShareCollection`: a
    /// top-level JSON array); a file whose records name their collections (a JSON envelope, JSON
    /// Lines, XML), or a folder with files not opened yet (any of them may name any collection),
    /// may hold any.
    func collectionsStillToCome(read: KeyedCounter) -> Set<String>? {
        if let bundle {
            guard let manifest = bundle.manifest else { return nil }
            return Set(manifest.collections.filter { $0.count > read[$0.name] }.map(\.name))
        }
        guard parts.isEmpty else { return nil }
        guard let current else { return [] }
        guard let part = currentPart else { return nil }
        guard part.format.isSingleCollection && !current.recordsNameCollections || current.remainingRecordsShareCollection else { return nil }
        return [part.collection ?? options.collection ?? ""]
    }

    /// How many files (a folder's, or the one file) `next()` has started reading: a new count
    /// means a new `batchReader`.
    @exclusivity(unchecked) private(set) var partsStarted = 0

    /// The next record of the input, moving through a folder's files in collection order.
    func next() throws -> Record? {
        while true {
            if let current {
                let next: Record?
                do {
                    next = try current.next()
                } catch let error where cut?.echoes(error) == true {
                    // The reader met the end of a compressed stream that stopped early: its
                    // records end there, and the stop is said below.
                    next = nil
                }
                if var record = next {
                    if currentScalarsAreText { record.scalarsAreText = true }
                    if let pipe = pipeBeforeFirstRecord {
                        pipeBeforeFirstRecord = nil
                        pipe.stopKeeping()
                    }
                    return record
                }
                noteColumnPositions()
                mergedHeader.domain = mergedHeader.domain ?? current.header.domain
                mergedHeader.schemaVersion = mergedHeader.schemaVersion ?? current.header.schemaVersion
                self.current = nil
                if let stop = cut?.takeStop() { throw stop }
            }
            guard !parts.isEmpty else { return nil }
            let part = parts.removeFirst()
            var partOptions = options
            partOptions.fileName = part.displayName
            partOptions.collection = part.collection ?? options.collection
            partOptions.reopen = part.reopen
            var source = try part.source ?? FileDescriptorSource(path: part.path)
            if let progress, part.source == nil {
                progress.expect(bytes: Self.size(of: part.path))
                source = CountingSource(source, meter: progress)
            }
            guard let reader = part.format.reader else { continue }
            let started: any RecordReader
            do {
                started = try reader.makeReader(source, options: partOptions, log: cut?.filtering(log) ?? log)
            } catch let error where cut?.echoes(error) == true {
                // Cut before its first record (inside a CSV header): nothing to read but the stop.
                throw cut?.takeStop() ?? error
            }
            current = started
            currentPart = part
            partsStarted += 1
            currentScalarsAreText = part.format.scalarsAreText
            if current?.recordsNameCollections == true, let stem = part.collection, stem != options.collection {
                // `notes.csv` holding a `$collection` column: the rows name the collections.
                declaredCollections.removeAll { $0 == stem }
                if derivedCollection == stem { derivedCollection = nil }
            }
            log.report(contentsOf: headerStarted(started, at: SourceLocation(file: part.displayName)))
        }
    }
}

/// The files (as diagnostics name them) and bundle members of an input whose records are columns
/// (CSV, TSV), so a diagnostic about one of their fields may name the column
/// (`Converter.namingCSVColumn`) while the input's other files are left as they are.
struct ColumnSources: Sendable {
    /// True when the input is one such file: every diagnostic is about it.
    var isWhole = false
    var files: Set<String> = []
    var members: Set<String> = []

    var isEmpty: Bool { !isWhole && files.isEmpty && members.isEmpty }

    /// True when `location` is in one of the files or members.
    func contains(_ location: SourceLocation) -> Bool {
        if isWhole { return true }
        if let member = location.member { return members.contains(member) }
        return location.file.map(files.contains) ?? false
    }
}
