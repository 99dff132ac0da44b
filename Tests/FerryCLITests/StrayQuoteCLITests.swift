import FerryTestSupport
import Foundation
import Testing

/// Quotes inside unquoted CSV fields.
@Suite struct StrayQuoteCLITests {
    /// A V2 notes CSV whose unquoted cells hold quotes (a coordinate, inch marks): the quotes
    /// are characters, one warning per field; the streaming reader, the `--jobs` batches and the
    /// general path (`--no-typed-path`) give the same bytes and the same warnings, to every format.
    @Test(arguments: ["json", "jsonl", "csv", "xml"])
    func quotesInsideUnquotedCSVFieldsAreCharacters(output: String) throws {
        let box = try Sandbox()
        let header = "id,title,category,createdAt,alcoholByVolume,look.tint,look.note,smells.1.label,tastes.1.label,"
            + "tastes.1.value,grape.variety,think,rating,isFavorite\n"
        var text = header
        for i in 0..<40 {
            text += "w\(i),Cuvée \(i),red,2024-01-01T00:00:00Z,12.5,ruby,deep,oak,body,0.5,Syrah,"
            text += i % 10 == 3 ? "cellar at 37°36'37.8\"N; a 5\" cork,4,false\n" : "fine,4,false\n"
        }
        try box.write("wineTastingNotes.csv", text)
        var outputs: [[UInt8]] = []
        var logs: [[String]] = []
        for (index, flags) in [["--jobs", "1"], ["--jobs", "2"], ["--jobs", "2", "--no-typed-path"]].enumerated() {
            let run = try box.ferry(["convert", "wineTastingNotes.csv", "--to", output, "-o", "out-\(index).\(output)"] + flags)
            #expect(run.status == 0, "\(run.stderr)")
            outputs.append(try box.bytes("out-\(index).\(output)"))
            logs.append(run.diagnostics)
        }
        #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])
        #expect(logs[0] == logs[1] && logs[1] == logs[2])
        let message = "warning: a quote inside an unquoted field is kept as a character (RFC 4180 section 2.5 would quote the whole field and double the quote) [stray-quote]"
        #expect(logs[0] == [3, 13, 23, 33].map { row in
            // Row `row` is on line row + 2; the warning is at the cell's first quote.
            let before = "w\(row),Cuvée \(row),red,2024-01-01T00:00:00Z,12.5,ruby,deep,oak,body,0.5,Syrah,cellar at 37°36'37.8"
            return "wineTastingNotes.csv:\(row + 2):\(before.unicodeScalars.count + 1): \(message)"
        })
        let back = try box.ferry(["convert", "out-0.\(output)", "--to", "json", "-o", "-"])
        #expect(back.stdout.contains(#""think": "cellar at 37°36'37.8\"N; a 5\" cork""#), "\(back.stdout.prefix(400))")
    }
}
