import FerryTestSupport
import Foundation
import Testing

/// `--skip`, `--limit`, `--sample`, `--select` and `ferry head` give the exact records and fields,
/// per collection, for every domain, version and input format, deterministically.
@Suite struct SelectionCLITests {
    typealias Dataset = BundleDataFormatTests.Dataset

    static let datasets = BundleDataFormatTests.datasets
    /// Input formats: the canonical JSON converted to each (a tar bundle for the container).
    static let formats = ["json", "jsonl", "csv", "xml", "tar"]

    /// Writes `in.json` for the dataset and `in.<format>` from it; returns the input's name.
    private static func input(_ dataset: Dataset, _ format: String, in box: Sandbox) throws -> String {
        try dataset.prepare(in: box)
        if format == "json" { return "in.json" }
        let source = dataset.hasMedia ? "src.tar" : "in.json"
        let name = "in." + format
        if !(dataset.hasMedia && format == "tar") {
            let run = try box.ferry(["convert", source, "-o", name, "--quiet"])
            #expect(run.status == 0, "\(dataset) \(format): \(run.stderr)")
        }
        return dataset.hasMedia && format == "tar" ? source : name
    }

    /// The collections of a JSON dataset document, each an array of records.
    private static func collections(_ box: Sandbox, _ file: String) throws -> [String: [NSDictionary]] {
        let document = try JSONSerialization.jsonObject(with: Data(try box.bytes(file))) as? [String: Any] ?? [:]
        var result: [String: [NSDictionary]] = [:]
        for (key, value) in document {
            if let records = value as? [NSDictionary] { result[key] = records }
        }
        return result
    }

    @Test(arguments: datasets, formats)
    func skipAndLimitKeepTheExactRecordsOfEachCollection(dataset: Dataset, format: String) throws {
        let box = try Sandbox()
        let input = try Self.input(dataset, format, in: box)
        let full = try box.ferry(["convert", input, "--to", "json", "-o", "full.json", "--quiet"])
        #expect(full.status == 0, "\(dataset) \(format): \(full.stderr)")
        let all = try Self.collections(box, "full.json")
        #expect(!all.isEmpty)
        for (skip, limit) in [(0, 1), (1, 1), (1, 100), (0, 0)] {
            let run = try box.ferry(["convert", input, "--skip", String(skip), "--limit", String(limit), "--to", "json", "-o", "sel.json", "--quiet"])
            #expect(run.status == 0, "\(dataset) \(format) skip \(skip) limit \(limit): \(run.stderr)")
            let selected = try Self.collections(box, "sel.json")
            for (name, records) in all {
                let expected = Array(records.dropFirst(skip).prefix(limit))
                #expect(selected[name] ?? [] == expected, "\(dataset) \(format) \(name) skip \(skip) limit \(limit)")
            }
        }
    }

