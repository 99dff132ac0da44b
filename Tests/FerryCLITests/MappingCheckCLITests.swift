import FerryTestSupport
import Foundation
import Testing

/// A mapping is checked against the input's header and the target schema before any row is
/// mapped: one usage error per bad entry, at its place in the mapping file, with a suggestion.
@Suite struct MappingCheckCLITests {
    static let mapping = """
        {
          "domain": "notes", "schemaVersion": 2, "collection": "coffeeTastingNotes",
          "fields": {
            "id": {"uuid": ["Name"]},
            "title": "Nmae",
            "createdAt": {"const": "2024-01-01T00:00:00Z"},
            "ratting": {"from": "Score", "scale": [0, 100, 0, 5]},
            "tastes": {"list": [{"object": {"lable": {"const": "x"}, "value": {"from": "Scor"}}}]}
          }
        }

        """
    static let fields = "'id', 'title', 'category', 'createdAt', 'imageData', 'smells', 'tastes', 'think', 'rating', 'isFavorite'"

    /// Every row of the input would fail the same way: the errors are one per entry, whatever the row count.
    @Test(arguments: [1, 500])
    func badEntriesAreOneUsageErrorEach(rows: Int) throws {
        let box = try Sandbox()
        try box.write("m.json", Self.mapping)
        try box.write("coffee.csv", "Name,Score,Notes\n" + String(repeating: "Kenya AA,88.5,berry\n", count: rows))
        let run = try box.ferry(["convert", "coffee.csv", "--map", "m.json", "-o", "c.json"])
        #expect(run.status == 2)
        #expect(run.stderrLines == [
            "m.json:5:14: error: /fields/title: source column 'Nmae' is not in the header of coffee.csv; did you mean 'Name'? (known: 'Name', 'Score', 'Notes') [usage]",
            "m.json:7:16: error: /fields/ratting: target field 'ratting' is not in CoffeeTastingNote (notes v2); did you mean 'rating'? (known: \(Self.fields)) [usage]",
            "m.json:8:46: error: /fields/tastes/list/0/object/lable: field 'lable' is not in Taste; did you mean 'label'? (known: 'label', 'value') [usage]",
            "m.json:8:80: error: /fields/tastes/list/0/object/value/from: source column 'Scor' is not in the header of coffee.csv; did you mean 'Score'? (known: 'Name', 'Score', 'Notes') [usage]",
            "coffee.csv: (0 records, 4 errors, 0 warnings); nothing written",
        ])
        #expect(!box.exists("c.json"))
    }

    @Test func unknownCollectionIsOneError() throws {
        let box = try Sandbox()
        try box.write("m.json", #"{"domain": "vocabulary", "schemaVersion": 2, "collection": "word", "fields": {"id": "ID"}}"#)
        try box.write("w.csv", "ID\nw1\n")
        let run = try box.ferry(["convert", "w.csv", "--map", "m.json", "-o", "w.json"])
        #expect(run.status == 2)
        #expect(run.stderrLines == [
            "m.json:1:60: error: /collection: collection 'word' is not in vocabulary v2; did you mean 'words'? (known: 'wordBooks', 'words') [usage]",
            "w.csv: (0 records, 1 error, 0 warnings); nothing written",
        ])
    }

    /// Dotted headers unflatten: a rule may read the object above them; JSON input has no header to check.
    @Test func dottedPrefixesAndJSONInputPass() throws {
        let box = try Sandbox()
        try box.write("m.json", #"{"domain": "vocabulary", "schemaVersion": 2, "collection": "wordBooks", "fields": {"id": "book.id", "title": "book", "createdAt": {"const": "2024-01-01T00:00:00Z"}}}"#)
        try box.write("b.csv", "book.id\nb1\n")
        let csv = try box.ferry(["validate", "b.csv", "--map", "m.json"])
        #expect(!csv.stderr.contains("[usage]"))
        try box.write("b.json", #"[{"Title": "x"}]"#)
        let json = try box.ferry(["validate", "b.json", "--map", "m.json"])
        #expect(!json.stderr.contains("[usage]"))
    }

    /// The Coffee Quality Institute file has 1,311 rows: a mistyped column and field were one error per row.
    @Test func cqiWithMistypedNamesIsTwoErrors() throws {
        guard let corpus = Fixtures.corpus("domain-tasting-coffee-cqi") else {
            print("skipped: corpus domain-tasting-coffee-cqi absent")
            return
        }
        let box = try Sandbox()
        try box.copySample("mappings/cqi-arabica.json")
        let mapping = try box.text("mappings/cqi-arabica.json")
            .replacingOccurrences(of: #""from": "Aroma""#, with: #""from": "Aromaa""#)
            .replacingOccurrences(of: #""rating""#, with: #""ratting""#)
        try box.write("bad.json", mapping)
        let input = corpus.appendingPathComponent("arabica_data_cleaned.csv").path
        let run = try box.ferry(["convert", input, "--map", "bad.json", "-o", "cqi.json"])
        #expect(run.status == 2)
        #expect(run.errors.count == 2)
        #expect(run.errors.first?.hasPrefix("bad.json:14:66: error: /fields/tastes/list/0/object/value/from: source column 'Aromaa' is not in the header of \(input); did you mean 'Aroma'? (known: '1', 'Species', ") == true)
        #expect(run.errors.last == "bad.json:22:16: error: /fields/ratting: target field 'ratting' is not in CoffeeTastingNote (notes v2); did you mean 'rating'? (known: \(Self.fields)) [usage]")
        #expect(run.stderrLines.last == "\(input): (0 records, 2 errors, 0 warnings); nothing written")
    }
}
