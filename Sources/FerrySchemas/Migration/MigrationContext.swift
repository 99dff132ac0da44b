import FerryCore
import Foundation

/// What a migration step (`MigrationStep`) can use for the record it migrates: the options
/// (`--lenient`, `--strict`), the resolved `--time-zone`, the media catalog, the collections, the
/// record's index, and a list of the problems it reports, each at a field of the OLD record.
///
/// A value, made per record from one shared environment (`MigrationEnvironment`): copying it costs
/// one reference count, so every route (one thread or many) makes its own.
public struct MigrationContext: Sendable {
    /// What every record of one collection shares in a run.
    public var environment: MigrationEnvironment { unretained }
    /// `environment`, not counted: `owner` holds it, or for a context made by
    /// `init(unretained:)`, the caller does. A count per record would be written by every worker
    /// thread at once (the environment is shared by the collection's records).
    private unowned(unsafe) let unretained: MigrationEnvironment
    private let owner: MigrationEnvironment?
    /// The record's 0-based index in its source collection (derived ids use it).
    public var recordIndex: Int
    /// The record's id when the step knows it better than the record's own `id` field (a domain
    /// whose id has another name); diagnostics end with `(id "ID")`. Nil or empty: the record's own.
    public var recordID: String?
    /// The problems reported so far for the record, in the order reported.
    public private(set) var problems: [MigrationProblem] = []

    /// A context for one record migrated in `environment`.
    public init(_ environment: MigrationEnvironment, recordIndex: Int = 0) {
        unretained = environment
        owner = environment
        self.recordIndex = recordIndex
    }

    /// A context for one record migrated in `environment`, which the caller keeps alive for as
    /// long as the context lives (a call that borrows it): nothing is counted.
    init(unretained environment: MigrationEnvironment) {
        unretained = environment
        owner = nil
        recordIndex = 0
    }

    /// The processing options (mode, date strategy, media catalog).
    public var options: ProcessingOptions { environment.options }
    /// The resolved `--time-zone` (SCHEMAS.md "Calendar dates": instants become days there).
    public var timeZone: TimeZone { environment.timeZone }
    /// The record's collection in the old version (`wineNotes`).
    public var sourceCollection: String { environment.sourceCollection }
    /// The record's collection in the new version (`wineTastingNotes`).
    public var targetCollection: String { environment.targetCollection }
    /// True under `--lenient`: a step maps a value it would refuse and reports a `lossy-change`
    /// warning instead of an error.
    public var isLenient: Bool { environment.options.mode == .lenient }

    /// The files of the media catalog whose path without extension is `stem`
    /// (`Stories/<storyId>/<mediaId>`), sorted; nil when the input has no catalog (a lone file).
    public func mediaFiles(withStem stem: String) -> [String]? {
        environment.options.media.map { $0.files(withStem: stem).sorted() }
    }

    /// Reports an error at `field` of the old record (the record is not migrated). A check across
    /// fields names the others it compared (`comparing`, fields of the old record): when one of
    /// them failed to read, the check saw a stand-in value and the error is not reported.
    public mutating func error(_ code: Diagnostic.Code, _ message: String, at field: JSONPointer,
        comparing comparedFields: [JSONPointer] = [])
    {
        problems.append(MigrationProblem(severity: .error, code: code, message: message, field: field,
            comparedFields: comparedFields))
    }

    /// Reports a warning at `field` of the old record (a `lossy-` one is an error under `--strict`).
    public mutating func warning(_ code: Diagnostic.Code, _ message: String, at field: JSONPointer) {
        problems.append(MigrationProblem(severity: .warning, code: code, message: message, field: field))
    }

    /// Reports a note at `field` of the old record.
    public mutating func note(_ code: Diagnostic.Code, _ message: String, at field: JSONPointer) {
        problems.append(MigrationProblem(severity: .note, code: code, message: message, field: field))
    }

    /// True when an error was reported for the record.
    public var hasErrors: Bool { problems.contains { $0.severity == .error } }

    /// The problems as diagnostics positioned in the old record (`context` locates its fields),
    /// ending with `recordID` when the step set one.
    public func diagnostics(in context: RecordContext) -> [Diagnostic] {
        diagnostics { context.location(of: $0) }
    }

    /// The problems as diagnostics positioned by `locate` (a field of the old record -> its
    /// location: `Record.location(of:)` for a record read outside a pipeline), ending with
    /// `recordID` when the step set one.
    public func diagnostics(locatedBy locate: (JSONPointer) -> SourceLocation) -> [Diagnostic] {
        problems.map { problem in
            var location = locate(problem.field)
            if let recordID, !recordID.isEmpty { location.recordID = recordID }
            var diagnostic = Diagnostic(problem.severity, problem.code, problem.message, at: location)
            diagnostic.comparedFields = problem.comparedFields.compactMap { locate($0).field }
            return diagnostic
        }
    }
}

/// What the records of one collection share while a stage migrates them: the options, the
/// resolved time zone and the collection's names in both versions. Immutable, shared by threads.
public final class MigrationEnvironment: Sendable {
    /// The processing options (`--strict`, `--lenient`, date strategy, media catalog).
    public let options: ProcessingOptions
    /// The resolved `--time-zone`.
    public let timeZone: TimeZone
    /// The collection in the old version (`wineNotes`).
    public let sourceCollection: String
    /// The collection in the new version (`wineTastingNotes`).
    public let targetCollection: String

    /// What the records of `sourceCollection` share on their way to `targetCollection`
    /// (`timeZone`: the resolved `--time-zone`, UTC by default).
    public init(options: ProcessingOptions = ProcessingOptions(), timeZone: TimeZone = .gmt, sourceCollection: String,
        targetCollection: String)
    {
        self.options = options
        self.timeZone = timeZone
        self.sourceCollection = sourceCollection
        self.targetCollection = targetCollection
    }
}

/// A problem a migration step reported, at a field of the old record (`/finish/length`); it
/// becomes a `Diagnostic` once positioned (`MigrationContext.diagnostics(in:)`).
public struct MigrationProblem: Sendable, Hashable {
    public var severity: Diagnostic.Severity
    public var code: Diagnostic.Code
    public var message: String
    public var field: JSONPointer
    /// The other fields of the old record a check across fields compared (`Diagnostic.comparedFields`).
    public var comparedFields: [JSONPointer]

    public init(severity: Diagnostic.Severity, code: Diagnostic.Code, message: String, field: JSONPointer,
        comparedFields: [JSONPointer] = [])
    {
        self.severity = severity
        self.code = code
        self.message = message
        self.field = field
        self.comparedFields = comparedFields
    }
}

/// Thrown by a migration step to abandon a record whose problems it already reported.
public struct MigrationAbandoned: Error, Sendable {
    public init() {}
}
