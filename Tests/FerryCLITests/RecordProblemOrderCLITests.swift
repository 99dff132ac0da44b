import FerryTestSupport
import Foundation
import Testing

/// A V2 record per domain whose required field, missing (a `missing-field` error at the record's
/// start), comes after a field read with an error: the record's problems are listed in line and
/// column order, the missing field first, in every format, with `--jobs` 1 and 2 (they were in
/// the order the reading found them: the bad field first).
@Suite struct RecordProblemOrderCLITests {
    static let inputs: [String: String] = [
        "notes": """
            {
              "domain": "notes",
              "schemaVersion": 2,
              "wineTastingNotes": [
                {
                  "id": "b-1",
                  "title": "Rioja Reserva",
                  "category": "red",
                  "createdAt": "2024-05-01T09:30:00Z",
                  "alcoholByVolume": "strong",
                  "look": {
                    "tint": "ruby",
                    "note": ""
                  },
                  "smells": [],
                  "tastes": [],
                  "grape": {
                    "variety": "Tempranillo"
                  },
                  "think": "",
                  "isFavorite": false
                }
              ]
            }

            """,
        "pet-story": """
            {
              "domain": "pet-story",
              "schemaVersion": 2,
              "profiles": [
                {
                  "id": "p1",
                  "name": "Hana",
                  "createdAt": "soon"
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
                  "wordBookID": "b1",
                  "meaningText": "seven",
                  "meaningImageURL": "",
                  "ganaText": "なな",
                  "ganaImageURL": "",
                  "kanjiText": "七",
                  "kanjiImageURL": "",
                  "studyState": "maybe"
                }
              ]
            }

            """,
    ]

    /// Each problem: its pointer and message, the CSV column it names, its id and code.
    static let problems: [String: [(String, String, String)]] = [
        "notes": [
            ("/wineTastingNotes/0/rating: rating is missing (required in WineTastingNote)", "rating", "(id \"b-1\") [missing-field]"),
            ("/wineTastingNotes/0/alcoholByVolume: alcoholByVolume: expected a number, found \"strong\"", "alcoholByVolume",
             "(id \"b-1\") [type-error]"),
        ],
        "pet-story": [
            ("/profiles/0/lastUpdatedAt: lastUpdatedAt is missing (required in Profile)", "lastUpdatedAt", "(id \"p1\") [missing-field]"),
            ("/profiles/0/createdAt: createdAt \"soon\" is not an RFC 3339 instant (YYYY-MM-DDTHH:MM:SSZ)", "createdAt",
             "(id \"p1\") [invalid-value]"),
        ],
        "vocabulary": [
            ("/words/0/timestamp: timestamp is missing (required in Word)", "timestamp", "(id \"w2\") [missing-field]"),
            ("/words/0/studyState: studyState \"maybe\" is not one of undefined, success, fail", "studyState",
             "(id \"w2\") [invalid-value]"),
        ],
    ]

    /// Where each format puts each problem, and the file (and member) the diagnostics name.
    static let places: [String: [String: (String, [String])]] = [
        "notes": [
            "json": ("in.json", ["5:5", "10:26"]), "jsonl": ("in.jsonl", ["2:1", "2:140"]),
            "xml": ("in.xml", ["4:5", "9:7"]), "csv": ("in/wineTastingNotes.csv", ["2:1", "2:44"]),
            "tar": ("in.tar:data/wineTastingNotes.json", ["5:5", "10:26"]),
        ],
        "pet-story": [
            "json": ("in.json", ["5:5", "8:20"]), "jsonl": ("in.jsonl", ["2:1", "2:63"]),
            "xml": ("in.xml", ["4:5", "7:7"]), "csv": ("in/profiles.csv", ["2:1", "2:9"]),
            "tar": ("in.tar:data/profiles.json", ["5:5", "8:20"]),
        ],
        "vocabulary": [
            "json": ("in.json", ["12:5", "21:21"]), "jsonl": ("in.jsonl", ["3:1", "3:177"]),
            "xml": ("in.xml", ["11:5", "20:7"]), "csv": ("in/words.csv", ["2:1", "2:27"]),
            "tar": ("in.tar:data/words.json", ["5:5", "14:21"]),
        ],
    ]

    @Test(arguments: FormatCells.all)
    func aRecordsProblemsAreInLineAndColumnOrder(_ domain: String, _ format: String) throws {
        let box = try Sandbox()
        let input = try box.input(Self.inputs[domain]!, as: format)
        let (file, positions) = Self.places[domain]![format]!
        let expected = FormatCells.errorLines(Self.problems[domain]!, at: positions, of: file, format: format)
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", input, "--jobs", jobs, "--domain", domain, "--schema-version", "2"])
            #expect(run.errors == expected, "\(domain) \(format) --jobs \(jobs)")
            #expect(run.status == 1)
        }
    }
}
