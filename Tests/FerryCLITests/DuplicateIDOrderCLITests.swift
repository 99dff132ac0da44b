import FerryTestSupport
import Foundation
import Testing

/// A record with a duplicate id and other problems lists its `duplicate-id` error in line and
/// column order among them (it came after them, wherever the id stood), in every format.
@Suite struct DuplicateIDOrderCLITests {
    @Test(arguments: ["json", "jsonl", "csv", "xml"])
    func theDuplicateIDTakesItsPlaceInLineOrder(_ format: String) throws {
        let box = try Sandbox()
        try box.copySample("broken/notes-v2-invalid.json", to: "bad.json")
        var input = "bad.json"
        if format != "json" {
            input = format == "csv" ? "csv/" : "bad.\(format)"
            #expect(try box.ferry(["convert", "bad.json", "--to", format, "-o", input, "--schema-free", "--quiet"]).status == 0)
        }
        let file = format == "csv" ? "csv/wineTastingNotes.csv" : input
        // Where each format puts the first record's rating, the second record's id and its taste value.
        let (rating, id, taste, first) = [
            "json": ("21:17", "25:13", "38:20", "line 6"), "jsonl": ("2:278", "3:40", "3:229", "line 2"),
            "csv": ("2:94", "3:1", "3:67", "line 2"), "xml": ("20:7", "24:7", "37:11", "line 5"),
        ][format]!
        let columns = format == "csv" ? [" (column 'rating')", " (column 'id')", " (column 'tastes.1.value')"] : ["", "", ""]
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", input, "--jobs", jobs])
            #expect(run.errors == [
                "\(file):\(rating): error: /wineTastingNotes/0/rating: rating 7 is out of range 0...5\(columns[0]) (id \"b-1\") [out-of-range]",
                "\(file):\(id): error: /wineTastingNotes/1/id: duplicate id \"b-1\" in wineTastingNotes: first at \(first) "
                    + "(/wineTastingNotes/0)\(columns[1]) [duplicate-id]",
                "\(file):\(taste): error: /wineTastingNotes/1/tastes/0/value: tastes/0/value 1.4 is out of range 0...1\(columns[2]) "
                    + "(id \"b-1\") [out-of-range]",
            ], "\(format) --jobs \(jobs)")
            #expect(run.status == 1)
        }
    }
}
