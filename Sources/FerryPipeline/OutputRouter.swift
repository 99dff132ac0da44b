import FerryCore
import FerrySchemas
import FormatBundle
import FormatCSV
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Sends one input's output records to their writer (or, for one-collection formats in a folder,
/// to one writer per collection) and makes the files appear only when all are complete.
final class OutputRouter {
    private let target: OutputTarget
    private let format: FormatDescriptor
    private let options: WriteOptions
    private let stem: String
    private let ownFolder: Bool
    private var writers: [String: (writer: any RecordWriter, file: AtomicOutputFile?)] = [:]
    private var writerOrder: [String] = []
    private var standardOutput: (any ByteSink)?
    /// With `holdsStandardOutput`: standard output's bytes, held until `commit()` writes them.
    private var heldStandardOutput: HeldStandardOutput?
    private let holdsStandardOutput: Bool
    private var compressedSinks: [CompressedFileSink] = []
    private var bundle: BundleOutput?
    /// Folders this router made for its outputs, parents first: a run that fails removes those
    /// left empty, so nothing of it stays behind.
    private var madeFolders: [String] = []
    /// The run's record of the folders its conversions made (`MadeFolders`); nil for a run of one.
    private let runFolders: MadeFolders?
    private let registry: FormatRegistry
    private let schema: DatasetSchema?
    private let dataFormat: String?

    /// - Parameters:
    ///   - stem: the input's name without extension, used for per-input files in a folder; a
    ///     dataset found in a folder of datasets has its path inside that folder (`2024/notes`).
    ///   - ownFolder: true when several inputs share the folder (each input then gets its own name).
    /// - Parameters:
    ///   - schema: the schema of the records written (bundles take external storage from it).
    ///   - dataFormat: the content format of a bundle's data files.
    ///   - holdsStandardOutput: standard output is written only by `commit()`, so that a run that
    ///     fails leaves it empty, as it leaves no file (without `--lenient`, any error stops the
    ///     write); otherwise records stream out as they are written.
    init(
        target: OutputTarget, format: FormatDescriptor, options: WriteOptions, stem: String, ownFolder: Bool,
        registry: FormatRegistry, schema: DatasetSchema?, dataFormat: String?, holdsStandardOutput: Bool = false,
        runFolders: MadeFolders? = nil
    ) {
        self.runFolders = runFolders
        self.holdsStandardOutput = holdsStandardOutput
        self.target = target
        self.format = format
        self.options = options
        self.stem = stem
        self.ownFolder = ownFolder
        self.registry = registry
        self.schema = schema
        self.dataFormat = dataFormat
    }

    /// True when the output is a bundle, which can carry media files.
    var carriesMedia: Bool { format.isContainer }

    /// The paths written (or to be written), in the order they were opened.
    var paths: [String] { bundle.map { [$0.path] } ?? writerOrder.compactMap { writers[$0]?.file?.path } }

    /// Writes a record to the writer of its destination, opening it on first use.
    func write(_ record: Record) throws {
        if format.isContainer {
            try openBundle().write(record)
            return
        }
        try writer(for: routeKey(for: record)).write(record)
    }

    /// The writer of the destination `key` (`routeKey`), opened on first use.
    /// - Throws: `usage` for a second collection bound for a file that holds one; what opening throws.
    private func writer(for key: String) throws -> any RecordWriter {
        if let entry = writers[key] { return entry.writer }
        if format.isSingleCollection, !writers.isEmpty, !perCollectionFiles {
            throw FerryError(.usage, "\(format.name) holds one collection per file, and this dataset has several; write to a folder: -o DIR/")
        }
        if perCollectionFiles, ownFolder, writers.count == 1, let only = writerOrder.first, let file = writers[only]?.file,
           case .folder(let folder) = target
        {
            // A second collection: the dataset's one file becomes the first of its folder's.
            let path = Self.base(of: folder) + "/" + stem + "/" + only + "." + (format.extensions.first ?? format.name)
            if file.path != path {
                try makeFolder(Self.parent(of: path))
                try file.redirect(to: path)
            }
        }
        let entry = try open(key)
        writers[key] = entry
        writerOrder.append(key)
        return entry.writer
    }

