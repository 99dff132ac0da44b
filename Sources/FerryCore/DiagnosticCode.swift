extension Diagnostic {
    /// A stable kebab-case diagnostic code (`type-error`, `duplicate-id`, ...). Codes are part of the
    /// interface: reports, tests and users' CI match on them. Each code maps to one exit status
    /// (DESIGN.md "Exit codes"); `Docs/diagnostics.md` lists them all.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible,
        ExpressibleByStringLiteral
    {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public var description: String { rawValue }

        /// The exit status an error with this code asks for; unknown codes mean invalid data (1).
        public var exitStatus: ExitStatus { Code.statuses[self] ?? .invalidData }
    }
}

extension Diagnostic.Code {
    // MARK: Invalid data (exit 1)

    /// A value of the wrong JSON type for its field (a string where a number belongs).
    public static let typeError: Self = "type-error"
    /// A required field is absent.
    public static let missingField: Self = "missing-field"
    /// A field the record type does not have.
    public static let unknownField: Self = "unknown-field"
    /// A number outside its field's range (a rating of 7 on 0...5).
    public static let outOfRange: Self = "out-of-range"
    /// A value the field's type cannot hold: an enum value not listed, a malformed date, an empty title.
    public static let invalidValue: Self = "invalid-value"
    /// Two records of one collection share an id.
    public static let duplicateID: Self = "duplicate-id"
    /// A reference names a record that is not in the dataset.
    public static let danglingReference: Self = "dangling-reference"
    /// A migration step drops a non-default value.
    public static let lossyDrop: Self = "lossy-drop"
    /// A migration step cuts precision (sub-millisecond instants).
    public static let lossyPrecision: Self = "lossy-precision"
    /// A migration step changes a value to fit the new schema (under `--lenient`).
    public static let lossyChange: Self = "lossy-change"
    /// A media reference with no file in the bundle or folder.
    public static let missingMedia: Self = "missing-media"
    /// Media not exported with a lone JSON file (a warning).
    public static let mediaNotFound: Self = "media-not-found"

    // MARK: Input unreadable or malformed (exit 3)

    /// JSON that breaks RFC 8259.
    public static let malformedJSON: Self = "malformed-json"
    /// Nesting deeper than the documented limit (512).
    public static let tooDeep: Self = "too-deep"
    /// Bytes that are not valid in the input's encoding.
    public static let invalidEncoding: Self = "invalid-encoding"
    /// A value larger than the documented limits.
    public static let tooLarge: Self = "too-large"
    /// The input cannot be opened or read.
    public static let unreadableInput: Self = "unreadable-input"

    // MARK: Unknown format, domain or version (exit 4)

    /// No adapter reads or writes the format.
    public static let unknownFormat: Self = "unknown-format"
    /// The domain is not one of SCHEMAS.md's.
    public static let unknownDomain: Self = "unknown-domain"
    /// The schema version is not known, or lower than the input's (no down-migration).
    public static let unknownVersion: Self = "unknown-version"

    // MARK: Others

    /// A bad flag or argument (exit 2).
    public static let usage: Self = "usage"
    /// The output cannot be written (exit 5).
    public static let outputUnwritable: Self = "output-unwritable"
    /// A bug in Ferry (exit 70).
    public static let internalError: Self = "internal-error"
    /// Information about an assumption made (date strategy, time zone, layout).
    public static let assumption: Self = "assumption"

    // MARK: CSV (exit 3 unless noted)

    /// A row with more or fewer fields than the header.
    public static let raggedRow: Self = "ragged-row"
    /// A quoted field that never closes.
    public static let unterminatedQuote: Self = "unterminated-quote"
    /// Text after a closing quote (RFC 4180 section 2.7), or a missing header.
    public static let malformedCSV: Self = "malformed-csv"
    /// A quote inside an unquoted field, kept as a character (a warning, once per field).
    public static let strayQuote: Self = "stray-quote"
    /// Two header cells with one name, in a domain (exit 1).
    public static let duplicateHeader: Self = "duplicate-header"
    /// A source column that a field mapping does not use (a warning, once per column).
    public static let unmappedField: Self = "unmapped-field"

