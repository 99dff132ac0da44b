// A domain of the app's own with Ferry: migrate a JSON Lines reading log from V1 to V2 (one
// field renamed, one split), validate the result and write it.
//
//     swift run reading-log [INPUT.jsonl] [OUTPUT.jsonl]
import Ferry
import Foundation
import ReadingLog

let arguments = CommandLine.arguments.dropFirst()
let input = URL(fileURLWithPath: arguments.first ?? "Data/reading-log-v1.jsonl")
let output = URL(fileURLWithPath: arguments.dropFirst().first ?? "reading-log-v2.jsonl")

do {
    let result = try ReadingLogMigration.migrate(input)
    // Compiler-style lines with file, line, column, field pointer and record id, as `ferry` prints.
    for diagnostic in result.diagnostics {
        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
    }
    guard !result.hasErrors else { exit(ExitStatus.invalidData.rawValue) }
    // Any format by the extension: .jsonl, .json, .csv, .xml, .tar.
    try Records(models: result.entries).write(to: output)
    print("\(result.entries.count) entries migrated to V2 in \(output.lastPathComponent)")
} catch {
    for diagnostic in error.diagnostics {
        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
    }
    exit(error.exitStatus.rawValue)
}
