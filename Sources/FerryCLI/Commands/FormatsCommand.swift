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
        ])

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
                    + "\"reads\": \(f.reader != nil), \"writes\": \(f.writer != nil), \"builtIn\": \(Self.isBuiltIn(f))}"
            }
            StandardOutput.write("[\n" + items.joined(separator: ",\n") + "\n]\n")
        } else {
            for f in formats {
                let modes = [f.reader != nil ? "read" : nil, f.writer != nil ? "write" : nil].compactMap { $0 }.joined(separator: "/")
                let name = f.name.padding(toLength: 8, withPad: " ", startingAt: 0)
                let exts = f.extensions.map { "." + $0 }.joined(separator: " ").padding(toLength: 22, withPad: " ", startingAt: 0)
                StandardOutput.write("\(name)\(exts)\(modes.padding(toLength: 11, withPad: " ", startingAt: 0))\(f.summary)\n")
            }
        }
        return .success
    }

    private static func isBuiltIn(_ format: FormatDescriptor) -> Bool {
        FormatRegistry.builtIn.formats.contains { $0.name == format.name }
    }
}
