// A domain of the app's own with Ferry: register it, migrate a JSON Lines reading log from V1
// to V2 through its plan (one field renamed, one split), validated before and after, and write it.
//
//     swift run reading-log [INPUT.jsonl] [OUTPUT.jsonl]
import Ferry
import Foundation
import ReadingLog

let arguments = CommandLine.arguments.dropFirst()
let input = URL(fileURLWithPath: arguments.first ?? "Data/reading-log-v1.jsonl")
let output = URL(fileURLWithPath: arguments.dropFirst().first ?? "reading-log-v2.jsonl")

do {
    try ReadingLogDomain.register()
    let v2 = try Dataset.read(input, as: ReadingLogSchemaV1.self).migrated(to: ReadingLogSchemaV2.self)
    // Compiler-style lines with file, line, column, field pointer and record id, as `ferry` prints.
    for diagnostic in v2.diagnostics {
        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
    }
    // Any format by the extension: .jsonl, .json, .csv, .xml, .tar.
    try v2.write(to: output)
    print("\(v2.models.count) entries migrated to V2 in \(output.lastPathComponent)")
} catch {
    for diagnostic in error.diagnostics {
        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
    }
    exit(error.exitStatus.rawValue)
}
