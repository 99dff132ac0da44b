import FerryTestSupport
import Foundation
import Testing

/// A folder of one file a collection is read in its domain's collection order (SCHEMAS.md), not
/// in file-name order: its records come out in the order the same dataset in one file gives
/// (pet-story: profiles, members, stories, where file names put members first), for CSV and
/// JSON Lines folders, with one job or two; the version is still told from any file's columns.
@Suite struct FolderCollectionOrderCLITests {
    /// The `$collection` of each record line, runs collapsed.
    static func collectionRuns(_ text: String) -> [String] {
        var runs: [String] = []
        for line in text.split(separator: "\n") {
            guard let name = line.firstMatch(of: /"\$collection":"([^"]*)"/)?.1 else { continue }
            if runs.last != String(name) { runs.append(String(name)) }
        }
        return runs
    }

    @Test(arguments: ["csv", "jsonl"], ["pet-story-v1.json", "notes-v1.json", "vocabulary-v1-backup-restore.json"])
    func aFolderIsReadInCollectionOrder(_ format: String, _ sample: String) throws {
        let box = try Sandbox()
        try box.copySample(sample, to: "in.json")
        let whole = try box.ferry(["convert", "in.json", "--to", "jsonl", "-o", "-"])
        #expect(whole.status == 0, "\(whole.stderr)")
        // One file a collection, named after it.
        #expect(try box.ferry(["convert", "in.json", "--to", format, "-o", "folder/"]).status == 0)
        let domain = sample.hasPrefix("notes") ? "notes" : sample.hasPrefix("pet") ? "pet-story" : "vocabulary"
        let (one, two) = try box.ferryByJobs(["convert", "folder/", "--domain", domain, "--to", "jsonl", "-o", "OUT"])
        #expect(one.output == two.output)
        #expect(one.status == 0, "\(one.stderr)")
        #expect(Self.collectionRuns(one.output) == Self.collectionRuns(whole.stdout), "\(format) \(sample)")
        #expect(one.output.hasPrefix("{\"domain\": \"\(domain)\", \"schemaVersion\": 1}\n"))
    }

    /// A pet-story V2 CSV folder: its first file in collection order (profiles.csv) says nothing
    /// of the version; the members' `species` column does.
    @Test func theVersionComesFromEveryFilesColumns() throws {
        let box = try Sandbox()
        try box.copySample("pet-story-v1.json", to: "in.json")
        #expect(try box.ferry(["migrate", "in.json", "--to-version", "2", "--to", "csv", "-o", "v2/"]).status == 0)
        let run = try box.ferry(["convert", "v2/", "--domain", "pet-story", "--to", "jsonl", "-o", "-"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("{\"domain\": \"pet-story\", \"schemaVersion\": 2}\n{\"$collection\":\"profiles\""))
    }
}