    /// The filter the tests below apply, and the records it keeps by the same rule written in Swift.
    static let idFilter = ["--where", #"id CONTAINS "1""#]
    static func matchingIDFilter(_ records: [NSDictionary]) -> [NSDictionary] {
        records.filter { ($0["id"] as? String)?.contains("1") == true }
    }

    @Test(arguments: datasets, formats)
    func aFilterKeepsTheMatchingRecordsWithAnyNumberOfJobs(dataset: Dataset, format: String) throws {
        let box = try Sandbox()
        let input = try Self.input(dataset, format, in: box)
        #expect(try box.ferry(["convert", input, "--to", "json", "-o", "full.json", "--quiet"]).status == 0)
        let all = try Self.collections(box, "full.json")
        var outputs: [[UInt8]] = []
        for jobs in ["1", "2"] {
            let run = try box.ferry(["convert", input] + Self.idFilter + ["--to", "json", "-o", "w.json", "--jobs", jobs])
            #expect(run.status == 0, "\(dataset) \(format) --jobs \(jobs): \(run.stderr)")
            outputs.append(try box.bytes("w.json"))
            let kept = try Self.collections(box, "w.json")
            for (name, records) in all {
                #expect(kept[name] ?? [] == Self.matchingIDFilter(records), "\(dataset) \(format) \(name) --jobs \(jobs)")
            }
            let stats = try box.ferry(["stats", input, "--report", "json", "--jobs", jobs])
            #expect(stats.status == 0, "\(dataset) \(format) --jobs \(jobs): \(stats.stderr)")
            let profile = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
            #expect(profile != nil, "\(dataset) \(format): \(stats.stdout)")
            outputs.append(Array(stats.stdout.utf8))
        }
        #expect(outputs[0] == outputs[2], "\(dataset) \(format): the filtered output with one job and with two")
        #expect(outputs[1] == outputs[3], "\(dataset) \(format): the statistics with one job and with two")
    }

    /// `migrate --where` filters the migrated records, as `convert --to-version 2 --where` does.
    @Test(arguments: datasets.filter { $0.version == 1 }, ["json", "jsonl"])
    func migrateFiltersTheMigratedRecords(dataset: Dataset, format: String) throws {
        let box = try Sandbox()
        let input = try Self.input(dataset, format, in: box)
        #expect(try box.ferry(["migrate", input, "--to-version", "2", "-o", "all.json", "--quiet"]).status == 0)
        let all = try Self.collections(box, "all.json")
        let migrated = try box.ferry(["migrate", input, "--to-version", "2", "-o", "m.json", "--quiet"] + Self.idFilter)
        #expect(migrated.status == 0, "\(dataset) \(format): \(migrated.stderr)")
        let converted = try box.ferry(["convert", input, "--to-version", "2", "-o", "c.json", "--quiet"] + Self.idFilter)
        #expect(converted.status == 0, "\(dataset) \(format): \(converted.stderr)")
        #expect(try box.bytes("m.json") == box.bytes("c.json"), "\(dataset) \(format)")
        let kept = try Self.collections(box, "m.json")
        for (name, records) in all {
            #expect(kept[name] ?? [] == Self.matchingIDFilter(records), "\(dataset) \(format) \(name)")
        }
    }

    @Test(arguments: datasets, formats)
    func aSampleIsAlgorithmRSeededPerCollectionInInputOrder(dataset: Dataset, format: String) throws {
        let box = try Sandbox()
        let input = try Self.input(dataset, format, in: box)
        #expect(try box.ferry(["convert", input, "--to", "json", "-o", "full.json", "--quiet"]).status == 0)
        let all = try Self.collections(box, "full.json")
        for (size, seed) in [(1, UInt64(0)), (2, UInt64(7)), (3, UInt64.max)] {
            let arguments = ["convert", input, "--sample", String(size), "--seed", String(seed), "--to", "json", "--quiet"]
            let first = try box.ferry(arguments + ["-o", "a.json"])
            #expect(first.status == 0, "\(dataset) \(format): \(first.stderr)")
            #expect(try box.ferry(arguments + ["-o", "b.json"]).status == 0)
            #expect(try box.bytes("a.json") == box.bytes("b.json"), "\(dataset) \(format): the same seed gives the same bytes")
            let sampled = try Self.collections(box, "a.json")
            for (name, records) in all {
                let picked = Self.reservoir(count: records.count, size: size, seed: Self.stableHash(name, seed: seed))
                #expect(sampled[name] ?? [] == picked.map { records[$0] }, "\(dataset) \(format) \(name) sample \(size) seed \(seed)")
            }
        }
    }

    /// Algorithm R as Docs/selection.md states it, independently of Ferry's code: the indices kept
    /// of `count` records, in input order.
    static func reservoir(count: Int, size: Int, seed: UInt64) -> [Int] {
        var generator = SplitMix(seed: seed)
        var kept: [Int] = []
        for index in 0..<count {
            if kept.count < size {
                kept.append(index)
            } else {
                let slot = Int(generator.next().multipliedFullWidth(by: UInt64(index + 1)).high)
                if slot < size { kept[slot] = index }
            }
        }
        return kept.sorted()
    }

    /// FNV-1a 64 of the UTF-8 bytes, started from the offset basis XOR `seed`, then SplitMix64's mix.
    static func stableHash(_ text: String, seed: UInt64) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        var z = hash
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `ferry head` writes what `convert --limit N` writes, in the input's format on standard
    /// output (a bundle's records as JSON).
    @Test(arguments: datasets, formats)
    func headIsConvertWithALimit(dataset: Dataset, format: String) throws {
        let box = try Sandbox()
        let input = try Self.input(dataset, format, in: box)
        let head = try box.ferry(["head", input, "-n", "1"])
        #expect(head.status == 0, "\(dataset) \(format): \(head.stderr)")
        let to = format == "tar" ? "json" : format
        let convert = try box.ferry(["convert", input, "--limit", "1", "--to", to, "--quiet"])
        #expect(head.stdout == convert.stdout, "\(dataset) \(format)")
        #expect(!head.stdout.isEmpty)
        #expect(head.stderr.isEmpty || dataset.domain == "pet-story", "\(dataset) \(format): \(head.stderr)")
        let tenByDefault = try box.ferry(["head", input])
        let ten = try box.ferry(["convert", input, "--limit", "10", "--to", to, "--quiet"])
        #expect(tenByDefault.stdout == ten.stdout, "\(dataset) \(format)")
    }

    /// A bundle on standard input is found by content, and `head` prints its records as JSON as
    /// it does for the bundle's file (tar and zip).
    @Test(arguments: ["tar", "zip"])
    func headOfABundleOnStandardInputIsHeadOfItsFile(container: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "n.json")
        #expect(try box.ferry(["convert", "n.json", "-o", "n.\(container)", "-q"]).status == 0)
        let file = try box.ferry(["head", "n.\(container)", "-n", "1"])
        let piped = try box.ferry(["head", "-", "-n", "1"], stdinFile: "n.\(container)")
        #expect(file.status == 0)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == file.stdout)
        #expect(file.stdout.hasPrefix("{"))
    }

