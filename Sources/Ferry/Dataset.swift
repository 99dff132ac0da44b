import FerryCore
import FerrySchemas
import Foundation

/// A whole dataset of one domain at one schema version, as typed models in memory: what a Swift
/// program reads, filters, migrates and writes in one line each (Docs/library.md).
///
/// ```swift
/// let v1 = try Dataset.read(URL(fileURLWithPath: "notes-v1.json"), as: NotesSchemaV1.self)
/// let v2 = try v1.migrated(to: NotesSchemaV2.self)
/// try v2.filter(#Predicate<any Notable> { $0.isFavorite }).write(to: URL(fileURLWithPath: "favourites.csv"))
/// ```
///
/// Reading and writing go through the command line's own converter, so every format, bundle,
/// Documents folder and Firestore layout it reads works here too, with the same checks and the
/// same diagnostics; models are held in memory (`Dataset.stream` reads a large input one model
/// at a time instead).
public struct Dataset<Schema: VersionedSchema>: Sendable {
    /// The records as typed models (`NotesV2.WineTastingNote`, ...), collections in the order
    /// they were read, each in its input order.
    public var models: [any CollectionModel]
    /// The warnings and notes met on the way (lossy steps of a migration, assumptions of reading).
    public var diagnostics: [Diagnostic]

    /// A dataset of these models (they must be models of `Schema`: `write` refuses others).
    public init(_ models: [any CollectionModel], diagnostics: [Diagnostic] = []) {
        self.models = models
        self.diagnostics = diagnostics
    }

    /// The domain and version, as readers and writers name them.
    public var header: DatasetHeader {
        DatasetHeader(domain: Schema.domain.rawValue, schemaVersion: Schema.versionIdentifier.major)
    }

    /// The models of one type, or of one capability protocol (`any Notable`), in order.
    public func models<Model>(_ type: Model.Type = Model.self) -> [Model] {
        models.compactMap { $0 as? Model }
    }

    /// The models as records: canonical values, each with its collection and its index in it.
    public var records: [Record] {
        var counts: [String: Int] = [:]
        return models.map { model in
            let collection = type(of: model).collection
            let index = counts[collection, default: 0]
            counts[collection] = index + 1
            return Record(collection: collection, value: model.value,
                          location: SourceLocation(collection: collection, recordIndex: index))
        }
    }

    // MARK: - Reading

    /// Reads a file, folder, bundle or app Documents folder as this domain and version, checking
    /// every rule `ferry validate` checks.
    /// - Parameters:
    ///   - url: the input (its format from its content and name, as the command line finds it).
    ///   - schema: the version to read it as (`NotesSchemaV1.self`); the input must be of it.
    ///   - format: a format name (`csv`) when the name and content do not tell.
    ///   - options: strictness, date strategy and time zone (the command line's options).
    ///   - registry: the formats to read with (`Ferry.formats` plus your own).
    /// - Throws: `FerryError` on any error: its `diagnostic` is the first, its `diagnostics`
    ///   all of them, with the input's file, line, column and field pointer.
    public static func read(
        _ url: URL, as schema: Schema.Type = Schema.self, format: String? = nil,
        options: ProcessingOptions = ProcessingOptions(), registry: FormatRegistry = Ferry.formats
    ) throws(FerryError) -> Dataset {
        var models: [any CollectionModel] = []
        let diagnostics = try FileConversion.read(
            url.path, format: format, domain: Schema.domain, version: Schema.versionIdentifier.major, options: options,
            registry: registry
        ) { record in
            models.append(try Self.model(of: record))
        }
        return Dataset(models, diagnostics: diagnostics)
    }

    /// Streams the models of a large input one at a time, read as `read` reads them (the input
    /// is checked whole first, its records parked in a temporary file, never held in memory).
    public static func stream(
        _ url: URL, as schema: Schema.Type = Schema.self, format: String? = nil,
        options: ProcessingOptions = ProcessingOptions(), registry: FormatRegistry = Ferry.formats
    ) -> ModelStream<Schema> {
        ModelStream(input: url.path, format: format, options: options, registry: registry)
    }

    /// The typed model of a canonical record of this schema.
    static func model(of record: Record) throws(FerryError) -> any CollectionModel {
        guard let collection = record.collection, let type = Schema.codableModel(forCollection: collection) else {
            throw FerryError(.invalidValue,
                "\(Schema.domain.rawValue) version \(Schema.versionIdentifier.major) has no collection \(quoted: record.collection ?? "")",
                at: record.location)
        }
        var diagnostics: [Diagnostic] = []
        let model = type.init(value: record.value, at: RecordContext(record: record), diagnostics: &diagnostics)
        guard !diagnostics.contains(where: { $0.severity == .error }) else {
            throw .failed(diagnostics)
        }
        return model
    }

    // MARK: - Migrating

    /// The dataset migrated by its domain's `SchemaMigrationPlan` (`NotesMigrationPlan`): every
    /// stage from this version to `target`'s, each record validated before and after, lossy
    /// steps reported as warnings in `diagnostics` (errors under `.strict`).
    /// - Throws: `FerryError` on any error (an unknown `studyState`, a finish length under
    ///   `.normal`), with every diagnostic: the field's pointer (`/whiskeyNotes/0/finish/length`)
    ///   and the record's id; `unknown-version` for another domain or a lower version.
    public func migrated<Target: VersionedSchema>(
        to target: Target.Type = Target.self, options: ProcessingOptions = ProcessingOptions()
    ) throws(FerryError) -> Dataset<Target> {
        guard Target.domain == Schema.domain else {
            throw FerryError(.unknownVersion,
                "cannot migrate \(Schema.domain.rawValue) to a schema of \(Target.domain.rawValue)")
        }
        let log = DiagnosticLog()
        let processor: DatasetProcessor
        do {
            processor = try DatasetProcessor(
                domain: Schema.domain, sourceVersion: Schema.versionIdentifier.major,
                targetVersion: Target.versionIdentifier.major, options: options, log: log)
        } catch {
            throw .wrapping(error)
        }
        var migrated: [any CollectionModel] = []
        for record in records {
            // The processor returns only records it validated at the target version: each decodes.
            for result in processor.process(record) { migrated.append(try Dataset<Target>.model(of: result)) }
        }
        processor.finish()
        guard log.errorCount == 0 else { throw .failed(diagnostics + log.diagnostics) }
        return Dataset<Target>(migrated, diagnostics: diagnostics + log.diagnostics)
    }

    // MARK: - Writing

    /// Writes the dataset, complete or not at all (a temporary file renamed into place), in any
    /// format the command line writes: by `format` (`csv`, `xml`, `tar`, `jsonl`, `json`), else
    /// by the name's extension; a URL ending in `/` is a folder output (a bundle folder, or one
    /// CSV file a collection).
    /// - Returns: the warnings and notes of writing.
    /// - Throws: `FerryError` (`output-unwritable`, `unknown-format`, a value the format cannot hold).
    @discardableResult
    public func write(to url: URL, format: String? = nil, registry: FormatRegistry = Ferry.formats) throws(FerryError)
        -> [Diagnostic]
    {
        let output = url.hasDirectoryPath && !url.path.hasSuffix("/") ? url.path + "/" : url.path
        return try FileConversion.write(
            RecordsInput(records, header: header, collections: Schema.datasetSchema.collectionNames), to: output,
            format: format, domain: Schema.domain, version: Schema.versionIdentifier.major, registry: registry)
    }
}
