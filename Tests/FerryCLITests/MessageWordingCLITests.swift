import FerryTestSupport
import Foundation
import Testing

/// Wording a new user reads: a lone file's missing media names the input's own format (its
/// descriptor's title), not JSON for every input.
@Suite struct MessageWordingCLITests {
    /// The pet-story sample's first story names two media no bundle carries: migrating it from a
    /// lone file of each format warns for each, naming that format.
    @Test(arguments: [("json", "JSON"), ("jsonl", "JSON Lines"), ("csv", "CSV"), ("xml", "XML")])
    func mediaNotExportedNamesTheInputsFormat(_ format: String, _ title: String) throws {
        let box = try Sandbox()
        try box.copySample("pet-story-v1.json", to: "pets.json")
        var input = "pets.json"
        if format != "json" {
            input = format == "csv" ? "pets/" : "pets.\(format)"
            #expect(try box.ferry(["convert", "pets.json", "--to", format, "-o", input, "--quiet"]).status == 0)
        }
        let column = format == "csv" ? [" (column 'mediaContentIds.1')", " (column 'mediaContentIds.2')"] : ["", ""]
        for jobs in ["1", "2"] {
            let run = try box.ferry(["migrate", input, "--to-version", "2", "-o", "out/", "--jobs", jobs])
            #expect(run.status == 0)
            let warnings = run.stderrLines.filter { $0.hasSuffix("[media-not-found]") }.map { String($0[$0.range(of: ": warning: ")!.upperBound...]) }
            #expect(warnings == [
                "/stories/0/mediaContentIds/0: media \"photo1\" was not exported with this \(title) file; kind set to unknown\(column[0]) (id \"s1\") [media-not-found]",
                "/stories/0/mediaContentIds/1: media \"clip1\" was not exported with this \(title) file; kind set to unknown\(column[1]) (id \"s1\") [media-not-found]",
            ], "\(format) --jobs \(jobs)")
        }
    }
}
