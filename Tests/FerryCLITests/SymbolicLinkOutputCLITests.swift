import FerryTestSupport
import Foundation
import Testing

/// An output named through a symbolic link is written where the link leads, and the link stays a
/// link: a rename onto the link's own path would replace it (`-o /dev/stdout` replaced the
/// system's link), and Foundation's path splitting trapped on such a name (exit 132).
@Suite struct SymbolicLinkOutputCLITests {
    @Test(arguments: [("jsonl", "out/target.jsonl"), ("json", "out/target.json"), ("xml", "out/target.xml"), ("csv", "out/target.csv")])
    func anOutputThroughALinkIsWrittenWhereItLeads(_ format: String, _ target: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "in.json")
        let only = format == "csv" ? ["--collection", "wineNotes"] : []
        #expect(try box.ferry(["convert", "in.json", "--to", format, "-o", "direct.\(format)", "--quiet"] + only).status == 0)
        try FileManager.default.createDirectory(at: box.url.appendingPathComponent("out"), withIntermediateDirectories: true)
        try box.write(target, "older\n")
        for (link, destination) in [("relative", target), ("absolute", box.url.appendingPathComponent(target).path)] {
            try FileManager.default.createSymbolicLink(atPath: box.url.appendingPathComponent(link).path, withDestinationPath: destination)
            let run = try box.ferry(["convert", "in.json", "--to", format, "-o", link, "--quiet"] + only)
            #expect(run.status == 0, "\(link): \(run.stderr)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: box.url.appendingPathComponent(link).path) == destination)
            #expect(try box.bytes(target) == box.bytes("direct.\(format)"), "\(link)")
            try box.write(target, "older\n")
        }
    }

    /// A link to the input is the input: refused before anything is read, the input untouched.
    @Test func aLinkToTheInputIsRefused() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "in.json")
        let before = try box.bytes("in.json")
        try FileManager.default.createSymbolicLink(atPath: box.url.appendingPathComponent("link").path, withDestinationPath: "in.json")
        let run = try box.ferry(["convert", "in.json", "--to", "jsonl", "-o", "link"])
        #expect(run.status == 2)
        #expect(run.stderrLines == ["ferry convert: error: the output 'link' is the input 'in.json'; inputs are never modified [usage]"])
        #expect(try box.bytes("in.json") == before)
    }
}