    /// The cell format of the output's CSV writers, once one is open, when every record of the
    /// output goes to a CSV writer (a CSV file, or a folder of one per collection; not a bundle):
    /// the typed path can then hand them leaf streams (`writeLeaves`). Nil otherwise. The writers
    /// of one output share their options, so they share their format.
    var csvCellFormat: CSVCellFormat? {
        guard !format.isContainer, let first = writerOrder.first, let writer = writers[first]?.writer as? any LeafStreamWriter
        else { return nil }
        return writer.cellFormat
    }

    /// Writes the record of `collection` whose CSV leaf stream (`CSVLeafStream`, indexing `table`)
    /// the typed path rendered, exactly as `write(_:)` writes the record: to the CSV writer of its
    /// destination, opened on first use as `write(_:)` opens it.
    /// - Throws: what `write(_:)` throws; `internalError` when the destination's writer is not a CSV
    ///   writer of the stream's cell format.
    func writeLeaves(_ stream: UnsafeBufferPointer<UInt8>, table: CSVLeafTable, collection: String) throws {
        let key = routeKey(collection: collection)
        if let last = lastLeafWriter, last.key == key { return try last.writer.writeLeafStream(stream, table: table, collection: collection) }
        guard !format.isContainer, let writer = try writer(for: key) as? any LeafStreamWriter else {
            throw FerryError(.internalError, "a CSV leaf stream has no CSV writer to take it")
        }
        lastLeafWriter = (key, writer)
        try writer.writeLeafStream(stream, table: table, collection: collection)
    }
    /// The CSV writer `writeLeaves` wrote to last, and its destination: records of one collection
    /// usually come together, so most records need no look-up (a hash of the key).
    private var lastLeafWriter: (key: String, writer: any LeafStreamWriter)?

    /// How the one writer every record goes to, once it is open, wants the typed path to render
    /// records' elements (`RenderedElementWriter`: a JSON document's, an XML document's); nil for
    /// any other output.
    var renderedElementForm: RenderedElementForm? { elementWriter?.renderedElementForm }

    /// Writes the record of `collection` whose element the typed path rendered, exactly as
    /// `write(_:)` writes the record.
    /// - Throws: what the writer throws; `internalError` when the output's writer takes no elements.
    func writeElement(_ element: UnsafeBufferPointer<UInt8>, collection: String) throws {
        guard let writer = elementWriter else {
            throw FerryError(.internalError, "a rendered element has no writer to take it")
        }
        try writer.writeElement(element, collection: collection)
    }

    /// The one writer of the output, once it is open, when it places rendered elements; found once.
    private var elementWriter: (any RenderedElementWriter)? {
        if foundElementWriter == nil { foundElementWriter = onlyWriter as? any RenderedElementWriter }
        return foundElementWriter
    }
    private var foundElementWriter: (any RenderedElementWriter)?

    /// The renderer of the one writer every record goes to, once it is open, when that writer
    /// renders records ahead (`PrerenderingWriter`); nil otherwise.
    var renderer: (any RecordRenderer)? { prerenderingWriter?.renderer }

