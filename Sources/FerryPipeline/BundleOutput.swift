import FerryCore
import FerrySchemas
import FormatBundle
import Foundation

/// Writes one input's records as a bundle (SCHEMAS.md "Bundle"): data files through the content
/// format, external-storage fields out to `media/`, the input's media copied in, and `createdAt`
/// from `SOURCE_DATE_EPOCH` or the newest record instant, never the clock.
final class BundleOutput {
    private let writer: BundleWriter
    /// Per collection, the fields whose values are record instants: `Instant`s, and the Firestore
    /// Timestamps of vocabulary V1, which are instants too.
    private let instantFields: [String: [(name: String, type: FieldType)]]
    private var newest: Instant?
    let path: String

    /// - Parameters:
    ///   - destination: a tar path (compression from its ending), a zip or a folder.
    ///   - schema: the schema of the records written, nil for schema-free data.
    ///   - dataFormat: the data files' format; nil for the registry's default (`FormatRoles.defaultBundleData`).
    /// - Throws: `FerryError(.unknownFormat)` when no format is named and none is the default;
    ///   `BundleWriter`'s errors.
    init(destination: BundleWriter.Destination, registry: FormatRegistry, options: WriteOptions, schema: DatasetSchema?,
         dataFormat: String?) throws {
        var externalStorage: [String: [String]] = [:]
        var mediaFolders: [String: String] = [:]
        var instantFields: [String: [(name: String, type: FieldType)]] = [:]
        for collection in schema?.collections ?? [] {
            let stored = collection.recordType.fields.filter(\.isExternalStorage).map(\.name)
            if !stored.isEmpty {
                externalStorage[collection.name] = stored
                mediaFolders[collection.name] = "media/\(schema?.domain.rawValue ?? "data")/\(collection.name)"
            }
            instantFields[collection.name] = collection.recordType.fields
                .filter { $0.type == .instant || $0.type == .timestamp }.map { ($0.name, $0.type) }
        }
        self.instantFields = instantFields
        self.path = destination.path
        guard let dataFormat = dataFormat ?? registry.format(playing: .defaultBundleData)?.name else {
            throw FerryError(.unknownFormat, "no data format for the bundle; name one with --data-format")
        }
        writer = try BundleWriter(destination: destination, registry: registry, options: BundleWriter.Options(
            header: options.header, collections: options.collections, dataFormat: dataFormat,
            createdAt: "1970-01-01T00:00:00Z", generator: "ferry \(FerryVersion.current)",
            externalStorage: externalStorage, mediaFolders: mediaFolders, writeOptions: options))
    }

    /// Writes a record and notes its newest instant.
    func write(_ record: Record) throws {
        if let collection = record.collection, let fields = instantFields[collection], let object = record.value.objectValue {
            for field in fields {
                guard let value = object[field.name], let instant = Self.instant(value, type: field.type) else { continue }
                if newest.map({ instant > $0 }) ?? true { newest = instant }
            }
        }
        try writer.write(record)
    }

    /// The instant of a written field's value: an `Instant`'s RFC 3339 text, or a Firestore
    /// Timestamp in any shape it is read from (written ones are `{"_seconds", "_nanoseconds"}`);
    /// nil for anything else.
    static func instant(_ value: Value, type: FieldType) -> Instant? {
        switch type {
        case .timestamp:
            guard case .success(let timestamp) = FirestoreTimestamp.read(value) else { return nil }
            return timestamp.instant
        default:
            guard let text = value.stringValue, case .success(let instant) = Instant.parse(text) else { return nil }
            return instant
        }
    }

    /// Copies media files of the input into the bundle.
    /// - Parameters:
    ///   - media: dataset-root paths (`media/...`) to the input bundle's member paths.
    ///   - only: when set (a filtered dataset), just these paths.
    func copyMedia(from bundle: BundleReader, media: [String: String], only: Set<String>?) throws {
        for (path, member) in media.sorted(by: { $0.key < $1.key }) where only?.contains(path) ?? true {
            if let stored = bundle.storedFile(of: member) {
                // Already on disk: copied once, straight into the output (hashed on the way when
                // the scan left its digest for later).
                try writer.addMedia(path: path, storedAt: stored.path, size: stored.size, sha256: stored.sha256,
                                    isPrivateCopy: stored.isPrivateCopy)
            } else {
                try writer.addMedia(path: path, source: try bundle.open(member))
            }
        }
    }

    /// Sets `createdAt` and writes the archive or folder into place.
    func finish() throws {
        try writer.setCreatedAt(try Self.createdAt(newest: newest))
        try writer.finish()
    }

    /// `SOURCE_DATE_EPOCH` when set (reproducible builds' convention), else the newest record
    /// instant, else the Unix epoch for a dataset without instants.
    /// - Throws: `FerryError(.usage)` when `SOURCE_DATE_EPOCH` is malformed (`SourceDateEpoch`).
    static func createdAt(newest: Instant?) throws -> String {
        if let seconds = try SourceDateEpoch.seconds(), let instant = Instant(seconds: seconds) {
            return instant.description
        }
        return newest?.truncatedToMilliseconds().instant.description ?? "1970-01-01T00:00:00Z"
    }
}
