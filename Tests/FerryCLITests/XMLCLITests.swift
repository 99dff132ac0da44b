import FerryTestSupport
import FormatXML
import Foundation
import Testing

/// Issue 4, "Done when": JSON -> XML -> JSON for every sample, V1 and V2; the published XSD
/// (in-process, libxml2) and JSON Schema (python3 jsonschema) accept what `ferry convert`
/// writes; XXE payloads never read the file they point at.
@Suite struct XMLCLITests {
    /// Every valid sample data file, with its domain.
    static let samples: [(path: String, domain: String)] = [
        ("notes-v1.json", "notes"),
        ("notes-v1-numeric-dates.json", "notes"),
        ("pet-story-v1.json", "pet-story"),
        ("pet-story-v1-documents/pet-story.json", "pet-story"),
        ("vocabulary-v1-node-firestore.json", "vocabulary"),
        ("vocabulary-v1-backup-restore.json", "vocabulary"),
        ("pipelines/backups/notes-2024-05.json", "notes"),
        ("pipelines/backups/pets-2024-02.json", "pet-story"),
        ("pipelines/backups/vocabulary-2024-01.json", "vocabulary"),
    ]

    /// Converts `sample` to canonical V1 JSON and to V2 JSON, each to XML and back; returns the
    /// sandbox holding `v1.json`, `v1.xml`, `v2.json`, `v2.xml`.
    private func roundTrip(_ sample: String) throws -> Sandbox {
        let box = try Sandbox()
        try box.copySample(sample, to: "input.json")
        #expect(try box.ferry(["convert", "input.json", "--to", "json", "-o", "v1.json"]).status == 0)
        #expect(try box.ferry(["migrate", "input.json", "--to-version", "2", "-o", "v2.json"]).status == 0)
        for version in ["v1", "v2"] {
            let toXML = try box.ferry(["convert", "\(version).json", "-o", "\(version).xml"])
            #expect(toXML.status == 0, "\(sample) \(version) -> xml: \(toXML.stderr)")
            let back = try box.ferry(["convert", "\(version).xml", "--to", "json", "-o", "\(version)-back.json"])
            #expect(back.status == 0, "\(sample) \(version) xml -> json: \(back.stderr)")
            #expect(try box.bytes("\(version)-back.json") == (try box.bytes("\(version).json")), "\(sample) \(version)")
        }
        return box
    }

    @Test(arguments: samples.map(\.path))
    func jsonToXMLToJSONIsByteIdentical(sample: String) throws {
        _ = try roundTrip(sample)
    }

    @Test func notesV2XMLGolden() throws {
        let box = try roundTrip("notes-v1.json")
        expectGolden(try box.text("v2.xml"), "notes-v2.xml")
    }

