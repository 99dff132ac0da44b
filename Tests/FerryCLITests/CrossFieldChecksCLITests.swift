import FerryTestSupport
import Foundation
import Testing

/// A check across fields of a V1 pet-story record (a member's `birthDate` not after the day of
/// its `createdAt`, a story's `lat` and `lng` both or neither, a profile's `lastUpdatedAt` not
/// before its `createdAt`) runs on the record's values: when one of the fields it compares failed
/// to read, its value is a stand-in (1970-01-01, absent) and the check is not reported; when the
/// fields it compares read fine, it is, beside the record's other errors. In every format,
/// `validate` and `migrate` alike, with `--jobs` 1 and 2. (Notes and vocabulary have no check
/// across fields.)
@Suite struct CrossFieldChecksCLITests {
    /// Each case's V1 record, as a JSON document.
    static let inputs: [String: String] = [
        // createdAt failed to read: no "birthDate 2020-12-24 is after the day of createdAt (1970-01-01 in UTC)".
        "member": """
            {
              "domain": "pet-story",
              "schemaVersion": 1,
              "members": [
                {
                  "id": "m1",
                  "name": "Hana",
                  "since": "2021-04-03",
                  "birthDate": "2020-12-24",
                  "type": "dog",
                  "sex": "female",
                  "bio": "Shiba",
                  "createdAt": "yesterday"
                }
              ]
            }

            """,
        // lng failed to read: no "lat without lng".
        "story": """
            {
              "domain": "pet-story",
              "schemaVersion": 1,
              "stories": [
                {
                  "id": "s1",
                  "caption": "Walk",
                  "createdAt": "2024-01-20T08:00:00Z",
                  "mediaContentIds": [],
                  "lat": 35.5,
                  "lng": "east",
                  "taggedMemberIds": []
                }
              ]
            }

            """,
        // Both dates read fine: their order is still checked beside the unknown field.
        "profile": """
            {
              "domain": "pet-story",
              "schemaVersion": 1,
              "profiles": [
                {
                  "id": "p1",
                  "name": "Family",
                  "createdAt": "2024-06-01T12:00:00Z",
                  "lastUpdatedAt": "2023-01-10T10:00:00Z",
                  "bogus": 1
                }
              ]
            }

            """,
    ]

    /// Each problem: its pointer and message, the CSV column it names, its id and code.
    static let problems: [String: [(String, String, String)]] = [
        "member": [
            ("/members/0/createdAt: createdAt \"yesterday\" is not an RFC 3339 instant (YYYY-MM-DDTHH:MM:SSZ)", "createdAt",
             "(id \"m1\") [invalid-value]"),
        ],
        "story": [("/stories/0/lng: lng: expected a number, found \"east\"", "lng", "(id \"s1\") [type-error]")],
        "profile": [
            ("/profiles/0/lastUpdatedAt: lastUpdatedAt 2023-01-10T10:00:00Z is before createdAt 2024-06-01T12:00:00Z",
             "lastUpdatedAt", "(id \"p1\") [invalid-value]"),
            ("/profiles/0/bogus: unknown field \"bogus\" in Profile", "bogus", "(id \"p1\") [unknown-field]"),
        ],
    ]

    /// Where each format puts each problem, and the file (and member) the diagnostics name.
    static let places: [String: [String: (String, [String])]] = [
        "member": [
            "json": ("in.json", ["13:20"]), "jsonl": ("in.jsonl", ["2:150"]), "xml": ("in.xml", ["12:7"]),
            "csv": ("in/members.csv", ["2:48"]), "tar": ("in.tar:data/members.json", ["13:20"]),
        ],
        "story": [
            "json": ("in.json", ["11:14"]), "jsonl": ("in.jsonl", ["2:126"]), "xml": ("in.xml", ["10:7"]),
            "csv": ("in/stories.csv", ["2:35"]), "tar": ("in.tar:data/stories.json", ["11:14"]),
        ],
        "profile": [
            "json": ("in.json", ["9:24", "10:16"]), "jsonl": ("in.jsonl", ["2:104", "2:135"]), "xml": ("in.xml", ["8:7", "9:7"]),
            "csv": ("in/profiles.csv", ["2:32", "2:53"]), "tar": ("in.tar:data/profiles.json", ["9:24", "10:16"]),
        ],
    ]

    static let cells: [(String, String)] = ["member", "story", "profile"].flatMap { kind in FormatCells.formats.map { (kind, $0) } }

    @Test(arguments: cells)
    func aCheckAcrossFieldsSkipsAFieldThatFailedToRead(_ kind: String, _ format: String) throws {
        let box = try Sandbox()
        let input = try box.input(Self.inputs[kind]!, as: format)
        let (file, positions) = Self.places[kind]![format]!
        let expected = FormatCells.errorLines(Self.problems[kind]!, at: positions, of: file, format: format)
        let flags = ["--domain", "pet-story", "--schema-version", "1", "--quiet"]
        for jobs in ["1", "2"] {
            let validate = try box.ferry(["validate", input, "--jobs", jobs] + flags)
            #expect(validate.stderrLines == expected, "validate \(kind) \(format) --jobs \(jobs)")
            #expect(validate.status == 1)
            let migrate = try box.ferry(["migrate", input, "--to-version", "2", "-o", "out/", "--jobs", jobs] + flags)
            #expect(migrate.stderrLines == expected, "migrate \(kind) \(format) --jobs \(jobs)")
            #expect(migrate.status == 1)
        }
    }
}
