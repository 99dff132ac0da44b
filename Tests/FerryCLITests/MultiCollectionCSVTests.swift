import FerryTestSupport
import Foundation
import Testing

/// A dataset of several collections written to one CSV file (or standard output, or a `ferry run`
/// output template) carries a first column `$collection`, and reads back as the same dataset,
/// each collection typed by its schema: JSON -> CSV -> JSON is byte-identical for every domain and
/// version, with one job and two.
@Suite struct MultiCollectionCSVTests {
    static let datasets = BundleDataFormatTests.datasets

    /// The header line of a CSV text.
    static func header(_ text: String) -> String {
        String(text.prefix { $0 != "\r" && $0 != "\n" })
    }

    @Test(arguments: datasets)
    func oneCSVFileRoundTrips(dataset: BundleDataFormatTests.Dataset) throws {
        let box = try Sandbox()
        try dataset.prepare(in: box)
        let input = try box.bytes("in.json")

        let toFile = try box.ferry(["convert", "in.json", "-o", "all.csv", "--quiet"])
        #expect(toFile.status == 0, "\(dataset): \(toFile.stderr)")
        let csv = try box.text("all.csv")
        #expect(Self.header(csv).hasPrefix("$collection,"), "\(dataset)")

        for extra in [[], ["--jobs", "2"]] {
            let back = try box.ferry(["convert", "all.csv", "-o", "back.json", "--quiet"] + extra)
            #expect(back.status == 0, "\(dataset) \(extra): \(back.stderr)")
            #expect(try box.bytes("back.json") == input, "\(dataset) \(extra)")
        }
        let validate = try box.ferry(["validate", "all.csv", "--quiet"])
        #expect(validate.status == 0, "\(dataset): \(validate.stderr)")

        // Standard output writes the same bytes.
        let toStdout = try box.ferry(["convert", "in.json", "--to", "csv", "--quiet"])
        #expect(toStdout.status == 0)
        #expect(toStdout.stdout == csv, "\(dataset)")

        // JSON Lines in, on the typed path (leaf streams, one job and two): the same CSV, the
        // general path's (the goldens under `Fixtures/MultiCollectionCSVTests`).
        #expect(try box.ferry(["convert", "in.json", "-o", "in.jsonl", "--quiet"]).status == 0)
        let runs = GoldenRuns(box, golden: "MultiCollectionCSVTests/\(dataset.domain)-v\(dataset.version).txt", jobs: ["1", "2"])
        let run = try runs.run(["convert", "in.jsonl", "-o", "OUT.csv", "--quiet"])
        #expect(run.status == 0, "\(dataset): \(run.stderr)")
        #expect(try box.text(runs.recorded("OUT.csv")) == csv, "\(dataset)")
        runs.expectGolden()
    }