    /// Writes a record whose bytes its writer's renderer already made (`bytes[range]`); a record
    /// bound for another writer, or one not yet open, is written the usual way.
    func write(_ record: Record, rendered bytes: [UInt8], _ range: Range<Int>) throws {
        guard let writer = prerenderingWriter else { return try write(record) }
        try bytes.withUnsafeBufferPointer { try writer.writeRendered(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Writes the lines of one or more records in a row rendered ahead by the typed path (issue
    /// 7), for an output of one writer that takes such bytes (`renderer` is not nil).
    /// - Throws: the sink's write errors; `internalError` when the writer takes no rendered bytes.
    func writeRendered(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard let writer = prerenderingWriter else {
            throw FerryError(.internalError, "a record rendered ahead has no writer to take it")
        }
        try writer.writeRendered(bytes)
    }

    /// The one writer of the output, once it is open, when it takes bytes rendered ahead (JSON
    /// Lines); found once, as a protocol cast per record costs more than the write.
    private var prerenderingWriter: (any PrerenderingWriter)? {
        if foundPrerenderingWriter == nil { foundPrerenderingWriter = onlyWriter as? any PrerenderingWriter }
        return foundPrerenderingWriter
    }
    private var foundPrerenderingWriter: (any PrerenderingWriter)?

    /// The one writer every record goes to (no container, no file per collection), once it is open.
    private var onlyWriter: (any RecordWriter)? {
        guard !format.isContainer, !perCollectionFiles, writers.count == 1 else { return nil }
        return writers[""]?.writer
    }

    /// Finishes every writer and renames every file into place.
    /// - Parameter media: for a bundle output, the input bundle whose media to copy in (`only`:
    ///   just these dataset-root paths, for a filtered dataset).
    func commit(media: (bundle: BundleReader, paths: [String: String], only: Set<String>?)? = nil) throws {
        do {
            if let bundle {
                if let media { try bundle.copyMedia(from: media.bundle, media: media.paths, only: media.only) }
                try bundle.finish()
                runFolders?.keep(madeFolders)
                return
            }
            for key in writerOrder { try writers[key]?.writer.finish() }
            for sink in compressedSinks { try sink.finish() }
            try standardOutput?.flush()
            try heldStandardOutput?.release()
            for key in writerOrder { try writers[key]?.file?.commit() }
            runFolders?.keep(madeFolders)
        } catch {
            discard()
            throw error
        }
    }

    /// Drops every temporary file; previous outputs stay as they were.
    func discard() {
        heldStandardOutput?.discard()
        for key in writerOrder { writers[key]?.file?.discard() }
        // Only an empty folder goes. In a run of several conversions at once, the run removes them
        // when all are done (`MadeFolders`): one removed now could be the parent another is
        // making a folder in at this moment.
        if runFolders == nil {
            for folder in madeFolders.reversed() { _ = rmdir(folder) }
        }
        madeFolders.removeAll()
    }

    /// Opens the writer when no record came at all, so an empty dataset still gives a document.
    func ensureOpened(collection: String?) throws {
        if format.isContainer {
            _ = try openBundle()
            return
        }
        guard writers.isEmpty, !perCollectionFiles else { return }
        let entry = try open("")
        writers[""] = entry
        writerOrder.append("")
    }

    private var perCollectionFiles: Bool {
        if case .folder = target { return format.isSingleCollection }
        return false
    }

    private func routeKey(for record: Record) -> String { routeKey(collection: record.collection) }

    /// The destination key of a record of `collection` (nil: none named).
    private func routeKey(collection: String?) -> String {
        perCollectionFiles ? (collection ?? stem) : ""
    }

    private func open(_ key: String) throws -> (writer: any RecordWriter, file: AtomicOutputFile?) {
        guard let writerFactory = format.writer else {
            throw FerryError(.unknownFormat, "\(format.name) cannot be written")
        }
        let ext = format.extensions.first ?? format.name
        var path: String
        switch target {
        case .standardOutput:
            let sink = standardOutput ?? openStandardOutput()
            standardOutput = sink
            var options = self.options
            options.fileName = "-"
            return (try writerFactory.makeWriter(sink, options: options), nil)
        case .file(let file):
            path = file
            try makeFolder(Self.parent(of: path))
        case .folder(let folder):
            var base = Self.base(of: folder)
            if perCollectionFiles, ownFolder, writers.isEmpty, names(key) {
                // A dataset of one collection named after its file (a lone `x.csv`, a schema-free
                // `x.jsonl`) mirrors as one file, `x.csv`, which reads back as that collection; a
                // second collection moves it into the dataset's folder (`writer(for:)`).
                path = base + "/" + stem + "." + ext
            } else if perCollectionFiles {
                if ownFolder { base += "/" + stem }
                path = base + "/" + key + "." + ext
            } else {
                path = base + "/" + stem + "." + ext
            }
            try makeFolder(Self.parent(of: path))
        }
        let file = try AtomicOutputFile(path: path)
        var options = self.options
        options.fileName = path
        do {
            let compression = Compression.forPath(path).compression
            guard compression != .none else { return (try writerFactory.makeWriter(file.sink, options: options), file) }
            let compressed = try CompressedFileSink(sink: file.sink, compression: compression, name: path)
            compressedSinks.append(compressed)
            return (try writerFactory.makeWriter(compressed, options: options), file)
        } catch {
            file.discard()
            throw error
        }
    }

    /// Standard output's sink: descriptor 1, or the held output when `holdsStandardOutput`.
    private func openStandardOutput() -> any ByteSink {
        guard holdsStandardOutput else { return FileDescriptorSink(descriptor: 1, name: "-") }
        let held = HeldStandardOutput()
        heldStandardOutput = held
        return held
    }

    /// The bundle writer, opened on first use: `-o x.tar` (compression from the ending), `-o x.zip`
    /// (or `--to zip`) or a folder.
    private func openBundle() throws -> BundleOutput {
        if let bundle { return bundle }
        let destination: BundleWriter.Destination
        switch target {
        case .standardOutput:
            throw FerryError(.usage, "a bundle cannot go to standard output; name it with -o FILE.tar or -o DIR/")
        case .file(let path):
            try makeFolder(Self.parent(of: path))
            destination = BundleWriter.Destination.forPath(path, container: ArchiveContainer(rawValue: format.name))
        case .folder(let folder):
            let base = Self.base(of: folder)
            let path = ownFolder ? base + "/" + stem + "." + (format.extensions.first ?? format.name) : base
            // A bundle folder is renamed into place: its parent must exist, as a file's must.
            // (Split by hand: Foundation's deletingLastPathComponent has trapped on such paths.)
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try makeFolder(String(path[..<slash])) }
            let archive: BundleWriter.Destination = ArchiveContainer(rawValue: format.name) == .zip
                ? .zip(path: path) : .archive(path: path, compression: .none)
            destination = ownFolder ? archive : .folder(path: base)
        }
        let output = try BundleOutput(destination: destination, registry: registry, options: options, schema: schema, dataFormat: dataFormat)
        bundle = output
        return output
    }

    /// True when `key` is the dataset's own name: its stem, or the stem's file name (`notes` of
    /// `2024/notes`), which a one-collection file read back takes as its collection.
    private func names(_ key: String) -> Bool {
        key == stem || key == stem[(stem.lastIndex(of: "/").map { stem.index(after: $0) } ?? stem.startIndex)...]
    }

    /// The name an input's own files take in a folder output: the input's file name without its
    /// extensions (`x` for `x.tar.gz`), a folder's name whole (`backup.2024`: a dot in a folder's
    /// name starts no extension), `stdin` for standard input.
    static func stem(of input: String) -> String {
        guard input != "-" else { return "stdin" }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: input, isDirectory: &isFolder), isFolder.boolValue {
            return URL(fileURLWithPath: base(of: input)).lastPathComponent
        }
        var stem = URL(fileURLWithPath: Compression.forPath(input).innerPath).deletingPathExtension().lastPathComponent
        if stem.hasSuffix(".tar") { stem.removeLast(4) }
        return stem
    }

    /// The folder part of a file's `path`: `""` for a bare name, `/` for a file at the root. Split
    /// by hand: Foundation's `deletingLastPathComponent` has trapped on some paths (`-o L`, L a
    /// symbolic link).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A folder output's path without its final `/` (`""` for the root), to which `/NAME` is added.
    static func base(of folder: String) -> String {
        folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    }

    private func makeFolder(_ path: String) throws {
        let made = try Self.makeFolders(path)
        madeFolders.append(contentsOf: made)
        runFolders?.add(made)
    }

    /// Makes the folder `path` and its missing ancestors, as `mkdir -p` does: a folder that another
    /// run (a pipeline's datasets are converted in parallel) makes meanwhile is taken as made, where
    /// Foundation's `createDirectory(withIntermediateDirectories:)` failed on that race now and then.
    /// - Returns: the folders this call made, outermost first.
    /// - Throws: `FerryError(.outputUnwritable)` when one cannot be made or is not a folder.
    static func makeFolders(_ path: String) throws -> [String] {
        guard !path.isEmpty else { return [] }
        var missing: [String] = []
        var ancestor = path
        while !ancestor.isEmpty, ancestor != "/", !FileManager.default.fileExists(atPath: ancestor) {
            missing.append(ancestor)
            // Split by hand: Foundation's deletingLastPathComponent traps on some relative paths.
            guard let slash = ancestor.lastIndex(of: "/") else { break }
            ancestor = String(ancestor[..<slash])
        }
        var made: [String] = []
        for folder in missing.reversed() {
            if mkdir(folder, 0o777) == 0 {
                made.append(folder)
                continue
            }
            let failure = errno
            var isFolder: ObjCBool = false
            if failure == EEXIST, FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue { continue }
            let reason = failure == EEXIST ? "a file of that name is in the way" : String(cString: strerror(failure))
            throw FerryError(.outputUnwritable, "cannot create the folder: \(reason)", at: SourceLocation(file: folder))
        }
        return made
    }
}
