import FerryTestSupport
import Foundation
import Testing

/// Small things the last new-user trial met: the note that --lenient would write the valid
/// records for every format, a folder of several datasets named as what was given, `-j=2`, the
/// `--jobs` help, one name for a folder given with a trailing slash, an XML list of white space
/// only, and one exit status for a tar that is not a bundle.
@Suite struct SmallFindingsCLITests {
    /// A malformed input stops the write in every format, and the note says what --lenient does.
    @Test(arguments: ["jsonl", "csv", "json", "xml"])
    func aMalformedInputSaysNothingWasWritten(_ format: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "in.json")
        let only = format == "csv" ? ["--collection", "wineNotes"] : []
        #expect(try box.ferry(["convert", "in.json", "--to", format, "-o", "whole.\(format)"] + only).status == 0)
        let bytes = try box.bytes("whole.\(format)")
        try box.write("cut.\(format)", bytes: Array(bytes.prefix(bytes.count - 30)))
        for jobs in ["1", "2"] {
            let run = try box.ferry(["convert", "cut.\(format)", "--to", "jsonl", "-o", "out.jsonl", "--jobs", jobs])
            #expect(run.status == 3, "\(format)")
            #expect(run.errors.count == 1, "\(format): \(run.stderr)")
            #expect(run.diagnostics.last == "cut.\(format): note: nothing was written because of the errors above; --lenient writes the "
                + "valid records [assumption]", "\(format): \(run.stderr)")
            #expect(!box.exists("out.jsonl"))
        }
    }

    @Test func oneFolderOfSeveralDatasetsIsNamedInTheUsageError() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "docs/a.json")
        try box.copySample("pet-story-v1.json", to: "docs/b.json")
        try box.copySample("vocabulary-v1-backup-restore.json", to: "docs/c.json")
        let one = try box.ferry(["convert", "docs", "-o", "out.jsonl"])
        #expect(one.stderrLines == [#"ferry convert: error: "docs" holds 3 datasets ("docs/a.json", "docs/b.json", ...), which need a folder "#
            + "output: -o DIR/ [usage]"])
        #expect(one.status == 2)
        let two = try box.ferry(["convert", "docs/a.json", "docs/b.json", "-o", "out.jsonl"])
        #expect(two.stderrLines == ["ferry convert: error: several inputs need a folder output: -o DIR/ [usage]"])
        // `head` has no -o: it asks for one of the datasets.
        let head = try box.ferry(["head", "docs"])
        #expect(head.stderrLines == [#"ferry head: error: "docs" holds 3 datasets ("docs/a.json", "docs/b.json", ...), and this "#
            + "command prints one: name one of them [usage]"])
        #expect(head.status == 2)
        #expect(head.stdout.isEmpty)
    }

    /// `--report-file` in a folder that does not exist yet: the folder is made, as `-o` makes a
    /// file output's, and the report is the one standard output gets.
    @Test(arguments: ["validate", "convert"])
    func aReportFileGetsItsFolderMade(command: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "in.json")
        let extra = command == "convert" ? ["-o", "out/x.jsonl"] : []
        let printed = try box.ferry([command, "in.json", "--report", "json"] + extra)
        let filed = try box.ferry([command, "in.json", "--report", "json", "--report-file", "reports/sub/r.json"] + extra)
        #expect(filed.status == 0, "\(filed.stderr)")
        #expect(try box.text("reports/sub/r.json") == printed.stdout)
        #expect(filed.stdout.isEmpty)
    }

    @Test func aShortOptionTakesItsValueAfterAnEqualsSign() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "in.json")
        let spaced = try box.ferry(["convert", "in.json", "--to", "jsonl", "-j", "2", "-o", "-"])
        #expect(spaced.status == 0)
        for form in [["-j=2"], ["-j2"], ["--jobs=2"]] {
            let run = try box.ferry(["convert", "in.json", "--to", "jsonl"] + form + ["-o", "-"])
            #expect(run.stdout == spaced.stdout && run.stderr == spaced.stderr, "\(form)")
        }
        let bad = try box.ferry(["convert", "in.json", "-j=x"])
        #expect(bad.stderrLines.first == "ferry convert: error: -j expects a whole number from 1 to 256, not 'x'")
        #expect(bad.status == 2)
    }

    @Test func theJobsHelpNamesCSVFolders() throws {
        let help = try Sandbox().ferry(["convert", "--help"]).stdout
        #expect(help.contains("--jobs, -j N               Threads that process one JSON Lines, CSV, JSON document or XML input, CSV folder or "
            + "bundle (1 to 256, default 1); output is the same."), "\(help)")
    }

    @Test(arguments: ["docs", "docs/", "docs//"])
    func aFolderHasOneNameInEveryLine(_ given: String) throws {
        let box = try Sandbox()
        try box.copySample("pet-story-v1-documents", to: "docs")
        try box.write("docs/notes.json", "{}\n")
        let run = try box.ferry(["validate", given])
        #expect(run.status == 0)
        #expect(run.stderrLines == [
            "docs: note: no manifest.json: read as the app's Documents folder; pet-story.json is the data and media paths are "
                + "relative to the folder [assumption]",
            "docs: note: not part of the dataset, ignored: 'notes.json' [assumption]",
            "docs: pet-story v1: profiles 1, members 2, stories 2 (5 records, 0 errors, 0 warnings); valid",
        ])
    }

    /// `<smells>` and `</smells>` on two lines hold an empty list, as `<smells/>` does, in every
    /// domain's lists of text (notes' smells, a story's mediaContentIds).
    @Test(arguments: [("notes-v1.json", "smells"), ("pet-story-v1.json", "mediaContentIds")])
    func anXMLListOfWhiteSpaceOnlyIsEmpty(_ sample: String, _ list: String) throws {
        let box = try Sandbox()
        try box.copySample(sample, to: "in.json")
        #expect(try box.ferry(["convert", "in.json", "--to", "xml", "-o", "in.xml"]).status == 0)
        let text = try box.text("in.xml")
        let open = try #require(text.range(of: "<\(list)>"))
        let close = try #require(text.range(of: "</\(list)>", range: open.upperBound..<text.endIndex))
        for blank in ["\n      ", "  ", "\r\n\t"] {
            try box.write("blank.xml", text.replacingCharacters(in: open.upperBound..<close.lowerBound, with: blank))
            try box.write("empty.xml", text.replacingCharacters(in: open.lowerBound..<close.upperBound, with: "<\(list)/>"))
            let blankRun = try box.ferry(["convert", "blank.xml", "--to", "jsonl", "-o", "-"])
            let emptyRun = try box.ferry(["convert", "empty.xml", "--to", "jsonl", "-o", "-"])
            #expect(blankRun.status == 0, "\(sample): \(blankRun.stderr)")
            #expect(blankRun.stdout == emptyRun.stdout, "\(sample)")
        }
    }

    /// DESIGN.md: exit 3 for an input that cannot be read as what it is; a tar with no manifest
    /// is no bundle, for validate as for inspect.
    @Test func aTarThatIsNotABundleExitsThreeEverywhere() throws {
        let box = try Sandbox()
        try box.write("files/hello.txt", "hello\n")
        #expect(try runTool("/usr/bin/tar", ["-cf", "nb.tar", "-C", "files", "hello.txt"], in: box.url).status == 0)
        for command in ["validate", "inspect"] {
            let run = try box.ferry([command, "nb.tar"])
            #expect(run.errors == ["nb.tar: error: no manifest.json: this is not a Ferry bundle [missing-manifest]"], "\(command)")
            #expect(run.status == 3, "\(command)")
        }
    }

    /// A collection of another version of the domain says which: the version is most likely
    /// wrong (V1 notes read as V2, V2 notes as V1).
    @Test(arguments: [("notes-v1.json", "2", "notes", "wineNotes", "1"), ("notes-v1.json", "1", "notes", "wineTastingNotes", "2")])
    func aCollectionOfAnotherVersionSaysWhich(sample: String, version: String, domain: String, collection: String, its: String) throws {
        let box = try Sandbox()
        try box.copySample(sample, to: "in.json")
        var input = "in.json"
        if version == "1" {
            // The V2 form of the notes, read as V1.
            #expect(try box.ferry(["migrate", "in.json", "--to-version", "2", "-o", "v2.jsonl", "-q"]).status == 0)
            input = "v2.jsonl"
        }
        let run = try box.ferry(["validate", input, "--schema-version", version])
        #expect(run.status == 1)
        let line = run.stderrLines.first { $0.contains("unknown collection \(collection) ") }
        #expect(line?.contains("; its records are skipped; \(collection) is a collection of \(domain) v\(its): is the input at version \(its)? ") == true,
                "\(run.stderr)")
    }

    /// A JSON Lines line that is not an object is an error of its own, each time; a record
    /// without `$collection` is named as such, once.
    @Test(arguments: ["1", "2"])
    func aLineThatIsNotARecordSaysSo(jobs: String) throws {
        let box = try Sandbox()
        try box.write("in.jsonl", """
            {"domain": "pet-story", "schemaVersion": 2}
            42
            ["a"]
            {"id":"x"}
            {"id":"y"}

            """)
        try box.write("other.jsonl", """
            {"domain": "pet-story", "schemaVersion": 2}
            {"id":"c","$collection":7}

            """)
        #expect(try box.ferry(["validate", "other.jsonl", "--jobs", jobs]).stderrLines.first
            == #"other.jsonl:2:1: error: /0: unknown collection (none: its "$collection" is not a string) for domain pet-story v2 "#
                + #"(its collections: profiles, members, stories); its records are skipped (id "c") [invalid-value]"#)
        let run = try box.ferry(["validate", "in.jsonl", "--jobs", jobs])
        #expect(run.status == 1)
        #expect(run.stderrLines == [
            "in.jsonl:2:1: error: /0: record: expected an object, found 42 [type-error]",
            "in.jsonl:3:1: error: /1: record: expected an object, found a list [type-error]",
            #"in.jsonl:4:1: error: /2: unknown collection (none: the record has no "$collection") for domain pet-story v2 "#
                + #"(its collections: profiles, members, stories); its records are skipped (id "x") [invalid-value]"#,
            "in.jsonl: pet-story v2: profiles 0, members 0, stories 0 (0 of 4 records valid, 3 errors, 0 warnings); invalid",
        ])
    }
}