    /// The header: `$collection`, then each collection's columns in the schema's collection order,
    /// a shared name once; rows in the order the records came, a row's cells of other
    /// collections' columns empty.
    @Test func notesHeaderAndRows() throws {
        let box = try Sandbox()
        try box.write("in.json", """
            {"domain": "notes", "schemaVersion": 2,
             "coffeeTastingNotes": [{"id": "c1", "title": "Kenya", "category": "filter", "createdAt": "2024-01-02T00:00:00Z",
               "smells": [], "tastes": [{"label": "acidity", "value": 0.5}], "think": "", "rating": 4, "isFavorite": false}],
             "wineTastingNotes": [{"id": "w1", "title": "Pinot", "category": "red", "createdAt": "2024-01-01T00:00:00Z",
               "alcoholByVolume": 13.5, "look": {"tint": "ruby", "note": ""}, "smells": [{"label": "oak"}], "tastes": [],
               "grape": {"variety": "Pinot Noir"}, "think": "", "rating": 4.5, "isFavorite": true}]}
            """)
        let run = try box.ferry(["convert", "in.json", "-o", "all.csv"])
        #expect(run.status == 0)
        #expect(run.stderrLines == [
            "in.json: notes v2: wineTastingNotes 1, coffeeTastingNotes 1, whiskeyTastingNotes 0, cocktailTastingNotes 0 (2 records, 0 errors, 0 warnings) -> all.csv",
        ])
        #expect(try box.text("all.csv") == """
            $collection,id,title,category,createdAt,alcoholByVolume,look.tint,look.note,smells.1.label,grape.variety,think,rating,isFavorite,tastes.1.label,tastes.1.value\r
            coffeeTastingNotes,c1,Kenya,filter,2024-01-02T00:00:00Z,,,,,,"",4,false,acidity,0.5\r
            wineTastingNotes,w1,Pinot,red,2024-01-01T00:00:00Z,13.5,ruby,"",oak,Pinot Noir,"",4.5,true,,\r

            """)
        let back = try box.ferry(["convert", "all.csv", "-o", "back.json"])
        #expect(back.stderrLines == [
            "all.csv: notes v2: wineTastingNotes 1, coffeeTastingNotes 1, whiskeyTastingNotes 0, cocktailTastingNotes 0 (2 records, 0 errors, 0 warnings) -> back.json",
        ])
        #expect(back.status == 0)
    }

    /// The version is told from every column of the header, not the first row alone: a V2
    /// pet-story file whose first row is a profile with nothing of V2 in it (its members'
    /// `species` and its stories' `location` come later) reads back as V2, byte for byte.
    @Test func theVersionComesFromEveryColumn() throws {
        let box = try Sandbox()
        let input = """
            {
              "domain": "pet-story",
              "schemaVersion": 2,
              "profiles": [
                {
                  "id": "p1",
                  "name": "Hana",
                  "createdAt": "2023-01-10T10:00:00Z",
                  "lastUpdatedAt": "2024-06-01T12:00:00Z"
                }
              ],
              "members": [
                {
                  "id": "m1",
                  "name": "Pet",
                  "since": "2010-04-03",
                  "birthDate": "2010-01-01",
                  "species": "cat",
                  "sex": "male",
                  "bio": "",
                  "createdAt": "2023-01-10T10:05:00Z"
                }
              ],
              "stories": [
                {
                  "id": "s1",
                  "caption": "Snow",
                  "createdAt": "2024-01-01T08:00:00Z",
                  "media": [],
                  "location": {
                    "latitude": 25.5,
                    "longitude": -120.25
                  },
                  "taggedMemberIds": [
                    "m1"
                  ]
                }
              ]
            }

            """
        try box.write("in.json", input)
        #expect(try box.ferry(["convert", "in.json", "-o", "all.csv", "--quiet"]).status == 0)
        #expect(try box.text("all.csv") == """
            $collection,id,name,createdAt,lastUpdatedAt,since,birthDate,species,sex,bio,caption,location.latitude,location.longitude,taggedMemberIds.1\r
            profiles,p1,Hana,2023-01-10T10:00:00Z,2024-06-01T12:00:00Z,,,,,,,,,\r
            members,m1,Pet,2023-01-10T10:05:00Z,,2010-04-03,2010-01-01,cat,male,"",,,,\r
            stories,s1,,2024-01-01T08:00:00Z,,,,,,,Snow,25.5,-120.25,m1\r

            """)
        let back = try box.ferry(["convert", "all.csv", "-o", "back.json"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stderrLines == [
            "all.csv: pet-story v2: profiles 1, members 1, stories 1 (3 records, 0 errors, 0 warnings) -> back.json",
        ])
        #expect(try box.text("back.json") == input)
    }

    /// A type error in a row of a `$collection` file names the row's collection and the cell.
    @Test func aBadCellIsReportedInItsCollection() throws {
        let box = try Sandbox()
        try box.write("all.csv", "$collection,id,title,category,createdAt,smells.1.label,think,rating,isFavorite\r\n"
            + "coffeeTastingNotes,c1,Kenya,filter,2024-01-02T00:00:00Z,,\"\",high,false\r\n")
        let run = try box.ferry(["validate", "all.csv", "--domain", "notes", "--schema-version", "2"])
        #expect(run.status == 1)
        #expect(run.errors.count == 1)
        // Line 2, column 61: the `high` cell, typed by coffeeTastingNotes' schema.
        #expect(run.errors.first?.hasPrefix("all.csv:2:61: error: ") == true)
        #expect(run.errors.first?.contains("expected a number, found \"high\"") == true)
        #expect(run.errors.first?.hasSuffix("[type-error]") == true)
    }

    /// A row's pointer counts the records of its own collection, as a JSON Lines line's does: the
    /// second coffee row is `/coffeeTastingNotes/1`, though a whiskey row came first; read one row
    /// at a time and in batches alike.
    @Test(arguments: ["1", "2"])
    func aRowsPointerCountsItsCollection(jobs: String) throws {
        let box = try Sandbox()
        let row = { (collection: String, id: String, rating: String) in
            "\(collection),\(id),Kenya,filter,2024-01-02T00:00:00Z,,\"\",\(rating),false\r\n"
        }
        try box.write("all.csv", "$collection,id,title,category,createdAt,smells.1.label,think,rating,isFavorite\r\n"
            + row("whiskeyTastingNotes", "k1", "3") + row("coffeeTastingNotes", "c1", "4") + row("coffeeTastingNotes", "c2", "high"))
        let run = try box.ferry(["validate", "all.csv", "--domain", "notes", "--schema-version", "2", "--jobs", jobs])
        #expect(run.status == 1)
        #expect(run.errors == [
            #"all.csv:2:1: error: /whiskeyTastingNotes/0/alcoholByVolume: alcoholByVolume is missing (required in WhiskeyTastingNote) (column 'alcoholByVolume') (id "k1") [missing-field]"#,
            #"all.csv:2:1: error: /whiskeyTastingNotes/0/look: look is missing (required in WhiskeyTastingNote) (column 'look') (id "k1") [missing-field]"#,
            #"all.csv:2:1: error: /whiskeyTastingNotes/0/finish: finish is missing (required in WhiskeyTastingNote) (column 'finish') (id "k1") [missing-field]"#,
            #"all.csv:4:61: error: /coffeeTastingNotes/1/rating: rating: expected a number, found "high" (column 'rating') (id "c2") [type-error]"#,
        ])
    }

    /// One collection still writes a plain CSV; a folder still gets a file per collection.
    @Test func oneCollectionAndFoldersAreUnchanged() throws {
        let box = try Sandbox()
        try box.write("in.json", """
            {"domain": "notes", "schemaVersion": 2,
             "coffeeTastingNotes": [{"id": "c1", "title": "Kenya", "category": "filter", "createdAt": "2024-01-02T00:00:00Z",
               "smells": [], "tastes": [], "think": "", "rating": 4, "isFavorite": false}]}
            """)
        #expect(try box.ferry(["convert", "in.json", "-o", "one.csv", "--quiet"]).status == 0)
        #expect(try box.text("one.csv") == "id,title,category,createdAt,think,rating,isFavorite\r\nc1,Kenya,filter,2024-01-02T00:00:00Z,\"\",4,false\r\n")
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["convert", "notes-v1.json", "-o", "folder/", "--to", "csv", "--quiet"]).status == 0)
        #expect(try box.list("folder") == ["cocktailNotes.csv", "coffeeNotes.csv", "whiskeyNotes.csv", "wineNotes.csv"])
        for name in try box.list("folder") {
            #expect(!(try box.text("folder/" + name)).hasPrefix("$collection"))
        }
    }

    /// A `ferry run` output template naming one CSV file per input: each file holds the input's
    /// collections with `$collection`, and reads back.
    @Test func pipelineTemplateWritesTheCollectionColumn() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "in/notes.json")
        try box.write("p.json", """
            {"inputs": ["in/"], "steps": [{"migrate": {"toVersion": 2}}], "output": {"path": "out/{name}.csv"}}
            """)
        let run = try box.ferry(["run", "p.json", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let csv = try box.text("out/notes.csv")
        #expect(Self.header(csv).hasPrefix("$collection,id,"))
        #expect(try box.ferry(["migrate", "in/notes.json", "--to-version", "2", "-o", "v2.json", "--quiet"]).status == 0)
        #expect(try box.ferry(["convert", "out/notes.csv", "-o", "back.json", "--quiet"]).status == 0)
        #expect(try box.bytes("back.json") == (try box.bytes("v2.json")))
    }
}
