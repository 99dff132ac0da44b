import FerryTestSupport
import Foundation
import Testing

/// Quotes inside unquoted CSV fields.
@Suite struct StrayQuoteCLITests {
    /// A V2 notes CSV whose unquoted cells hold quotes (a coordinate, inch marks): the quotes
    /// are characters, one warning per field; the streaming reader and the `--jobs` batches give
    /// the general path's bytes and warnings (the goldens under `Fixtures/StrayQuoteCLITests`), to
    /// every format.
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
        let runs = GoldenRuns(box, golden: "StrayQuoteCLITests/to-\(output).txt", jobs: ["1", "2"])
        let run = try runs.run(["convert", "wineTastingNotes.csv", "--to", output, "-o", "OUT.\(output)"])
        #expect(run.status == 0, "\(run.stderr)")
        runs.expectGolden()
        let message = "warning: a quote inside an unquoted field is kept as a character (RFC 4180 section 2.5 would quote the whole field and double the quote) [stray-quote]"
        #expect(run.diagnostics == [3, 13, 23, 33].map { row in
            // Row `row` is on line row + 2; the warning is at the cell's first quote.
            let before = "w\(row),Cuvée \(row),red,2024-01-01T00:00:00Z,12.5,ruby,deep,oak,body,0.5,Syrah,cellar at 37°36'37.8"
            return "wineTastingNotes.csv:\(row + 2):\(before.unicodeScalars.count + 1): \(message)"
        })
        let back = try box.ferry(["convert", runs.recorded("OUT.\(output)"), "--to", "json", "-o", "-"])
        #expect(back.stdout.contains(#""think": "cellar at 37°36'37.8\"N; a 5\" cork""#), "\(back.stdout.prefix(400))")
    }
}
