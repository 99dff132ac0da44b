import FerryCore
import FerrySchemas
import Foundation

/// Fields with external storage (notes' `imageData`) hold a media path inside a bundle and base64
/// bytes everywhere else (SCHEMAS.md "Formats", Bundle). Reading a bundle, this puts the bytes back
/// into the record, so validation and every other format see the plain form; a bundle writer takes
/// them out again. The paths it resolves count as referenced media.
final class MediaInliner {
    private let fields: [String: [String]]
    private let media: [String: String]
    private let open: (String) throws -> any ByteSource
    /// Media paths found in external-storage fields.
    private(set) var referenced: Set<String> = []

    /// - Parameters:
    ///   - schema: the schema of the records as read.
    ///   - media: dataset-root media paths to bundle member paths.
    ///   - open: opens a bundle member.
    init?(schema: DatasetSchema, media: [String: String], open: @escaping (String) throws -> any ByteSource) {
        var fields: [String: [String]] = [:]
        for collection in schema.collections {
            let names = collection.recordType.fields.filter(\.isExternalStorage).map(\.name)
            if !names.isEmpty { fields[collection.name] = names }
        }
        guard !fields.isEmpty else { return nil }
        self.fields = fields
        self.media = media
        self.open = open
    }

    /// The record with every external-storage path that names a media file replaced by the file's base64.
    func inline(_ record: Record) throws -> Record {
        guard let collection = record.collection, let names = fields[collection], case .object(var object) = record.value else {
            return record
        }
        for name in names {
            guard let path = object[name]?.stringValue, let member = media[path] else { continue }
            referenced.insert(path)
            let bytes = try open(member).readAll(limit: 512 << 20)
            object[name] = .string(Data(bytes).base64EncodedString())
        }
        var result = record
        result.value = .object(object)
        return result
    }
}

/// Collects the media paths that records point at: every string value that names a media file,
/// and for records that name media by id, not path (pet-story V1), the files their ids lead to
/// (`DomainDefinition.mediaStems`, asked of every registered domain: the records' domain is not
/// known here).
struct MediaReferences {
    /// A record that referenced a media file, as a note about the file names it.
    struct Referrer {
        var collection: String?
        var id: String?
    }

    let media: [String: String]
    private let catalog: ListedMediaCatalog
    private let definitions = Domain.allCases.compactMap(\.definition)
    private(set) var referenced: Set<String> = []
    /// The first record that referenced each path of `referenced`.
    private(set) var firstReferrers: [String: Referrer] = [:]

    init(media: [String: String]) {
        self.media = media
        // Unsorted: what it finds goes into a set.
        self.catalog = ListedMediaCatalog(paths: Array(media.keys))
    }

    /// Notes the media a record names, as paths or through a domain's media layout.
    mutating func collect(_ record: Record) {
        guard !media.isEmpty else { return }
        collect(record.value, of: record)
        for definition in definitions {
            for stem in definition.mediaStems(collection: record.collection, value: record.value) {
                for path in catalog.files(withStem: stem) { insert(path, of: record) }
            }
        }
    }

    private mutating func collect(_ value: Value, of record: Record) {
        switch value {
        case .string(let text) where media[text] != nil: insert(text, of: record)
        case .array(let items): for item in items { collect(item, of: record) }
        case .object(let object): for member in object { collect(member.value, of: record) }
        default: break
        }
    }

    private mutating func insert(_ path: String, of record: Record) {
        if referenced.insert(path).inserted { firstReferrers[path] = Referrer(collection: record.collection, id: record.id) }
    }
}
