import FerryCore
import FerryFormats
import FerryPipeline
import FerrySchemas
import Foundation

/// The options every data command shares (DESIGN.md "Common options"), parsed into the request.
struct CommonOptions {
    static let specs: [OptionSpec] = [
        OptionSpec(["--from"], .single, value: "FORMAT", help: "Input format (json, jsonl, csv, xml, ...); default: the extension, else the content."),
        OptionSpec(["--domain"], .single, value: "DOMAIN", help: "Domain of the input: notes, pet-story or vocabulary; default: detected."),
        OptionSpec(["--schema-version"], .single, value: "N", help: "Schema version of the input (default: its envelope's, else its fields'); given, it overrides the envelope."),
        OptionSpec(["--schema-free"], help: "Read the input as plain records of no domain, whatever it looks like (validate then checks well-formedness only)."),
        OptionSpec(["--collection"], .single, value: "NAME", help: "Collection of records that name none (a CSV file, a top-level array)."),
        OptionSpec(["--date-strategy"], .single, value: "S", help: "How numeric dates are read: deferredToDate (default; secondsSince1970 in Firestore Timestamps), secondsSince1970, millisecondsSince1970, iso8601."),
        OptionSpec(["--time-zone"], .single, value: "ZONE", help: "IANA time zone for calendar days (default UTC; TZ is never read)."),
        OptionSpec(["--strict"], help: "Make lossy migration steps errors."),
        OptionSpec(["--lenient"], help: "Write the valid records and report the rest; fix what migration can."),
        OptionSpec(["--delimiter"], .single, value: "CHAR", help: "CSV delimiter: ',', ';', '|' or 'tab'; default: detected from the header line."),
        OptionSpec(["--no-header"], help: "CSV input has no header row (columns are named 1, 2, ...)."),
        OptionSpec(["--null"], .single, value: "TOKEN", help: "CSV cell text read as absent (e.g. NA)."),
        OptionSpec(["--encoding"], .single, value: "NAME", help: "Input encoding of CSV and XML (for XML it overrides the declaration): utf-8 (default), utf-16 (by its byte order mark), utf-16le, utf-16be, latin1, windows-1252 (JSON is read as UTF-8 only)."),
        OptionSpec(["--infer-types"], help: "Schema-free CSV: read numbers and booleans as such, not as strings."),
        OptionSpec(["--adapter-timeout"], .single, value: "SECONDS", help: "Stop an external ferry-format-* adapter silent this long (default 30)."),
        OptionSpec(["--jobs", "-j"], .single, value: "N", help: "Threads that process one JSON Lines, CSV, JSON document or XML input, CSV folder or bundle (1 to 256, default 1); output is the same."),
        OptionSpec(["--max-errors"], .single, value: "N", help: "Print at most N errors and warnings; the counts stay exact."),
        OptionSpec(["--quiet", "-q"], help: "Print errors only; no summary, no progress."),
        OptionSpec(["--verbose", "-v"], help: "Print notes and per-input details."),
    ]

    /// `specs` less the options a command does not honour (keys: `lenient` for `--lenient`):
    /// its `--help` lists only what it acts on, and the others are unknown options to it (exit 2).
    /// `help` replaces the line of an option the command honours in its own way (keys likewise).
    static func specs(excluding keys: Set<String> = [], help: [String: String] = [:]) -> [OptionSpec] {
        specs.filter { !keys.contains($0.key) }.map { spec in
            var spec = spec
            if let line = help[spec.key] { spec.help = line }
            return spec
        }
    }

    var quiet: Bool
    var verbose: Bool
    var maxErrors: Int?
    /// The formats available: built-ins plus external adapters on PATH.
    var registry: FormatRegistry

    /// Fills the request's shared fields from the arguments.
    /// - Throws: `FerryError(.unknownFormat)` for a `--from` no format answers to,
    ///   `FerryError(.unknownDomain)` for an unknown domain, `UsageError` for an unknown
    ///   encoding, date strategy, time zone or delimiter,
    ///   `--strict` with `--lenient`, or `--schema-free` with a domain, version or mapping option.
    init(_ arguments: ParsedArguments, into request: inout ConversionRequest) throws {
        quiet = arguments.flag("quiet")
        verbose = arguments.flag("verbose")
        maxErrors = try arguments.integer("max-errors", in: 0...Int.max)
        let timeout = try arguments.integer("adapter-timeout", in: 1...86_400) ?? 30
        registry = FormatRegistry.withExternalAdapters(timeout: Double(timeout))
        request.inputFormat = arguments.value("from")
        if let name = request.inputFormat, !registry.knowsInputFormat(name) {
            // As `--to` names an unknown output format: the command's error, before anything is read.
            throw FerryError(.unknownFormat, "unknown input format '\(name)'; `ferry formats` lists them" + registry.undescribedNote(for: name))
        }
        if let domain = arguments.value("domain") {
            guard let parsed = Domain(rawValue: domain) else {
                throw FerryError(.unknownDomain, "unknown domain '\(domain)'; domains: \(Domain.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            request.domain = parsed
        }
        request.sourceVersion = try arguments.integer("schema-version", in: 1...Int.max)
        request.schemaFree = arguments.flag("schema-free")
        if request.schemaFree, let other = ["domain", "schema-version", "to-version", "map"].first(where: { arguments.value($0) != nil }) {
            throw UsageError("--schema-free and --\(other) exclude each other: plain records have no domain or version")
        }
        request.read.collection = arguments.value("collection")
        if let strategy = arguments.value("date-strategy") {
            guard let parsed = DateStrategy(rawValue: strategy) else {
                throw UsageError("unknown date strategy '\(strategy)'; use deferredToDate, secondsSince1970, millisecondsSince1970 or iso8601")
            }
            request.processing.dateStrategy = parsed
        }
        if let zone = arguments.value("time-zone") {
            do { _ = try IANATimeZone.resolve(zone) } catch let error as FerryError { throw UsageError(error.diagnostic.message) }
            request.processing.timeZone = zone
        }
        if arguments.flag("strict") && arguments.flag("lenient") { throw UsageError("--strict and --lenient exclude each other") }
        if arguments.flag("strict") { request.processing.mode = .strict }
        if arguments.flag("lenient") { request.processing.mode = .lenient }
        if let delimiter = arguments.value("delimiter") {
            request.read.delimiter = try Self.delimiter(delimiter)
            request.write.delimiter = request.read.delimiter ?? UInt8(ascii: ",")
        }
        request.read.hasHeader = !arguments.flag("no-header")
        request.read.nullToken = arguments.value("null")
        request.read.encoding = arguments.value("encoding")
        if let name = request.read.encoding, !registry.knowsEncoding(name) {
            // A value that names nothing known: one line, as an unknown --from or --to.
            throw FerryError(.usage, "unknown encoding '\(name)'; use utf-8, utf-16, utf-16le, utf-16be, latin1 or windows-1252 "
                + "(XML also takes the encodings libxml2 knows, such as Shift_JIS)")
        }
        request.read.inferTypes = arguments.flag("infer-types")
        request.jobs = try arguments.integer("jobs", in: 1...256) ?? 1
        request.read.header = DatasetHeader(domain: request.domain?.rawValue, schemaVersion: request.sourceVersion)
    }

    private static func delimiter(_ text: String) throws -> UInt8 {
        switch text {
        case "tab", "\\t", "\t": return 0x09
        case ",", ";", "|": return text.utf8.first ?? UInt8(ascii: ",")
        default: throw UsageError("--delimiter takes ',', ';', '|' or 'tab', not '\(text)'")
        }
    }
}