    /// Schema-free data of our own: keys that are not XML names, an `item` key, empty lists and
    /// objects, null list items, markup characters, CR LF, Korean text.
    @Test func generatedSchemaFreeDataRoundTrips() throws {
        let box = try Sandbox()
        try box.write("free.json", #"""
            {"things": [{"1st": "a", "item": ["x", "", null], "ok": {"x y": "", "z": [], "w": {}}, "t": "<&>\"' \r\n end", "k": "한국어"}],
             "other items": [{"id": "2"}]}
            """#)
        #expect(try box.ferry(["convert", "free.json", "-o", "canonical.json"]).status == 0)
        let toXML = try box.ferry(["convert", "canonical.json", "-o", "free.xml"])
        #expect(toXML.status == 0)
        #expect(try box.text("free.xml") == """
            <?xml version="1.0" encoding="UTF-8"?>
            <dataset>
              <things>
                <record>
                  <field name="1st">a</field>
                  <field name="item">
                    <item>x</item>
                    <item/>
                    <item type="null"/>
                  </field>
                  <ok>
                    <field name="x y"/>
                    <z type="list"/>
                    <w type="object"/>
                  </ok>
                  <t>&lt;&amp;&gt;"' &#13;
             end</t>
                  <k>한국어</k>
                </record>
              </things>
              <field name="other items">
                <record>
                  <id>2</id>
                </record>
              </field>
            </dataset>

            """)
        #expect(try box.ferry(["convert", "free.xml", "-o", "back.json"]).status == 0)
        #expect(try box.bytes("back.json") == (try box.bytes("canonical.json")))
    }

    @Test(arguments: samples)
    func publishedXSDValidatesConvertedXML(sample: String, domain: String) throws {
        let box = try roundTrip(sample)
        for version in [1, 2] {
            let schema = try box.ferry(["schema", domain, "--schema-version", String(version), "--as", "xsd"])
            #expect(schema.status == 0)
            let problems = XMLSchemaValidation.validate(
                document: try box.bytes("v\(version).xml"), schema: Array(schema.stdout.utf8), fileName: "v\(version).xml")
            #expect(problems.map(\.description) == [], "\(sample) v\(version)")
        }
    }

    /// The validator itself is not a rubber stamp: the notes V2 XSD refuses a rating of 7, an
    /// unknown element and a missing title, at their lines.
    @Test func publishedXSDRefusesInvalidXML() throws {
        let box = try roundTrip("notes-v1.json")
        let schema = try box.ferry(["schema", "notes", "--schema-version", "2", "--as", "xsd"]).stdout
        var xml = try box.text("v2.xml")
        let rating = try #require(xml.range(of: "<rating>4.5</rating>"))
        xml.replaceSubrange(rating, with: "<rating>7</rating>")
        let title = try #require(xml.range(of: "<title>Yamazaki 12</title>"))
        xml.replaceSubrange(title, with: "<titel>Yamazaki 12</titel>")
        let xmlLines = xml.split(separator: "\n", omittingEmptySubsequences: false)
        let ratingLine = (xmlLines.firstIndex { $0.contains("<rating>7</rating>") } ?? -1) + 1
        let titleLine = (xmlLines.firstIndex { $0.contains("<titel>") } ?? -1) + 1
        #expect(ratingLine == 37 && titleLine == 182)
        let problems = XMLSchemaValidation.validate(document: Array(xml.utf8), schema: Array(schema.utf8), fileName: "bad.xml")
        #expect(problems.map(\.description) == [
            "bad.xml:37: error: Element 'rating': [facet 'maxInclusive'] The value '7' is greater than the maximum value allowed ('5'). [invalid-value]",
            "bad.xml:182: error: Element 'titel': This element is not expected. Expected is ( title ). [invalid-value]",
        ])
    }

    @Test func publishedJSONSchemaValidatesConvertedJSON() throws {
        guard let python = toolOnPath("python3") else {
            print("skipped: python3 absent")
            return
        }
        let box = try Sandbox()
        if try runTool(python, ["-c", "import jsonschema"], in: box.url).status != 0 {
            print("skipped: python3 module jsonschema absent")
            return
        }
        var checks: [String] = []
        for (index, sample) in Self.samples.enumerated() {
            try box.copySample(sample.path, to: "in\(index).json")
            #expect(try box.ferry(["convert", "in\(index).json", "--to", "json", "-o", "s\(index)-v1.json"]).status == 0)
            #expect(try box.ferry(["migrate", "in\(index).json", "--to-version", "2", "-o", "s\(index)-v2.json"]).status == 0)
            checks.append("s\(index)-v1.json:\(sample.domain)-1")
            checks.append("s\(index)-v2.json:\(sample.domain)-2")
        }
        for domain in ["notes", "pet-story", "vocabulary"] {
            for version in [1, 2] {
                let schema = try box.ferry(["schema", domain, "--schema-version", String(version), "--as", "json-schema"])
                #expect(schema.status == 0)
                try box.write("\(domain)-\(version).schema.json", schema.stdout)
            }
        }
        // A document that breaks the V2 notes schema, to show the check can fail.
        try box.write("bad.json", #"{"domain": "notes", "schemaVersion": 2, "wineTastingNotes": [{"id": "x", "rating": 7}]}"#)
        checks.append("bad.json:notes-2")
        let script = """
            import json, sys, jsonschema
            for check in sys.argv[1:]:
                path, schema = check.rsplit(":", 1)
                validator = jsonschema.Draft202012Validator(json.load(open(schema + ".schema.json")))
                errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.absolute_path))
                print(path, "ok" if not errors else "invalid", len(errors) > 0 and "/".join(map(str, errors[0].absolute_path)) or "")
            """
        let result = try runTool(python, ["-c", script] + checks, in: box.url)
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == checks.count)
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix(" ok ") }, "\(result.output)")
        #expect(lines.last?.hasPrefix("bad.json invalid wineTastingNotes/0") == true, "\(result.output)")
    }

    /// XXE payloads pointing at a canary file in the sandbox: each is refused or converted
    /// without the canary's text showing up anywhere.
    @Test func xxePayloadsNeverReadTheCanary() throws {
        let box = try Sandbox()
        let canaryText = "CANARY-5e1b7c0d"
        try box.write("canary.txt", canaryText + "\n")
        let canary = box.url.appendingPathComponent("canary.txt").absoluteString
        let payloads: [(name: String, text: String, expected: [String], status: Int32)] = [
            ("general.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE dataset [
                  <!ENTITY xxe SYSTEM "\(canary)">
                ]>
                <dataset domain="notes" schemaVersion="2">
                  <wineTastingNotes><WineTastingNote><id>&xxe;</id></WineTastingNote></wineTastingNotes>
                </dataset>
                """,
             ["general.xml:3:3: error: the document declares an entity; Ferry refuses entity declarations (no expansion, no external resources) [unsafe-xml]"], 3),
            ("parameter.xml", """
                <?xml version="1.0"?>
                <!DOCTYPE dataset [<!ENTITY % p SYSTEM "\(canary)"> %p;]>
                <dataset><records><record><a>x</a></record></records></dataset>
                """,
             ["parameter.xml:2:20: error: the document declares an entity; Ferry refuses entity declarations (no expansion, no external resources) [unsafe-xml]"], 3),
            ("external-dtd.xml", """
                <?xml version="1.0"?>
                <!DOCTYPE dataset SYSTEM "\(canary)">
                <dataset><records><record><a>&xxe;</a></record></records></dataset>
                """,
             ["external-dtd.xml:2:1: error: the document names an external DTD (file://$TMP/canary.txt); Ferry never loads external resources [unsafe-xml]"], 3),
            ("xinclude.xml", """
                <?xml version="1.0"?>
                <dataset xmlns:xi="http://www.w3.org/2001/XInclude"><records><record><a><xi:include href="\(canary)" parse="text"/></a></record></records></dataset>
                """, [], 0),
        ]
        for payload in payloads {
            try box.write(payload.name, payload.text)
            let run = try box.ferry(["convert", payload.name, "--to", "json"])
            #expect(run.status == payload.status, "\(payload.name)")
            #expect(run.errors == payload.expected, "\(payload.name)")
            #expect(!run.stdout.contains(canaryText) && !run.stderr.contains(canaryText), "\(payload.name)")
            let validate = try box.ferry(["validate", payload.name])
            #expect(!validate.stdout.contains(canaryText) && !validate.stderr.contains(canaryText), "\(payload.name)")
        }
        #expect(try box.list() == ["canary.txt", "external-dtd.xml", "general.xml", "parameter.xml", "xinclude.xml"])
    }

    /// The public XXE payloads of the corpus: each refused with `unsafe-xml`, nothing of the files
    /// they name (`/etc/passwd`) in the output.
    @Test func corpusXXEPayloadsAreRefused() throws {
        guard let corpus = Fixtures.corpus("xxe-payloads") else {
            print("skipped: corpus xxe-payloads absent")
            return
        }
        let box = try Sandbox()
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".xml") }.sorted()
        #expect(names.count >= 4)
        for name in names {
            let run = try box.ferry(["convert", corpus.appendingPathComponent(name).path, "--to", "json"])
            #expect(run.status == 3, "\(name)")
            // Refused before anything is expanded: an entity declaration (unsafe-xml), or a DTD
            // libxml2 finds malformed before it reaches the declaration (`<!ELEMENT data (#ANY)>`).
            #expect(run.errors.count == 1 && (run.errors[0].hasSuffix("[unsafe-xml]") || run.errors[0].hasSuffix("[malformed-xml]")),
                    "\(name): \(run.errors)")
            #expect(run.stdout == "", "\(name)")
            #expect(!run.stderr.contains("root:x:0:0"), "\(name)")
        }
    }
}
