import FerryCore
import FerrySchemas

/// What one `ferry convert | migrate | validate | inspect` asks for (DESIGN.md "Command line").
public struct ConversionRequest: Sendable {
    /// What happens to the records read.
    public enum Action: Sendable {
        /// Read, process, write the output.
        case convert
        /// Read and process; write nothing (`migrate --dry-run`).
        case dryRun
        /// Read and process at the input's own version; write nothing.
        case validate
    }

    public var action: Action
    /// Input paths; `-` is standard input; a folder is one dataset of per-collection files.
    public var inputs: [String]
    /// A program's own records, read in place of standard input (`inputs` is then `["-"]`): the
    /// library's writes, checked and written as a file's records are. Nil reads `inputs`.
    public var records: RecordsInput?
    /// `-o`: a file, a folder (ending in `/` or existing), `-` or nil for standard output.
    public var output: String?
    /// `--report-file`: written by the caller after the run, yet part of the run's output plan,
    /// so that it never replaces an input or an output.
    public var reportFile: String?
    /// `--from`.
    public var inputFormat: String?
    /// `--to`.
    public var outputFormat: String?
    /// True when a bundle input, with no `--to` and standard output as the output, where a bundle
    /// with its media cannot go, is written in the registry's default bundle data format
    /// (`FormatRoles.defaultBundleData`) instead: `ferry head` prints a bundle's records (found by
    /// name or by content, standard input included).
    public var printsBundlesAsData = false
    /// False for a command with no `-o` (`ferry head`): a folder of several datasets is then
    /// refused with the advice to name one of them, not to give a folder output.
    public var offersFolderOutput = true
    /// `--domain`.
    public var domain: Domain?
    /// `--schema-version`: the input's version, over what its envelope says.
    public var sourceVersion: Int?
    /// `--to-version`; nil keeps the version.
    public var targetVersion: Int?
    /// `--schema-free`: read the input as plain records of no domain, whatever it looks like
    /// (validation then checks well-formedness only).
    public var schemaFree = false
    /// Reader options (collection, CSV dialect, encoding).
    public var read: ReadOptions
    /// Processing options (strict/lenient, dates, time zone).
    public var processing: ProcessingOptions
    /// Writer options that come from flags (pretty, CSV safe mode, delimiter).
    public var write: WriteOptions
    /// `--where`: a filter in NSPredicate format, optionally `collection: expression` (Docs/filters.md).
    public var filter: String?
    /// True when the filter applies to the records as read (before migration), false after it.
    public var filterBeforeMigration: Bool = false
    /// `--var NAME=VALUE`: values of the filter's `$NAME` variables.
    public var variables: [String: String] = [:]
    /// `--map FILE.json`: a field mapping that brings foreign records into a domain (Docs/mappings.md).
    public var mapping: String?
    /// `--skip`, `--limit`, `--sample`, `--select`: which records and fields are written (nil: all).
    public var selection: RecordSelection?
    /// Sees every record the run would write, after filter, migration and selection, on the
    /// calling thread and in output order (`ferry stats` counts them); nil sees none. Records then
    /// take the general path (values), never the typed lanes, which build no value.
    public var recordObserver: (@Sendable (Record) -> Void)?
    /// Which diagnostics each dataset's report holds (`DatasetReport.diagnostics`); nil holds
    /// every one. The counts and exit status count every one either way. The command line,
    /// when it prints diagnostics as they come and writes no report, holds only those its
    /// summary reads: a run's memory then does not grow with its problems.
    public var keepsDiagnostic: (@Sendable (Diagnostic) -> Bool)?
    /// The output format of data files inside a bundle (`--data-format`).
    public var dataFormat: String?
    /// `--jobs`: threads that parse, decode, validate and migrate the records of one input at
    /// once (JSON Lines with a domain); 1 reads record by record. Output and diagnostics are the
    /// same for any value (`ParallelConversion`).
    public var jobs: Int = 1
    /// Domain records go from bytes to model to bytes when they can (the typed path); false sends
    /// every record through a `Value` (same output, slower). No command-line option sets it: the
    /// fuzz targets (`Fuzz/`, FuzzSupport's `wholePath`) compare the two paths with it.
    public var usesTypedPath = true
    /// True when a person asked for `targetVersion` (`--to-version`, a pipeline's `migrate`
    /// step): data already at that version then gets a note saying there is nothing to migrate.
    /// A library's conversion to a model's own version leaves it false.
    public var notesVersionAlreadyReached = false
    /// Files that are no data wherever they stand (a pipeline's own file and report), as
    /// standardized absolute paths: a folder input neither reads them nor counts them when
    /// deciding whether it is one dataset (a CSV folder beside its pipeline file).
    public var ignoredFiles: Set<String> = []
    /// The record of the folders made for outputs, shared by the conversions of one run that go on
    /// at once (a pipeline's inputs), which removes those left empty when they are all done; nil:
    /// each conversion removes what it made as it fails.
    public var runFolders: MadeFolders?
    /// True when the caller compares a bundle's media itself (`ferry diff`): a plain output
    /// that leaves them out then loses nothing worth a warning.
    var mediaAccountedFor = false

    public init(action: Action, inputs: [String]) {
        self.action = action
        self.inputs = inputs
        self.read = ReadOptions()
        self.processing = ProcessingOptions()
        self.write = WriteOptions()
    }
}

/// What happened to one input: detection, counts per collection, problems, where it went.
public struct DatasetReport: Sendable {
    /// Records of one collection.
    public struct CollectionCount: Sendable, Hashable {
        public var name: String
        public var count: Int
    }

    public var input: String
    /// The input's format (`json`, `csv`, ...).
    public var format: String
    /// The domain, nil for schema-free data.
    public var domain: Domain?
    public var sourceVersion: Int?
    public var targetVersion: Int?
    /// Records written (or that would be), per collection in canonical order.
    public var collections: [CollectionCount]
    public var errorCount: Int
    public var warningCount: Int
    /// The output path, `-` for standard output, nil when nothing was written.
    public var output: String?
    /// The worst exit status of this input.
    public var status: ExitStatus
    /// Every diagnostic of this input, in the order found.
    public var diagnostics: [Diagnostic] = []
    /// Records read from the input, valid or not (each document of a Firestore export); a line or
    /// row too broken to be a record is not one. `recordCount` counts the records written or valid.
    public var recordsRead = 0

    /// The media files of a bundle or folder input; nil for an input that holds none (a lone file).
    public var media: MediaSummary?
    /// The input's media files (as records name them, `media/...`) that no record holds: all but
    /// those read into an external-storage field (notes' `imageData`). A plain data file, or
    /// records held in memory, leave them out. Set once the input is read without errors; in no
    /// order (a caller that names some sorts them).
    public var mediaOutsideRecords: [String] = []

    /// The total number of records.
    public var recordCount: Int { collections.reduce(0) { $0 + $1.count } }
}
