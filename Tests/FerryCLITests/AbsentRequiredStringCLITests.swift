import FerryTestSupport
import Foundation
import Testing

/// A required string a record lacks is missing in every format: JSON has no member for it, XML
/// no element, CSV no column (a CSV or XML record used to read it as ""). An empty CSV cell of a
/// column that is there is still "" for a required string, and `<x/>` too (SCHEMAS.md "Formats").
@Suite struct AbsentRequiredStringCLITests {
    /// A V2 record per domain without a required string (notes: `think`, and `look.tint` inside
    /// its object; pet-story: a member's `bio`; vocabulary: a word's `meaningText`).
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
                  "alcoholByVolume": 14,
                  "look": {
                    "note": "clear"
                  },
                  "smells": [],
                  "tastes": [],
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
                  "sex": "female",
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
                  "wordBookID": "b1",
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

    /// The missing fields: pointer and message, the CSV column named, the record's id.
    static let problems: [String: [(String, String, String)]] = [
        "notes": [
            ("/wineTastingNotes/0/think: think is missing (required in WineTastingNote)", "think", "b-1"),
            ("/wineTastingNotes/0/look/tint: look/tint is missing (required in Look)", "look.tint", "b-1"),
        ],
        "pet-story": [("/members/0/bio: bio is missing (required in FamilyMember)", "bio", "m1")],
        "vocabulary": [("/words/0/meaningText: meaningText is missing (required in Word)", "meaningText", "w2")],
    ]

    /// The file each format's diagnostics name and the positions: a missing field is at its
    /// record's start (JSON, JSON Lines, XML: the record's element) or row, or at the value it
    /// would be in (`look`: its first cell, its element).
    static let places: [String: [String: (String, [String])]] = [
        "notes": [
            "json": ("in.json", ["5:5", "11:15"]), "jsonl": ("in.jsonl", ["2:1", "2:150"]), "xml": ("in.xml", ["4:5", "10:7"]),
            "csv": ("in/wineTastingNotes.csv", ["2:1", "2:47"]), "tar": ("in.tar:data/wineTastingNotes.csv", ["2:1", "2:47"]),
        ],
        "pet-story": [
            "json": ("in.json", ["5:5"]), "jsonl": ("in.jsonl", ["2:1"]), "xml": ("in.xml", ["4:5"]),
            "csv": ("in/members.csv", ["2:1"]), "tar": ("in.tar:data/members.csv", ["2:1"]),
        ],
        "vocabulary": [
            "json": ("in.json", ["12:5"]), "jsonl": ("in.jsonl", ["3:1"]), "xml": ("in.xml", ["11:5"]),
            "csv": ("in/words.csv", ["2:1"]), "tar": ("in.tar:data/words.csv", ["2:1"]),
        ],
    ]

    /// The tar's data members are CSV, so that a bundle's CSV reads as a file's does.
    @Test(arguments: FormatCells.all)
    func anAbsentRequiredStringIsMissingInEveryFormat(_ domain: String, _ format: String) throws {
        let box = try Sandbox()
        let input = try box.input(Self.inputs[domain]!, as: format, dataFormat: format == "tar" ? "csv" : nil)
        let (file, positions) = Self.places[domain]![format]!
        let expected = zip(Self.problems[domain]!, positions).map { problem, position in
            let column = format == "csv" || format == "tar" ? " (column '\(problem.1)')" : ""
            return "\(file):\(position): error: \(problem.0)\(column) (id \"\(problem.2)\") [missing-field]"
        }
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", input, "--jobs", jobs, "--domain", domain, "--schema-version", "2"])
            #expect(run.errors == expected, "\(domain) \(format) --jobs \(jobs)")
            #expect(run.status == 1)
        }
    }

    /// The same records with a column for each missing string, its cell empty and unquoted (or
    /// an empty element in XML): the strings are "" and the records valid.
    @Test(arguments: ["notes", "pet-story", "vocabulary"], ["csv", "xml"])
    func anEmptyCellOrElementIsAnEmptyString(_ domain: String, _ format: String) throws {
        let box = try Sandbox()
        let input = try box.input(Self.inputs[domain]!, as: format)
        let names = Self.problems[domain]!.map(\.1)
        if format == "csv" {
            let file = "in/" + ["notes": "wineTastingNotes.csv", "pet-story": "members.csv", "vocabulary": "words.csv"][domain]!
            // CRLF is one Character: lines split on either ending.
            let lines = try box.text(file).split(whereSeparator: \.isNewline).map(String.init)
            let (header, row) = (lines[0], lines[1])
            try box.write(file, header + "," + names.joined(separator: ",") + "\n" + row + String(repeating: ",", count: names.count) + "\n")
        } else {
            // Each missing field as an empty element of its record or object.
            let edits = [
                "notes": [("<look>", "<look><tint/>"), ("</record>", "<think/></record>")],
                "pet-story": [("</record>", "<bio/></record>")],
                "vocabulary": [("<meaningImageURL", "<meaningText/><meaningImageURL")],
            ][domain]!
            var text = try box.text(input)
            for (old, new) in edits {
                #expect(text.components(separatedBy: old).count == 2)
                text = text.replacingOccurrences(of: old, with: new)
            }
            try box.write(input, text)
        }
        let run = try box.ferry(["validate", input, "--domain", domain, "--schema-version", "2"])
        #expect(run.errors == [], "\(domain) \(format)")
        #expect(run.status == 0)
    }
}
