import FerryCore
import FerryFormats
import Foundation

/// `ferry formats [--json]`: the adapters Ferry can use.
struct FormatsCommand: FerryCommand {
    static let configuration = CommandConfiguration(
        name: "formats", abstract: "List the formats Ferry reads and writes.",
        options: [OptionSpec(["--json"], help: "Print the list as JSON.")])

    var json: Bool

    init(_ arguments: ParsedArguments) throws { json = arguments.flag("json") }

    func run() throws -> ExitStatus {
        let formats = FormatRegistry.builtIn.formats
        if json {
            let items = formats.map { f in
                "  {\"name\": \(ReportFormat.quote(f.name)), \"extensions\": [\(f.extensions.map(ReportFormat.quote).joined(separator: ", "))], "
                    + "\"reads\": \(f.reader != nil), \"writes\": \(f.writer != nil), \"builtIn\": true}"
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
}
