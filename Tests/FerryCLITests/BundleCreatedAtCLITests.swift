import FerryCore
import FerryTestSupport
import FormatBundle
import Foundation
import Testing

/// A bundle's manifest `createdAt` is the newest instant of the records written (SCHEMAS.md
/// "Bundle"): for vocabulary V1 that is the newest Firestore Timestamp of a word or word book, cut
/// to milliseconds as migration cuts it. Checked in each container and data format, with 1 and 2
/// jobs, for records the typed lane takes (clean inputs), records of the general path (a bare
/// number read with a warning, Firestore layouts) and a record `--lenient` leaves out (whose
/// newer timestamp does not count); notes and pet-story keep theirs.
@Suite struct BundleCreatedAtCLITests {
    struct Cell: CustomTestStringConvertible, CustomStringConvertible, Sendable {
        var name: String
        /// Writes the input into the sandbox and returns its name.
        var prepare: @Sendable (Sandbox) throws -> String
        var arguments: [String] = []
        var createdAt: String
        var description: String { name }
        var testDescription: String { name }
    }

    static let containers = ["b.tar", "b.zip", "b/"]
    static let dataFormats = ["json", "jsonl", "csv", "xml"]

    static func timestamp(_ seconds: Int, _ nanoseconds: Int) -> String {
        #"{"_seconds": \#(seconds), "_nanoseconds": \#(nanoseconds)}"#
    }

    static func word(_ id: String, book: String, state: Int = 1, timestamp: String) -> String {
        #"{"id": "\#(id)", "wordBookID": "\#(book)", "meaningText": "m", "ganaText": "g", "kanjiText": "k", "studyState": \#(state), "timestamp": \#(timestamp)}"#
    }

    /// Two word books and three words, the newest instant a word's with nanoseconds finer than
    /// milliseconds (2024-07-03T09:46:40.987654321Z); `extraWord` is a fourth word.
    static func vocabulary(newestBook: Int = 1_710_000_000, newestBookNanoseconds: Int = 5_000_000,
                           secondWordTimestamp: String = timestamp(1_715_000_000, 0), extraWord: String? = nil) -> String {
        let words = [
            word("w1", book: "b1", timestamp: timestamp(1_720_000_000, 987_654_321)),
            word("w2", book: "b2", timestamp: secondWordTimestamp),
            word("w3", book: "b1", timestamp: timestamp(0, 0)),
        ] + (extraWord.map { [$0] } ?? [])
        return """
            {"domain": "vocabulary", "schemaVersion": 1,
             "wordBooks": [{"id": "b1", "title": "B1", "timestamp": \(timestamp(1_700_000_000, 0))},
                           {"id": "b2", "title": "B2", "timestamp": \(timestamp(newestBook, newestBookNanoseconds))}],
             "words": [\(words.joined(separator: ",\n  "))]}

            """
    }

