/// Options that readers take. Format-specific ones are ignored by formats they do not concern.
public struct ReadOptions: Sendable {
    /// The input's name used in locations (`notes.csv`, `-` for standard input).
    public var fileName: String?
    /// The archive member being read, for locations.
    public var member: String?
    /// `--collection`: the collection of records that do not name one (a CSV file, a JSON Lines
    /// line without `$collection`, a top-level JSON array).
    public var collection: String?
    /// `--domain` / `--schema-version` given on the command line, for formats that need them to read
    /// (none of the built-ins do; they are passed for external adapters).
    public var header: DatasetHeader
    /// CSV: the field delimiter (`,`, `;`, tab); nil detects it from the header line.
    public var delimiter: UInt8?
    /// CSV: false with `--no-header` (columns are then named `1`, `2`, ...).
    public var hasHeader: Bool
    /// CSV: `--null TOKEN`, an unquoted cell read as absent.
    public var nullToken: String?
    /// `--encoding`: the input's character encoding (`utf-8`, `utf-16`, `latin1`, ...); nil means
    /// UTF-8 unless the input declares another (a BOM, an XML declaration).
    public var encoding: String?
    /// CSV schema-free: `--infer-types` reads numbers and booleans as such, not as strings.
    public var inferTypes: Bool
    /// The deepest nesting accepted before `too-deep` (DESIGN.md "Limits").
    public var maximumDepth: Int
    /// JSON document: envelope members whose collections are read document by document (a
    /// Firestore export's `__collections__`); nil reads each such collection as one record.
    public var nestedCollections: NestedCollections?
    /// True when the bytes end where the input was cut (a tar cut inside this member's data, said
    /// once by the bundle): a record the cut runs into is not read and nothing is said of it. A
    /// record that closes itself (a JSON value, an XML element) is whole when read, so this
    /// concerns the records a line break ends: a CSV row with no line break after it, which may
    /// have lost any part of its last cell (or a whole cell after a comma), is dropped.
    public var endsAtCut = false
    /// Opens the input again at its first byte, decompressed as the reading is: a regular file,
    /// or a pipe, whose first bytes are kept and whose rest is read ahead when this is called
    /// (into memory, or past 8 MiB into a temporary file; the first reading then goes on from it); nil for input read once (a
    /// bundle member). A reader that must see past what it streams reads this second copy: a JSON
    /// document whose envelope (`domain`, `schemaVersion`) stands after its collections, as an
    /// object's members may stand in any order (RFC 8259 section 4). A reader asks for it before
    /// it hands on its first record (a pipe keeps its first bytes until then only). It throws when
    /// the input cannot be read again after all (a pipe read past the 8 MiB it keeps, no temporary
    /// file): the reader then goes on as without it.
    public var reopen: (@Sendable () throws -> any ByteSource)?

    public init(
        fileName: String? = nil, member: String? = nil, collection: String? = nil,
        header: DatasetHeader = DatasetHeader(), delimiter: UInt8? = nil, hasHeader: Bool = true,
        nullToken: String? = nil, encoding: String? = nil, inferTypes: Bool = false, maximumDepth: Int = 512
    ) {
        self.fileName = fileName
        self.member = member
        self.collection = collection
        self.header = header
        self.delimiter = delimiter
        self.hasHeader = hasHeader
        self.nullToken = nullToken
        self.encoding = encoding
        self.inferTypes = inferTypes
        self.maximumDepth = maximumDepth
        self.nestedCollections = nil
    }

    /// The location of the input itself (file and member).
    public var inputLocation: SourceLocation { SourceLocation(file: fileName, member: member) }
}

/// Options that writers take.
public struct WriteOptions: Sendable {
    /// The domain and version written into envelopes, header lines and `<dataset>`.
    public var header: DatasetHeader
    /// The dataset's collections in canonical order (SCHEMAS.md). Envelope writers write each of
    /// them, empty ones as `[]`; records of collections not listed follow in first-seen order.
    public var collections: [String]
    /// The output's name used in errors.
    public var fileName: String?
    /// XML and JSON documents: indent (on by default; JSON Lines and CSV are never indented).
    public var pretty: Bool
    /// CSV: `--csv-safe` prefixes cells that start with `=`, `+`, `-`, `@`, tab or CR with `'`
    /// (spreadsheet formula injection, OWASP "CSV Injection").
    public var csvSafe: Bool
    /// CSV: the delimiter to write.
    public var delimiter: UInt8
    /// The record type of each collection (`wineTastingNotes` -> `WineTastingNote`), for formats
    /// that name records (XML elements). Collections not listed use the format's default name.
    public var recordTypeNames: [String: String]

    public init(
        header: DatasetHeader = DatasetHeader(), collections: [String] = [], fileName: String? = nil,
        pretty: Bool = true, csvSafe: Bool = false, delimiter: UInt8 = UInt8(ascii: ","),
        recordTypeNames: [String: String] = [:]
    ) {
        self.recordTypeNames = recordTypeNames
        self.header = header
        self.collections = collections
        self.fileName = fileName
        self.pretty = pretty
        self.csvSafe = csvSafe
        self.delimiter = delimiter
    }
}
