/// Pulls records from one input, one at a time (DESIGN.md "Data flow"). Never holds the whole input.
public protocol RecordReader: AnyObject {
    /// What the input declares about itself. Readers fill it as they meet it (a JSON envelope's
    /// `domain` key, a JSON Lines header line); it is complete once the first record is returned
    /// or `next()` returned nil.
    var header: DatasetHeader { get }

    /// The next record, or nil at the end.
    ///
    /// A bad record in a format with records of its own (a CSV row, a JSON Lines line, an XML
    /// record element) is reported to the reader's `DiagnosticLog` and skipped; reading resumes at
    /// the next one.
    /// - Throws: `FerryError` when reading cannot go on (a broken single JSON document, a read
    ///   failure, nesting past the limit).
    func next() throws -> Record?

    /// True when each record names its own collection in the data (a CSV file whose first column
    /// is `$collection`), so the input's name says nothing about its collection. Known once the
    /// reader is made; false by default.
    var recordsNameCollections: Bool { get }

    /// True when every record `next()` may still return is of the reader's one collection
    /// (`ReadOptions.collection`; none when it is nil): a JSON document whose top level is an
    /// array, while its elements are read. A reader that runs ahead in batches answers for what
    /// it has not cut yet. False by default: a record may name any collection (a JSON envelope,
    /// JSON Lines' `$collection`). `ferry head` stops reading sooner when it is true.
    var remainingRecordsShareCollection: Bool { get }
}

extension RecordReader {
    public var recordsNameCollections: Bool { false }
    public var remainingRecordsShareCollection: Bool { false }
}

/// Pushes records into one output. Records of a collection arrive in order; collections may
/// interleave, and writers that need canonical collection order spool to temporary files.
public protocol RecordWriter: AnyObject {
    /// Writes one record. `record.collection` names its collection.
    /// - Throws: `FerryError(.outputUnwritable)` on a write failure; other codes for a value the
    ///   format cannot hold (NaN in JSON).
    func write(_ record: Record) throws

    /// Completes the output (closing brackets, spooled collections, trailers) and flushes the sink.
    /// Nothing written before `finish()` is a complete document.
    func finish() throws
}

/// A reader of rows under a header line whose cells name the columns (CSV, TSV): the pipeline
/// checks the header and points diagnostics at a column's cell through this, never through a
/// format's own reader type.
public protocol ColumnRecordReader: RecordReader {
    /// The header's cells in order: each column's name (after renaming repeats `name_2`) and where
    /// its cell stands.
    var headerCells: [(name: String, position: TextPosition)] { get }
    /// Where each repeated header cell stands (the second and later cells of a name).
    var duplicateHeaderCells: [(name: String, position: TextPosition)] { get }
    /// The names the rows are read under, in order (`1`, `2`, ... without a header line): one
    /// array that every row's raw form shares, so a reading made for it knows its rows cheaply.
    var headerFields: [String] { get }
}

/// The parts a format plays for the pipeline where no option names a format: each is declared by
/// the format that plays it (one format a role), and looked up with `FormatRegistry.format(playing:)`.
public struct FormatRoles: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The container a bundle is written as when no `--to` names one (an `-o DIR/` of a bundle
    /// input, `diff`'s compared bundle), and the name of a tar or folder bundle read.
    public static let defaultBundle = FormatRoles(rawValue: 1 << 0)
    /// The data format inside a bundle when `--data-format` names none, and the form a bundle's
    /// records take on standard output, where a bundle with its media cannot go (`ferry head`).
    public static let defaultBundleData = FormatRoles(rawValue: 1 << 1)
    /// The form `diff` converts each side to and reads back before comparing: one record a line,
    /// every value as the JSON model holds it.
    public static let comparisonForm = FormatRoles(rawValue: 1 << 2)
}

/// The reading half of a format adapter.
public protocol FormatReader: Sendable {
    /// Starts reading `source`. Recoverable problems go to `log`.
    /// - Throws: `FerryError` when the input cannot even start (an empty file, a bad encoding).
    func makeReader(_ source: any ByteSource, options: ReadOptions, log: DiagnosticLog) throws -> any RecordReader

    /// True when `name` (an `--encoding` value) names an encoding this format knows: one it reads,
    /// or one it knows to refuse (JSON knows Latin-1 and is read as UTF-8 only). A name no
    /// format knows is the command line's error, before anything is read. The default knows
    /// UTF-8 (`utf-8`, `utf8`, any case).
    func knowsEncoding(_ name: String) -> Bool
}

extension FormatReader {
    public func knowsEncoding(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower == "utf-8" || lower == "utf8"
    }
}

/// The writing half of a format adapter.
public protocol FormatWriter: Sendable {
    /// Starts writing to `sink`.
    func makeWriter(_ sink: any ByteSink, options: WriteOptions) throws -> any RecordWriter
}