    static let notes = """
        {"domain": "notes", "schemaVersion": 2, "wineTastingNotes": [
          {"id": "w-1", "title": "Pinot", "category": "red", "createdAt": "2024-05-01T09:30:00Z", "alcoholByVolume": 13.5,
           "look": {"tint": "ruby", "note": "clear"}, "smells": [{"label": "cherry"}],
           "tastes": [{"label": "acidity", "value": 0.7}, {"label": "body", "value": 0.4}],
           "grape": {"variety": "Pinot Noir"}, "think": "", "rating": 4, "isFavorite": true},
          {"id": "w-2", "title": "Riesling", "category": "white", "createdAt": "2024-05-02T10:00:00Z", "alcoholByVolume": 12,
           "look": {"tint": "straw", "note": ""}, "smells": [], "tastes": [{"label": "acidity", "value": 0.9}],
           "grape": {"variety": "Riesling"}, "think": "dry", "rating": 3.5, "isFavorite": false}
        ]}
        """

    /// `--select` keeps the named fields, in the record's order, by pointer or dotted name; leaving
    /// out a required field makes the output schema-free, and says so.
    @Test func selectKeepsTheNamedFields() throws {
        let box = try Sandbox()
        try box.write("notes.json", Self.notes)
        let expected = """
            {"$collection":"wineTastingNotes","title":"Pinot","look":{"tint":"ruby"},"tastes":[{"value":0.7},{"value":0.4}]}
            {"$collection":"wineTastingNotes","title":"Riesling","look":{"tint":"straw"},"tastes":[{"value":0.9}]}

            """
        for select in [["/tastes/*/value,/look/tint,title"], ["tastes.value", "look.tint", "/title"]] {
            let run = try box.ferry(["convert", "notes.json", "--to", "jsonl"] + select.flatMap { ["--select", $0] })
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == expected, "\(select)")
            #expect(run.stderrLines.first == "notes.json: note: --select leaves out required fields (/id, /category, /createdAt, /alcoholByVolume, /look, "
                + "/smells, /tastes, /grape, /think, /rating, /isFavorite, /finish, /ingredients, /isContainsIce): the output is schema-free records, "
                + "written without the notes domain header [assumption]")
        }
        let first = try box.ferry(["convert", "notes.json", "--to", "jsonl", "--select", "tastes.1.value", "--quiet"])
        #expect(first.stdout == """
            {"$collection":"wineTastingNotes","tastes":[{"value":0.7}]}
            {"$collection":"wineTastingNotes","tastes":[{"value":0.9}]}

            """)
    }

    /// Keeping every required field keeps the domain: the output validates.
    @Test func selectingEveryRequiredFieldKeepsTheDomain() throws {
        let box = try Sandbox()
        try box.write("notes.json", Self.notes)
        // The required fields of every collection of notes V2 (whiskey's finish, cocktail's ingredients and isContainsIce too).
        let required = "id,title,category,createdAt,alcoholByVolume,look,smells,tastes,grape,think,rating,isFavorite,finish,ingredients,isContainsIce"
        let run = try box.ferry(["convert", "notes.json", "--select", required, "--limit", "1", "-o", "out.json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("schema-free"))
        let validate = try box.ferry(["validate", "out.json"])
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stderr.contains("notes v2: wineTastingNotes 1"), "\(validate.stderr)")
    }

    /// Bad values are usage errors (exit 2) that say what is expected.
    @Test(arguments: [
        (["--limit", "-1"], "--limit expects a whole number from 0, not '-1'"),
        (["--skip", "x"], "--skip expects a whole number from 0, not 'x'"),
        (["--sample", "0"], "--sample expects a whole number from 1, not '0'"),
        (["--seed", "3"], "--seed 3 seeds --sample; give --sample N too"),
        (["--sample", "2", "--seed", "-1"], "--seed expects a whole number from 0 to 18446744073709551615, not '-1'"),
        (["--select", "title,"], "--select: '' is empty; give JSON Pointers (/look/tint) or dotted names (look.tint), separated by commas"),
        (["--select", "/a~2"], "--select: '/a~2' has a '~' that is neither ~0 nor ~1 (RFC 6901); give JSON Pointers (/look/tint) or dotted names (look.tint), separated by commas"),
        (["--select", "tastes.0.value"], "--select: 'tastes.0.value' names list position 0; dotted positions count from 1; give JSON Pointers (/look/tint) or dotted names (look.tint), separated by commas"),
    ])
    func badValuesAreUsageErrors(arguments: [String], message: String) throws {
        let box = try Sandbox()
        try box.write("notes.json", Self.notes)
        let run = try box.ferry(["convert", "notes.json"] + arguments)
        #expect(run.status == 2)
        #expect(run.stderrLines.first == "ferry convert: error: " + message)
        #expect(run.stdout.isEmpty)
    }

    /// A field no collection of the domain has is a usage error naming the nearest field.
    @Test func anUnknownFieldIsAUsageError() throws {
        let box = try Sandbox()
        try box.write("notes.json", Self.notes)
        let run = try box.ferry(["convert", "notes.json", "--select", "titel"])
        #expect(run.status == 2)
        #expect(run.stderrLines == [
            "notes.json: error: --select /titel: no collection of notes v2 has a field 'titel'; did you mean 'title'? [usage]",
            "notes.json: (0 records, 1 error, 0 warnings); nothing written",
        ])
    }
}
