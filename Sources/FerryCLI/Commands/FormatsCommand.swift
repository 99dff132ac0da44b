import FerryCore
import FerryFormats
import Foundation

/// `ferry formats [--json]`: the adapters Ferry can use.
struct FormatsCommand: FerryCommand {
    static let configuration = CommandConfiguration(
        name: "formats", abstract: "List the formats Ferry reads and writes.",
        discussion: "External adapters are executables named ferry-format-NAME on PATH (see Docs/external-adapters.md).",
        options: [
            OptionSpec(["--json"], help: "Print the list as JSON."),
            OptionSpec(["--adapter-timeout"], .single, value: "SECONDS", help: "Stop an adapter silent this long (default 30)."),
        ],
        // An adapter that fails to describe itself is a warning; nothing is read or written.
        exitCodes: [.success, .usage, .outputUnwritable, .internalError])

    var json: Bool
    var registry: FormatRegistry
    var log = DiagnosticLog()

    init(_ arguments: ParsedArguments) throws {
        json = arguments.flag("json")
        let timeout = try arguments.integer("adapter-timeout", in: 1...86_400) ?? 30
        registry = FormatRegistry.withExternalAdapters(timeout: Double(timeout), log: log)
    }

    func run() throws -> ExitStatus {
        for diagnostic in log.diagnostics { StandardError.write(diagnostic.description + "\n") }
        let formats = registry.formats
        if json {
            let items = formats.map { f in
                "  {\"name\": \(ReportFormat.quote(f.name)), \"extensions\": [\(f.extensions.map(ReportFormat.quote).joined(separator: ", "))], "
                    + "\"reads\": \(f.reader != nil || f.isContainer), \"writes\": \(f.writer != nil || f.isContainer), \"builtIn\": \(Self.isBuiltIn(f))}"
            }
            StandardOutput.write("[\n" + items.joined(separator: ",\n") + "\n]\n")
        } else {
            for f in formats {
                let modes = [f.reader != nil || f.isContainer ? "read" : nil, f.writer != nil || f.isContainer ? "write" : nil].compactMap { $0 }.joined(separator: "/")
                let name = Self.column(f.name, width: 8)
                let exts = Self.column(f.extensions.map { "." + $0 }.joined(separator: " "), width: 22)
                StandardOutput.write("\(name)\(exts)\(Self.column(modes, width: 11))\(f.summary)\n")
            }
        }
        return .success
    }

    /// `text` padded with spaces to `width`; longer text is kept whole and followed by one space
    /// (`padding(toLength:)` would cut it: `.tar.zst` printed as `.tar`).
    private static func column(_ text: String, width: Int) -> String {
        text.count < width ? text.padding(toLength: width, withPad: " ", startingAt: 0) : text + " "
    }

    private static func isBuiltIn(_ format: FormatDescriptor) -> Bool {
        FormatRegistry.builtIn.formats.contains { $0.name == format.name }
    }
}
