import FerryTestSupport
import Foundation
import Testing

/// An empty required string that must not be empty (`nonEmptyString`, an `enumeration`) breaks the
/// same rule in every format: JSON `""`, `<x/>`, a quoted `""` cell and an unquoted empty cell
/// (which is "" for a required string, SCHEMAS.md "Formats: CSV") all give the same
/// `invalid-value` at the value. An unquoted empty cell used to be `missing-field`.
@Suite struct EmptyRequiredStringCLITests {
    /// A V2 record per domain with one such string empty (notes: `title`; pet-story: a member's
    /// `sex`, an enumeration; vocabulary: a word's `wordBookID`).
    static let inputs: [String: String] = [
        "notes": """
            {
              "domain": "notes",
              "schemaVersion": 2,
              "wineTastingNotes": [
                {
                  "id": "b-1",
                  "title": "",
                  "category": "red",
                  "createdAt": "2024-05-01T09:30:00Z",
                  "alcoholByVolume": 14,
                  "look": {
                    "tint": "ruby",
                    "note": "clear"
                  },
                  "smells": [],
                  "tastes": [],
                  "think": "good",
                  "grape": {
                    "variety": "Tempranillo"
                  },
                  "rating": 3,
                  "isFavorite": false
                }
              ]
            }

            """,
        "pet-story": """
            {
              "domain": "pet-story",
              "schemaVersion": 2,
              "members": [
                {
                  "id": "m1",
                  "name": "Hana",
                  "since": "2021-04-03",
                  "birthDate": "2020-12-24",
                  "species": "dog",
                  "sex": "",
                  "bio": "",
                  "createdAt": "2023-01-10T10:05:00Z"
                }
              ]
            }

            """,
        "vocabulary": """
            {
              "domain": "vocabulary",
              "schemaVersion": 2,
              "wordBooks": [
                {
                  "id": "b1",
                  "title": "Book",
                  "createdAt": "2023-11-14T22:13:20Z"
                }
              ],
              "words": [
                {
                  "id": "w2",
                  "wordBookID": "",
                  "meaningText": "seven",
                  "meaningImageURL": "",
                  "ganaText": "なな",
                  "ganaImageURL": "",
                  "kanjiText": "七",
                  "kanjiImageURL": "",
                  "studyState": "undefined",
                  "timestamp": "2023-11-14T22:13:22Z"
                }
              ]
            }

            """,
    ]

    /// The problem (pointer and message, the CSV column, the record's id) and the collection's file.
    static let problems: [String: ((String, String, String), String)] = [
        "notes": (("/wineTastingNotes/0/title: title must not be empty", "title", "b-1"), "wineTastingNotes.csv"),
        "pet-story": (("/members/0/sex: sex \"\" is not one of male, female, unknown", "sex", "m1"), "members.csv"),
        "vocabulary": (("/words/0/wordBookID: wordBookID must not be empty", "wordBookID", "w2"), "words.csv"),
    ]

    /// The position of the empty value: JSON, JSON Lines, XML, and a CSV cell (a bundle's member
    /// being CSV).
    static let positions: [String: [String: String]] = [
        "notes": ["json": "7:16", "jsonl": "2:54", "xml": "6:7", "csv": "2:5"],
        "pet-story": ["json": "11:14", "jsonl": "2:118", "xml": "10:7", "csv": "2:35"],
        "vocabulary": ["json": "14:21", "jsonl": "3:47", "xml": "13:7", "csv": "2:4"],
    ]

    /// The one error line of `file` (a CSV file when `csv`) for `domain`.
    static func expected(_ domain: String, file: String, format: String) -> [String] {
        let (problem, _) = problems[domain]!
        let position = positions[domain]![format == "tar" ? "csv" : format]!
        let line = (problem.0, problem.1, "(id \"\(problem.2)\") [invalid-value]")
        return FormatCells.errorLines([line], at: [position], of: file, format: format == "tar" ? "csv" : format)
    }

    /// The value as each format writes "" (a quoted `""` cell in CSV, `<x/>` in XML); the tar's
    /// data members are CSV.
    @Test(arguments: FormatCells.all)
    func anEmptyValueIsInvalidInEveryFormat(_ domain: String, _ format: String) throws {
        let box = try Sandbox()
        let input = try box.input(Self.inputs[domain]!, as: format, dataFormat: format == "tar" ? "csv" : nil)
        let file = format == "csv" ? "in/" + Self.problems[domain]!.1
            : format == "tar" ? "in.tar:data/" + Self.problems[domain]!.1 : input
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", input, "--jobs", jobs])
            #expect(run.errors == Self.expected(domain, file: file, format: format), "\(domain) \(format) --jobs \(jobs)")
            #expect(run.status == 1)
        }
    }

    /// The same CSV with the cell unquoted (`,,`), in a CSV folder and in a bundle's CSV member (a
    /// folder bundle edited as a tool would, then tarred): the same error as the quoted cell.
    @Test(arguments: GeneratedDocuments.domains, ["in/", "b.tar"])
    func anUnquotedEmptyCellIsTheEmptyString(_ domain: String, _ container: String) throws {
        let box = try Sandbox()
        let csv = Self.problems[domain]!.1
        let unquote = { (text: String) -> String in
            #expect(text.components(separatedBy: ",\"\",").count >= 2)
            return text.replacingOccurrences(of: ",\"\",", with: ",,")
        }
        let file: String
        if container == "in/" {
            _ = try box.input(Self.inputs[domain]!, as: "csv")
            try box.write("in/" + csv, unquote(try box.text("in/" + csv)))
            file = "in/" + csv
        } else {
            try box.write("in.json", Self.inputs[domain]!)
            #expect(try box.ferry(["convert", "in.json", "--data-format", "csv", "-o", "b/", "--schema-free", "-q"]).status == 0)
            try BundleMemberTypingTests.edit("data/" + csv, of: "b", in: box, unquote)
            try BundleMemberTypingTests.container(container, in: box)
            file = "b.tar:data/" + csv
        }
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", container, "--jobs", jobs])
            #expect(run.errors == Self.expected(domain, file: file, format: "csv"), "\(domain) \(container) --jobs \(jobs)")
            #expect(run.status == 1)
        }
    }
}