    /// Writes `text` as `in.json` and, for another format, converts it to `in.<format>`; `edit`
    /// then changes the text of the input read.
    static func input(_ text: String, format: String, in box: Sandbox, edit: (String) -> String = { $0 }) throws -> String {
        try box.write("src.json", text)
        let name = "in." + format
        if format == "json" {
            try box.write(name, edit(text))
        } else {
            let run = try box.ferry(["convert", "src.json", "-o", name, "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
            try box.write(name, edit(try box.text(name)))
        }
        return name
    }

    /// A word holding the newest timestamp (2027) whose studyState is not an integer, in each format.
    static func breakStudyState(_ text: String, format: String) -> String {
        switch format {
        case "json": return text.replacingOccurrences(of: #""studyState": 2"#, with: #""studyState": "x""#)
        case "jsonl": return text.replacingOccurrences(of: #""studyState":2"#, with: #""studyState":"x""#)
        case "xml": return text.replacingOccurrences(of: "<studyState>2</studyState>", with: "<studyState>x</studyState>")
        default: return text.replacingOccurrences(of: "\"\",2\r\n", with: "\"\",x\r\n")  // the last cell, CRLF rows
        }
    }

    /// A cell's input: the sample file `name`, copied as it is.
    static func sample(_ name: String) -> @Sendable (Sandbox) throws -> String {
        { box in
            try box.copySample(name)
            return name
        }
    }

    static let inputFormats = ["json", "jsonl", "csv", "xml"]

    static let cells: [Cell] = inputFormats.map { format in
        Cell(name: "vocabulary v1 \(format)", prepare: { try input(vocabulary(), format: format, in: $0) },
             createdAt: "2024-07-03T09:46:40.987Z")
    } + inputFormats.map { format in
        Cell(name: "vocabulary v1 \(format), a newer word left out (--lenient)", prepare: {
            try input(vocabulary(extraWord: word("wx", book: "b1", state: 2, timestamp: timestamp(1_800_000_000, 0))),
                      format: format, in: $0) { breakStudyState($0, format: format) }
        }, arguments: ["--lenient"], createdAt: "2024-07-03T09:46:40.987Z")
    } + ["json", "jsonl"].map { format in
        // A bare number is seconds since 1970, read with a warning: the general path's record.
        Cell(name: "vocabulary v1 \(format), the newest a bare number", prepare: {
            try input(vocabulary(), format: format, in: $0) { text in
                text.replacingOccurrences(of: #"{"_seconds": 1715000000, "_nanoseconds": 0}"#, with: "1725000000")
                    .replacingOccurrences(of: #"{"_seconds":1715000000,"_nanoseconds":0}"#, with: "1725000000")
            }
        }, createdAt: "2024-08-30T06:40:00Z")
    } + [
        Cell(name: "vocabulary v1, the newest a word book's", prepare: {
            try input(vocabulary(newestBook: 1_730_000_000, newestBookNanoseconds: 250_000_000), format: "json", in: $0)
        }, createdAt: "2024-10-27T03:33:20.250Z"),
        Cell(name: "vocabulary v1 node-firestore", prepare: sample("vocabulary-v1-node-firestore.json"), createdAt: "2024-03-09T16:00:50Z"),
        Cell(name: "vocabulary v1 backup-restore", prepare: sample("vocabulary-v1-backup-restore.json"), createdAt: "2023-07-22T04:33:20Z"),
        Cell(name: "vocabulary v1 csv bundle", prepare: { box in
            try box.write("src.json", vocabulary())
            #expect(try box.ferry(["convert", "src.json", "--data-format", "csv", "-o", "in.tar", "--quiet"]).status == 0)
            return "in.tar"
        }, createdAt: "2024-07-03T09:46:40.987Z"),
        Cell(name: "vocabulary v1 -> v2", prepare: { try input(vocabulary(), format: "jsonl", in: $0) },
             arguments: ["--to-version", "2"], createdAt: "2024-07-03T09:46:40.987Z"),
        Cell(name: "notes v1", prepare: sample("notes-v1.json"), createdAt: "2024-07-04T12:00:00Z"),
        Cell(name: "pet-story v1", prepare: sample("pet-story-v1.json"), createdAt: "2024-06-01T12:00:00Z"),
    ]

    /// The manifest's `createdAt` as the bundle reader reads it (a tar, a zip or a folder), and
    /// its line in the manifest's bytes where they are at hand (a tar's member, a folder's file).
    static func createdAt(_ container: String, in box: Sandbox) throws -> (field: String?, lines: [Substring]?) {
        let reader = try BundleReader(path: box.url.appendingPathComponent(container).path, log: DiagnosticLog())
        var bytes: [UInt8]?
        if container.hasSuffix("/") {
            bytes = try box.bytes(container + "manifest.json")
        } else if container.hasSuffix(".tar") {
            bytes = TarEditor(bytes: try box.bytes(container)).data(of: "manifest.json")
        }
        let lines = bytes.map { String(decoding: $0, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix(#"  "createdAt": "#) } }
        return (reader.manifest?.createdAt, lines)
    }

    @Test(arguments: cells)
    func manifestSaysTheNewestRecordInstant(_ cell: Cell) throws {
        let box = try Sandbox()
        let input = try cell.prepare(box)
        for container in Self.containers {
            for dataFormat in Self.dataFormats {
                for jobs in ["1", "2"] {
                    let what = "\(cell) -> \(container) \(dataFormat) --jobs \(jobs)"
                    try? box.remove(container)
                    let run = try box.ferry(["convert", input, "-o", container, "--data-format", dataFormat, "--jobs", jobs,
                                             "--quiet"] + cell.arguments)
                    #expect(run.status == (cell.arguments.contains("--lenient") ? 1 : 0), "\(what): \(run.stderr)")
                    let createdAt = try Self.createdAt(container, in: box)
                    #expect(createdAt.field == cell.createdAt, "\(what)")
                    if let lines = createdAt.lines { #expect(lines == [#"  "createdAt": "\#(cell.createdAt)","#], "\(what)") }
                }
            }
        }
    }

    /// `SOURCE_DATE_EPOCH` still wins over the records' Timestamps.
    @Test func sourceDateEpochWins() throws {
        let box = try Sandbox()
        try box.copySample("vocabulary-v1-node-firestore.json")
        for container in Self.containers {
            let run = try box.ferry(["convert", "vocabulary-v1-node-firestore.json", "-o", container, "--data-format", "json",
                                                "--quiet"], environment: ["SOURCE_DATE_EPOCH": "1600000000"])
            #expect(run.status == 0, "\(container): \(run.stderr)")
            #expect(try Self.createdAt(container, in: box).field == "2020-09-13T12:26:40Z", "\(container)")
        }
    }
}
