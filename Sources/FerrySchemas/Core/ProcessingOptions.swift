/// How strictly lossy steps and unknown values are treated (`--strict`, `--lenient`).
public enum ProcessingMode: Sendable, Hashable {
    /// Lossy steps are warnings; invalid values are errors.
    case normal
    /// Every lossy warning (`lossy-*`) becomes an error that stops the write.
    case strict
    /// Values a migration cannot map (a whiskey `finish.length` "lingering", an unknown
    /// `studyState`) fall back to a default with a warning instead of an error.
    case lenient
}

/// The options of a `DatasetProcessor` (the command line's `--strict`/`--lenient`,
/// `--date-strategy`, `--time-zone`, and what the input is).
public struct ProcessingOptions: Sendable {
    public var mode: ProcessingMode = .normal
    /// How numeric dates are read: `--date-strategy`, else `deferredToDate`. Setting it names it.
    public var dateStrategy: DateStrategy {
        get { explicitDateStrategy ?? .deferredToDate }
        set { explicitDateStrategy = newValue }
    }
    /// The strategy the user named (`--date-strategy`), nil when none was: a Firestore Timestamp
    /// field then reads a bare number as `secondsSince1970` (SCHEMAS.md "Numeric dates").
    public var explicitDateStrategy: DateStrategy?
    /// The IANA time zone of calendar-day rules (`--time-zone`, default UTC).
    public var timeZone: String = "UTC"
    /// The media files of a bundle or folder; nil for a lone file (media not exported).
    public var media: (any MediaCatalog)? = nil
    /// The input's format in a sentence (`FormatDescriptor.title`: `JSON`, `CSV`), for what a
    /// lone file lacks ("media \"x\" was not exported with this CSV file"); nil: "this file".
    public var inputFormatTitle: String? = nil
    /// True for CSV and XML input: `"4.5"` is a number, `"true"` a Boolean, an empty CSV cell of a
    /// required string is `""` (`DecodingOptions.scalarsAsText`).
    public var scalarsAsText: Bool = false
    /// False when nothing reads the values of the records `process`/`commit` return (`validate`
    /// without a filter, a selection or media to trace): the preparer then skips building each
    /// canonical value, and the returned records carry `.null`, a location of their collection and
    /// record index only, and no locator. Checks, ids and references are unchanged.
    public var needsOutputValues: Bool = true
    /// True: records kept at a version older than the latest also go through the migration's
    /// later stages, unwritten, and what those reject (an unknown `studyState`, a story's `lat`
    /// without `lng`) is reported as an error of the data, so that every command holds the same
    /// rules (the pipeline sets it for validate, convert and migrate alike). Their warnings are
    /// not reported.
    public var checksMigration: Bool = false
    /// False for records known to keep every rule at the version read (those a run kept, checked
    /// again for the references its filter or selection left dangling): only their collection,
    /// id and references are read, for the checks across records; no model is decoded and no
    /// rule or stage is checked, so a problem of a record's own is not reported.
    public var checksRecords: Bool = true
    /// True for records a first processor returned with `marksDocumentSources`: one read from a
    /// document keyed by id or nested in a raw record (a Firestore export's) is named as that
    /// document is in the input, not by its place among the records returned.
    public var namesDocumentsBySource: Bool = false

    public init() {}
}
