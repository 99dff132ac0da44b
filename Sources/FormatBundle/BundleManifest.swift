import FerryCore

/// `manifest.json`, the first member of a bundle (SCHEMAS.md "Formats: Bundle"):
///
///     {"bundleVersion": 1, "domain", "schemaVersion", "createdAt", "generator",
///      "collections": {"<name>": {"path", "format", "count"}},
///      "files": [{"path", "size", "sha256"}]}
///
/// `files` lists every data and media file (not the manifest itself) in byte order of path.
/// `domain` and `schemaVersion` are omitted when unknown (schema-free data).
///
/// Version 2 bundles are BagIt bags (RFC 8493): every payload file lies under `data/` (media under
/// `data/media/`) and the manifest is a tag file beside `bagit.txt`. Version 1 bundles keep media
/// under `media/`; both are read.
public struct BundleManifest: Sendable, Hashable {
    /// The manifest format version this code writes.
    public static let currentVersion = 2
    /// The manifest format versions this code reads.
    public static let readableVersions: ClosedRange<Int64> = 1...2

    /// One collection: its data member, the content format name and the record count.
    public struct Collection: Sendable, Hashable {
        public var name: String
        /// The data member (`data/wineTastingNotes.json`).
        public var path: String
        /// The content format's registry name (`json`, `jsonl`, `csv`, `xml`).
        public var format: String
        /// The number of records written.
        public var count: Int

        public init(name: String, path: String, format: String, count: Int) {
            self.name = name
            self.path = path
            self.format = format
            self.count = count
        }
    }

    /// One listed file: its member path, size in bytes and SHA-256 (64 lowercase hex digits).
    public typealias File = BundleMember

    public var bundleVersion: Int
    public var domain: String?
    public var schemaVersion: Int?
    /// RFC 3339 UTC instant: `SOURCE_DATE_EPOCH` when set, else the newest record instant.
    public var createdAt: String
    /// The program that wrote the bundle (`ferry 0.1.0`).
    public var generator: String
    /// Collections in reading order.
    public var collections: [Collection]
    public var files: [File]

    public init(
        bundleVersion: Int = BundleManifest.currentVersion, domain: String?, schemaVersion: Int?, createdAt: String,
        generator: String, collections: [Collection], files: [File]
    ) {
        self.bundleVersion = bundleVersion
        self.domain = domain
        self.schemaVersion = schemaVersion
        self.createdAt = createdAt
        self.generator = generator
        self.collections = collections
        self.files = files
    }

    /// The path a record names a listed file by, relative to the dataset root: the payload folder
    /// `data/` of a version 2 bundle (`data/media/x.jpg` is `media/x.jpg`), the bundle's root of
    /// a version 1 bundle (the path as listed).
    public func datasetPath(of path: String) -> String {
        bundleVersion >= 2 && path.hasPrefix(BagIt.payloadPrefix) ? String(path.dropFirst(BagIt.payloadPrefix.count)) : path
    }

    /// The domain and schema version the manifest declares.
    public var header: DatasetHeader { DatasetHeader(domain: domain, schemaVersion: schemaVersion) }

    /// The manifest as a `Value`, keys in the canonical order.
    public var value: Value {
        var root = ValueObject()
        root.append("bundleVersion", .integer(Int64(bundleVersion)))
        if let domain { root.append("domain", .string(domain)) }
        if let schemaVersion { root.append("schemaVersion", .integer(Int64(schemaVersion))) }
        root.append("createdAt", .string(createdAt))
        root.append("generator", .string(generator))
        var collectionsObject = ValueObject()
        for collection in collections {
            collectionsObject.append(collection.name, .object([
                "path": .string(collection.path), "format": .string(collection.format),
                "count": .integer(Int64(collection.count)),
            ]))
        }
        root.append("collections", .object(collectionsObject))
        root.append("files", .array(files.map {
            .object(["path": .string($0.path), "size": .integer($0.size), "sha256": .string($0.sha256)])
        }))
        return .object(root)
    }

    /// The canonical JSON text: 2-space indent, `"key": value`, a final newline.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        ManifestJSON.encode(value, indent: 0, into: &out)
        out.append(0x0A)
        return out
    }

    /// Parses manifest text.
    /// - Parameters:
    ///   - bytes: the content of `manifest.json`.
    ///   - location: file and member for errors.
    /// - Throws: `FerryError` with `malformed-json` for broken JSON, `unknown-version` for a
    ///   `bundleVersion` other than 1 or 2, `invalid-value` for a member of the wrong shape.
    public init(parsing bytes: [UInt8], at location: SourceLocation = SourceLocation(member: "manifest.json")) throws {
        let root = try ManifestJSON.parse(bytes, at: location)
        func invalid(_ message: String) -> FerryError { FerryError(.invalidValue, "manifest: \(message)", at: location) }
        guard case .object(let object) = root else { throw invalid("the top level is not an object") }
        guard let version = object["bundleVersion"]?.int64Value else { throw invalid("bundleVersion is missing") }
        guard BundleManifest.readableVersions.contains(version) else {
            throw FerryError(.unknownVersion, "manifest: bundleVersion \(version) is not supported (1 and 2 are)", at: location)
        }
        bundleVersion = Int(version)
        switch object["domain"] {
        case nil, .null?: domain = nil
        case .string(let s)?: domain = s
        default: throw invalid("domain is not a string")
        }
        switch object["schemaVersion"] {
        case nil, .null?: schemaVersion = nil
        case let value?:
            guard let v = value.int64Value, let i = Int(exactly: v) else { throw invalid("schemaVersion is not an integer") }
            schemaVersion = i
        }
        createdAt = object["createdAt"]?.stringValue ?? ""
        generator = object["generator"]?.stringValue ?? ""
        collections = []
        if let value = object["collections"] {
            guard case .object(let list) = value else { throw invalid("collections is not an object") }
            for member in list.members {
                guard case .object(let entry) = member.value, let path = entry["path"]?.stringValue else {
                    throw invalid("collection \(member.key) has no path")
                }
                let count = entry["count"]?.int64Value.flatMap { Int(exactly: $0) } ?? 0
                collections.append(Collection(
                    name: member.key, path: MemberPath.nfc(path), format: entry["format"]?.stringValue ?? "", count: count))
            }
        }
        files = []
        if let value = object["files"] {
            guard case .array(let list) = value else { throw invalid("files is not an array") }
            for (i, item) in list.enumerated() {
                guard case .object(let entry) = item, let path = entry["path"]?.stringValue,
                      let size = entry["size"]?.int64Value, let sha = entry["sha256"]?.stringValue
                else { throw invalid("files[\(i)] needs path, size and sha256") }
                files.append(File(path: MemberPath.nfc(path), size: size, sha256: sha.lowercased()))
            }
        }
    }
}