    // MARK: XML (exit 3)

    /// XML that is not well-formed, as libxml2 reports it.
    public static let malformedXML: Self = "malformed-xml"
    /// A document that declares entities or asks for external resources.
    public static let unsafeXML: Self = "unsafe-xml"

    // MARK: Bundles (exit 3 for the archive itself, 1 for its contents)

    /// A member whose path leaves the bundle (`..`, absolute, a link pointing outside), or a device file.
    public static let unsafePath: Self = "unsafe-path"
    /// An archive that ends before its last member does.
    public static let truncatedArchive: Self = "truncated-archive"
    /// An archive libarchive cannot read.
    public static let malformedArchive: Self = "malformed-archive"
    /// A bundle with `data/` but no `manifest.json`.
    public static let missingManifest: Self = "missing-manifest"
    /// A file whose size or SHA-256 differs from the manifest's (BagIt fixity).
    public static let checksumMismatch: Self = "checksum-mismatch"
    /// A file listed in the manifest but absent (BagIt completeness).
    public static let missingFile: Self = "missing-file"
    /// A file present but not listed in the manifest.
    public static let unlistedFile: Self = "unlisted-file"
    /// A media file no record references (a warning).
    public static let orphanMedia: Self = "orphan-media"
    /// A media file not written to a bundle output because every record referencing it is left
    /// out (a note).
    public static let mediaLeftOut: Self = "media-left-out"
    /// A collection whose record count differs from the manifest's.
    public static let countMismatch: Self = "count-mismatch"
    /// Two members with one path (or NFC-equal paths).
    public static let duplicateMember: Self = "duplicate-member"

    // MARK: External adapters

    /// An external adapter crashed, timed out or printed what the protocol does not allow (exit 3).
    public static let adapterFailed: Self = "adapter-failed"

    /// Every code Ferry emits, for documentation and for the test that checks each has a position.
    public static let all: [Self] = [
        .typeError, .missingField, .unknownField, .outOfRange, .invalidValue, .duplicateID, .danglingReference,
        .lossyDrop, .lossyPrecision, .lossyChange, .missingMedia, .mediaNotFound, .malformedJSON, .tooDeep,
        .invalidEncoding, .tooLarge, .unreadableInput, .unknownFormat, .unknownDomain, .unknownVersion, .usage,
        .outputUnwritable, .internalError, .assumption, .raggedRow, .unterminatedQuote, .malformedCSV, .strayQuote,
        .duplicateHeader, .unmappedField, .malformedXML, .unsafeXML, .unsafePath, .truncatedArchive,
        .malformedArchive, .missingManifest, .checksumMismatch, .missingFile, .unlistedFile, .orphanMedia,
        .mediaLeftOut, .countMismatch, .duplicateMember, .adapterFailed,
    ]

    /// Exit statuses of codes that are not plain invalid data.
    private static let statuses: [Diagnostic.Code: ExitStatus] = [
        .malformedJSON: .malformedInput, .tooDeep: .malformedInput, .invalidEncoding: .malformedInput,
        .tooLarge: .malformedInput, .unreadableInput: .malformedInput,
        .raggedRow: .malformedInput, .unterminatedQuote: .malformedInput, .malformedCSV: .malformedInput,
        .malformedXML: .malformedInput, .unsafeXML: .malformedInput, .unsafePath: .malformedInput,
        .truncatedArchive: .malformedInput, .malformedArchive: .malformedInput, .adapterFailed: .malformedInput,
        // A tar or folder without a manifest is no bundle to read (DESIGN.md: exit 3, input
        // unreadable or malformed), for validate as for inspect.
        .missingManifest: .malformedInput,
        .unknownFormat: .unknown, .unknownDomain: .unknown, .unknownVersion: .unknown,
        .usage: .usage, .outputUnwritable: .outputUnwritable, .internalError: .internalError,
    ]
}
