import FerryTestSupport
import Foundation
import Testing

/// Every data format inside a bundle reads back with the domain's types: CSV cells and XML text
/// are typed by the schema as a plain CSV or XML input is. For each domain, version and data
/// format, a bundle (tar and folder) converts back to JSON byte-identical to the JSON it was made
/// from, and validates clean.
@Suite struct BundleDataFormatTests {
    /// A domain's sample and how to make its canonical JSON at a version.
    struct Dataset: CustomStringConvertible, Sendable {
        var domain: String
        var sample: String
        var version: Int
        var description: String { "\(domain) v\(version)" }

        /// True for a sample with media files (a Documents folder): its bundles are made from a
        /// bundle of it (`src.tar`), which carries the media, not from its JSON, which cannot.
        var hasMedia: Bool { !sample.hasSuffix(".json") }
        /// What the bundles are made from: `in.json`, or `src.tar` for a sample with media.
        var source: String { hasMedia ? "src.tar" : "in.json" }

        /// Writes `in.json`, the sample as Ferry writes it at `version` (and `src.tar` beside it
        /// for a sample with media, which `in.json` is made from).
        func prepare(in box: Sandbox) throws {
            try box.copySample(sample, to: "sample")
            let output = hasMedia ? "src.tar" : "in.json"
            let arguments = version == 1
                ? ["convert", "sample", "-o", output, "--quiet"]
                : ["migrate", "sample", "--to-version", "2", "-o", output, "--quiet"]
            let run = try box.ferry(arguments)
            #expect(run.status == 0, "\(run.stderr)")
            if hasMedia { #expect(try box.ferry(["convert", "src.tar", "-o", "in.json", "--quiet"]).status == 0) }
        }
    }

    static let datasets: [Dataset] = [
        Dataset(domain: "notes", sample: "notes-v1.json", version: 1),
        Dataset(domain: "notes", sample: "notes-v1.json", version: 2),
        Dataset(domain: "pet-story", sample: "pet-story-v1-documents", version: 1),
        Dataset(domain: "pet-story", sample: "pet-story-v1-documents", version: 2),
        Dataset(domain: "vocabulary", sample: "vocabulary-v1-node-firestore.json", version: 1),
        Dataset(domain: "vocabulary", sample: "vocabulary-v1-node-firestore.json", version: 2),
    ]

    static let dataFormats = ["json", "jsonl", "csv", "xml"]
    /// `-o` for the bundle: a tar archive and a bundle folder.
    static let containers = ["b.tar", "b/"]

    @Test(arguments: datasets, dataFormats)
    func bundleReadsBackAsItsInput(dataset: Dataset, dataFormat: String) throws {
        let box = try Sandbox()
        try dataset.prepare(in: box)
        let input = try box.bytes("in.json")
        for container in Self.containers {
            let write = try box.ferry(["convert", dataset.source, "--data-format", dataFormat, "-o", container, "--quiet"])
            #expect(write.status == 0, "\(dataset) \(dataFormat) \(container): \(write.stderr)")
            let validate = try box.ferry(["validate", container, "--quiet"])
            #expect(validate.status == 0, "\(dataset) \(dataFormat) \(container)")
            #expect(validate.errors == [], "\(dataset) \(dataFormat) \(container)")
            let back = try box.ferry(["convert", container, "-o", "back.json", "--quiet"])
            #expect(back.errors == [], "\(dataset) \(dataFormat) \(container)")
            #expect(try box.bytes("back.json") == input, "\(dataset) \(dataFormat) \(container)")
        }
    }

    /// A collection with no records: its CSV member is empty (no columns to name) and reads back
    /// as no records, in every data format, tar and folder, at both versions.
    @Test(arguments: [1, 2], dataFormats)
    func anEmptyCollectionReadsBack(version: Int, dataFormat: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "sample.json")
        var dataset = try JSONSerialization.jsonObject(with: Data(try box.bytes("sample.json"))) as! [String: Any]
        dataset["coffeeNotes"] = [Any]()
        try box.write("empty.json", bytes: Array(try JSONSerialization.data(withJSONObject: dataset)))
        let canonical = version == 1
            ? ["convert", "empty.json", "-o", "in.json", "--quiet"]
            : ["migrate", "empty.json", "--to-version", "2", "-o", "in.json", "--quiet"]
        #expect(try box.ferry(canonical).status == 0)
        let input = try box.bytes("in.json")
        for container in Self.containers {
            #expect(try box.ferry(["convert", "in.json", "--to", "tar", "--data-format", dataFormat, "-o", container, "--quiet"]).status == 0)
            let back = try box.ferry(["convert", container, "-o", "back.json", "--quiet"])
            #expect(back.status == 0, "\(dataFormat) \(container): \(back.stderr)")
            #expect(try box.bytes("back.json") == input, "\(dataFormat) \(container)")
        }
    }

    /// `--data-format` with an output that is not a bundle would be ignored: it is a usage error,
    /// nothing written. (With a folder output, `-o DIR/`, it asks for a bundle folder.)
    @Test(arguments: [["-o", "out.json"], ["--to", "jsonl"], ["--to", "json", "-o", "out/"]])
    func aDataFormatWithoutABundleIsAUsageError(output: [String]) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        let run = try box.ferry(["convert", "notes-v1.json", "--data-format", "csv"] + output)
        #expect(run.status == 2)
        let format = output.last == "jsonl" ? "jsonl" : "json"
        #expect(run.errors == ["ferry: error: --data-format csv names the data format inside a bundle, and the output is \(format), not a bundle: add --to tar (or -o NAME.tar) [usage]"])
        #expect(run.stdout == "")
        #expect(try box.list() == ["notes-v1.json"])
    }

    /// The cases the report named: a notes V2 bundle in CSV (numbers and Booleans were strings,
    /// empty lists missing) and a pet-story V2 bundle in XML (`location/latitude` a string).
    @Test(arguments: ["csv", "xml"])
    func textualBundlesValidate(dataFormat: String) throws {
        let box = try Sandbox()
        for dataset in Self.datasets where dataset.version == 2 && dataset.domain != "vocabulary" {
            try dataset.prepare(in: box)
            #expect(try box.ferry(["convert", dataset.source, "--data-format", dataFormat, "-o", "b.tar", "--quiet"]).status == 0)
            let validate = try box.ferry(["validate", "b.tar"])
            #expect(validate.errors == [], "\(dataset) \(dataFormat)")
            #expect(validate.status == 0, "\(dataset) \(dataFormat)")
            for name in ["b.tar", "sample", "src.tar", "in.json"] where box.exists(name) { try box.remove(name) }
        }
    }

    /// `migrate` takes `--data-format` as `convert` does: a V1 dataset migrated straight into a
    /// bundle of each data format holds the V2 collections in that format and reads back as the
    /// dataset `convert --to-version 2` gives.
    @Test(arguments: dataFormats)
    func migrateWritesABundleInEachDataFormat(dataFormat: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["convert", "notes-v1.json", "--to-version", "2", "-o", "v2.json", "--quiet"]).status == 0)
        let run = try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "--data-format", dataFormat, "-o", "b.tar", "--quiet"])
        #expect(run.status == 0, "\(dataFormat): \(run.stderr)")
        #expect(try box.ferry(["convert", "b.tar", "-o", "back.json", "--quiet"]).status == 0)
        #expect(try box.bytes("back.json") == (try box.bytes("v2.json")), "\(dataFormat)")
    }
}
