import FerryTestSupport
import Foundation
import Testing

/// A V1 record whose id repeats an earlier one and whose fields break a check of the migration
/// (a whiskey finish length, a lone `lat`, a word's missing book and unknown study state), with no
/// other problem: the duplicate is dropped, but `validate` and `migrate` both report what its
/// migration rejects beside its `duplicate-id`, in line and column order, in every format, with
/// `--jobs` 1 and 2.
@Suite struct DuplicateRecordChecksCLITests {
    /// Each domain's collection, a valid first record's JSON, and the second record's members after
    /// its id (the same id).
    static let records: [String: (collection: String, first: String, second: String)] = [
        "notes": ("whiskeyNotes",
                  #"{"id": "k-1", "title": "Yamazaki 12", "category": "single malt", "createdAt": "2024-01-15T22:00:00Z", "alcohol": 43, "look": "amber", "smells": [], "tastes": [], "finish": {"length": "long", "note": ""}, "think": "", "rating": 4.5, "isFavorite": true}"#,
                  #"{"id": "k-1", "title": "Hakushu", "category": "single malt", "createdAt": "2024-01-16T22:00:00Z", "alcohol": 43, "look": "gold", "smells": [], "tastes": [], "finish": {"length": "Lingering", "note": ""}, "think": "", "rating": 4, "isFavorite": false}"#),
        "pet-story": ("stories",
                      #"{"id": "s1", "caption": "first", "createdAt": "2024-01-01T00:00:00Z", "mediaContentIds": [], "taggedMemberIds": []}"#,
                      #"{"id": "s1", "caption": "lat without lng", "createdAt": "2024-01-02T00:00:00Z", "mediaContentIds": [], "lat": 35.0, "taggedMemberIds": []}"#),
        "vocabulary": ("words",
                       #"{"id": "w1", "wordBookID": "", "meaningText": "one", "ganaText": "いち", "kanjiText": "一", "studyState": 1, "timestamp": {"_seconds": 1700000001, "_nanoseconds": 0}}"#,
                       #"{"id": "w1", "wordBookID": "", "meaningText": "seven", "ganaText": "なな", "kanjiText": "七", "studyState": 7, "timestamp": {"_seconds": 1700000002, "_nanoseconds": 0}}"#),
    ]

    /// The second record's problems (pointer, message and code after the position), in the order
    /// of their places in every format: its id first. `duplicate-id` names the collection its
    /// pointer is in (the input's, V1), in `migrate` as in `validate`.
    static let problems: [String: [String]] = [
        "notes": [
            #"/whiskeyNotes/1/id: duplicate id "k-1" in whiskeyNotes: first at"#,
            #"/whiskeyNotes/1/finish/length: finish.length "Lingering" is not short, medium or long (--lenient maps it to medium)"#,
        ],
        "pet-story": [
            #"/stories/1/id: duplicate id "s1" in stories: first at"#,
            "/stories/1/lat: lat without lng; a location needs both",
        ],
        "vocabulary": [
            "/words/0/wordBookID: wordBookID is missing",  // the first word's: no word book in the set
            #"/words/1/id: duplicate id "w1" in words: first at"#,
            "/words/1/wordBookID: wordBookID is missing",
            "/words/1/studyState: studyState 7 is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined)",
        ],
    ]

    /// The error lines of `output` without their `file:line:column: error: ` start, and their
    /// (line, column) places.
    static func split(_ lines: [String]) -> (texts: [String], places: [[Int]]) {
        var texts: [String] = [], places: [[Int]] = []
        for line in lines {
            guard let range = line.range(of: ": error: ") else { continue }
            texts.append(String(line[range.upperBound...]))
            let head = line[..<range.lowerBound].split(separator: ":")
            places.append(head.suffix(2).compactMap { Int($0) })
        }
        return (texts, places)
    }

    @Test(arguments: FormatCells.all)
    func aDuplicateStillSaysWhatItsMigrationRejects(_ domain: String, _ format: String) throws {
        let box = try Sandbox()
        let (collection, first, second) = Self.records[domain]!
        let document = #"{"domain": "\#(domain)", "schemaVersion": 1, "\#(collection)": [\#(first), \#(second)]}"#
        let input = try box.input(document + "\n", as: format)
        let flags = ["--domain", domain, "--schema-version", "1"]
        for jobs in ["1", "2"] {
            var said: [[String]] = []
            for command in [["validate", input], ["migrate", input, "--to-version", "2", "-o", "out/"]] {
                let run = try box.ferry(command + ["--jobs", jobs] + flags)
                said.append(run.errors)
                let (texts, places) = Self.split(run.errors)
                let expected = Self.problems[domain]!
                #expect(texts.count == expected.count, "\(command[0]) \(domain) \(format) --jobs \(jobs): \(run.errors)")
                for (text, prefix) in zip(texts, expected) {
                    #expect(text.hasPrefix(prefix), "\(command[0]) \(domain) \(format) --jobs \(jobs): \(text)")
                }
                #expect(places == places.sorted { ($0.first ?? 0, $0.last ?? 0) < ($1.first ?? 0, $1.last ?? 0) })
                #expect(run.status == 1)
            }
            // The same lines, byte for byte: the duplicate named in the input's collection by both.
            #expect(said[0] == said[1], "\(domain) \(format) --jobs \(jobs)")
        }
    }
}
