// Ferry as a library, the common case: read a V1 export, migrate it to V2, keep the favourites
// with a Foundation #Predicate on the typed V2 models, and write CSV.
//
//     swift run favourite-notes [INPUT.json] [OUTPUT.csv]
//
// Defaults: the repository's Samples/notes-v1.json, and favourites.csv here.
import Ferry
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let input = URL(fileURLWithPath: arguments.first ?? "../notes-v1.json")
let output = URL(fileURLWithPath: arguments.dropFirst().first ?? "favourites.csv")

do {
    // Every rule `ferry validate` checks is checked here; an error throws with all diagnostics.
    let notes = try Dataset.read(input, as: NotesSchemaV1.self)

    // The domain's own migration plan (NotesMigrationPlan): lossy steps come back as warnings.
    let migrated = try notes.migrated(to: NotesSchemaV2.self)

    // One predicate for the four kinds of V2 note: they share the `Notable` capabilities.
    let favourites = try migrated.filter(#Predicate<any Notable> { $0.isFavorite })

    // The format follows the extension: .csv, .jsonl, .json, .xml or .tar.
    try favourites.write(to: output)
    print("\(favourites.models.count) favourite notes written to \(output.lastPathComponent)")
} catch {
    // The same compiler-style lines the `ferry` command prints, and its exit status.
    for diagnostic in error.diagnostics {
        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
    }
    exit(error.exitStatus.rawValue)
}