/// One format as the registry lists it.
public struct FormatDescriptor: Sendable {
    /// The name used with `--from` / `--to` (`json`, `jsonl`, `csv`, `xml`, `tar`).
    public var name: String
    /// File name endings, without the dot, lower-case (`json`; `tar.gz` for compound ones).
    public var extensions: [String]
    /// A one-line description for `ferry formats`.
    public var summary: String
    /// The format's name in a sentence (`JSON`, `JSON Lines`, `CSV`): "this CSV file". The name
    /// upper-cased when the format gives none.
    public var title: String
    /// True when one file holds one collection only (CSV): folder output writes one file each.
    public var isSingleCollection: Bool
    /// True when the format is a container of other files (bundles), not a stream of bytes.
    public var isContainer: Bool
    /// True when the format's readers give every scalar as text (CSV cells, XML text): a domain's
    /// numbers, Booleans and instants are then read from strings by the schema, and an empty list
    /// may be written as nothing at all. Wherever the format's data is read (a file, a folder, a
    /// bundle member), the records are typed by this, never by the format's name.
    public var scalarsAreText: Bool
    /// True when records are rows under a header line whose cells name the columns (CSV): its
    /// readers are `ColumnRecordReader`s, and a field's diagnostic names the column it came from.
    public var hasHeaderColumns: Bool
    /// The parts the format plays where no option names a format (`FormatRoles`).
    public var roles: FormatRoles
    /// How surely an input's first bytes are this format's, when nothing else names the format;
    /// nil (or no function) when they are not. A format without one is never guessed.
    public var recognize: (@Sendable (InputHead) -> HeadMatch?)?
    public var reader: (any FormatReader)?
    public var writer: (any FormatWriter)?

    public init(
        name: String, title: String? = nil, extensions: [String], summary: String, isSingleCollection: Bool = false,
        isContainer: Bool = false, scalarsAreText: Bool = false, hasHeaderColumns: Bool = false,
        roles: FormatRoles = [], recognize: (@Sendable (InputHead) -> HeadMatch?)? = nil,
        reader: (any FormatReader)?, writer: (any FormatWriter)?
    ) {
        self.name = name
        self.title = title ?? name.uppercased()
        self.extensions = extensions
        self.summary = summary
        self.isSingleCollection = isSingleCollection
        self.isContainer = isContainer
        self.scalarsAreText = scalarsAreText
        self.hasHeaderColumns = hasHeaderColumns
        self.roles = roles
        self.recognize = recognize
        self.reader = reader
        self.writer = writer
    }
}

/// The formats Ferry knows, looked up by name or by file name. `FerryFormats` builds the list of
/// built-ins (`FormatRegistry.builtIn`); Swift programs can add their own descriptors.
public struct FormatRegistry: Sendable {
    public private(set) var formats: [FormatDescriptor]
    /// The paths of the external adapters on PATH that did not describe themselves (they failed,
    /// hung or printed something else), so that a format no adapter reads can name them.
    public var undescribedAdapters: [String] = []

    public init(_ formats: [FormatDescriptor]) { self.formats = formats }

    /// What ends an `unknown-format` message for `format` (a name or an extension) when some
    /// adapter did not describe itself: "; ferry-format-x on PATH did not describe itself (...)",
    /// `ferry-format-<format>` first when it is among them (the one most likely meant, never
    /// lost in the "..." after three); empty when every adapter described itself.
    public func undescribedNote(for format: String?) -> String {
        guard !undescribedAdapters.isEmpty else { return "" }
        var names = undescribedAdapters.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        if let format, let meant = names.firstIndex(where: { $0.lowercased() == "ferry-format-" + format.lowercased() }) {
            names.insert(names.remove(at: meant), at: 0)
        }
        let listed = names.count <= 3 ? names.joined(separator: ", ") : names.prefix(3).joined(separator: ", ") + ", ..."
        return "; \(listed) on PATH did not describe \(names.count == 1 ? "itself" : "themselves") (`ferry formats` says why)"
    }

    /// Adds (or replaces, by name) a format.
    public mutating func register(_ descriptor: FormatDescriptor) {
        formats.removeAll { $0.name == descriptor.name }
        formats.append(descriptor)
    }

    /// The format named `name` (case-insensitive), also matching an extension (`yml` for `yaml`).
    public func format(named name: String) -> FormatDescriptor? {
        let key = name.lowercased()
        return formats.first { $0.name == key } ?? formats.first { $0.extensions.contains(key) }
    }

    /// The format `name` names for an output: one that writes, or a bundle container.
    /// - Parameter location: where the name came from (the output file whose extension named it).
    /// - Throws: `FerryError(.unknownFormat)` for a name no format has (with `undescribedNote`), or
    ///   for a format that only reads (as an external adapter may).
    public func outputFormat(named name: String, at location: SourceLocation = SourceLocation()) throws -> FormatDescriptor {
        guard let format = format(named: name) else {
            throw FerryError(.unknownFormat, "unknown output format '\(name)'; `ferry formats` lists them" + undescribedNote(for: name),
                             at: location)
        }
        guard format.writer != nil || format.isContainer else {
            throw FerryError(.unknownFormat, "format '\(name)' is read only, not written; `ferry formats` lists what writes", at: location)
        }
        return format
    }

    /// The format that plays `role` (the first registered, if several claim it); nil when none does.
    public func format(playing role: FormatRoles) -> FormatDescriptor? {
        formats.first { $0.roles.isSuperset(of: role) }
    }

    /// The format whose `recognize` is surest of `head` (the first registered among equals); nil
    /// when none recognises it.
    public func format(forHead head: InputHead) -> FormatDescriptor? {
        var best: (format: FormatDescriptor, match: HeadMatch)?
        for format in formats {
            if let match = format.recognize?(head), best.map({ match > $0.match }) ?? true { best = (format, match) }
        }
        return best?.format
    }

    /// The format whose extension ends `path`, longest extension first (`x.tar.gz` is `tar.gz`,
    /// not `gz`); nil when none matches.
    public func format(forPath path: String) -> FormatDescriptor? {
        let lower = path.lowercased()
        var best: (FormatDescriptor, Int)?
        for format in formats {
            for ext in format.extensions where lower.hasSuffix("." + ext) {
                if let current = best, current.1 >= ext.count { continue }
                best = (format, ext.count)
            }
        }
        return best?.0
    }
}
