import FerryTestSupport
import Foundation
import Testing

/// The output plan (DESIGN.md "Safety"): before any input is read, every file a run would write
/// is resolved and checked against every input and every other output. A clash is exit 2 naming
/// both sides, and nothing is written: the sandbox holds exactly what it held before.
@Suite struct OutputPlanCLITests {
    /// One kind of output, with an input of its own kind so that writing beside the input clashes.
    struct Kind: Sendable, CustomTestStringConvertible {
        var name: String
        /// The input's file name, made from notes-v1.json by `make`.
        var input: String
        /// The arguments of `ferry convert notes-v1.json` that make the input.
        var make: [String]
        /// What `-o` is, given a folder form (`.`, `d/`, ...): the folder, or a file in it.
        var output: @Sendable (String) -> String
        /// The error text, given the `-o` value, the folder's base (no final `/`) and the input.
        var message: @Sendable (_ output: String, _ base: String, _ input: String) -> String
        var testDescription: String { name }

        static func file(_ name: String, ext: String, make: [String]) -> Kind {
            Kind(name: name, input: "n.\(ext)", make: make, output: { $0 }) { _, base, input in
                "the output '\(base)/n.\(ext)' is the input '\(input)'; inputs are never modified"
            }
        }

        static let all: [Kind] = [
            .file("JSON", ext: "json", make: ["-o", "n.json"]),
            .file("JSON Lines", ext: "jsonl", make: ["-o", "n.jsonl"]),
            .file("XML", ext: "xml", make: ["-o", "n.xml"]),
            Kind(name: "CSV folder", input: "wineNotes.csv", make: ["--to", "csv", "-o", "csv/"], output: { $0 }) { output, _, input in
                "the output folder '\(output)' gets one <collection>.csv file per collection, and the input '\(input)' is such a file there; inputs are never modified"
            },
            Kind(name: "tar bundle", input: "n.tar", make: ["-o", "n.tar"], output: { OutputPlanCLITests.base(of: $0) + "/n.tar" }) { output, _, input in
                "the output '\(output)' is the input '\(input)'; inputs are never modified"
            },
            Kind(name: "folder bundle", input: "n.tar", make: ["-o", "n.tar"], output: { $0 }) { output, _, input in
                "the output folder '\(output)' would be replaced whole, and it holds the input '\(input)'; inputs are never modified"
            },
        ]
    }

    /// Where the input lies and how `-o` names that folder: plainly, with `./`, through `..`, and
    /// through a symlink to it.
    static let placements: [(folder: String, output: String)] = [
        (".", "."), (".", "./"), (".", "sub/.."), (".", "here/"),
        ("d", "d"), ("d", "d/"), ("d", "sub/../d/"), ("d", "link/"),
    ]

    static func base(of folder: String) -> String {
        folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    }

    static let commands: [[String]] = [["convert"], ["migrate", "--to-version", "2"]]

    /// A sandbox holding the kind's input in `folder`, a folder `sub`, and the symlinks `here`
    /// (to the sandbox) and `link` (to `d`).
    static func sandbox(_ kind: Kind, in folder: String) throws -> (box: Sandbox, input: String) {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        let made = try box.ferry(["convert", "notes-v1.json", "-q"] + kind.make)
        #expect(made.status == 0, "\(made.stderr)")
        let source = kind.name == "CSV folder" ? "csv/" + kind.input : kind.input
        try FileManager.default.createDirectory(at: box.url.appendingPathComponent("d"), withIntermediateDirectories: true)
        let input = folder == "." ? kind.input : folder + "/" + kind.input
        if folder != "." {
            try FileManager.default.createDirectory(at: box.url.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        if source != input { try FileManager.default.moveItem(at: box.url.appendingPathComponent(source), to: box.url.appendingPathComponent(input)) }
        if kind.name == "CSV folder" { try box.remove("csv") }
        try box.remove("notes-v1.json")
        try FileManager.default.createDirectory(at: box.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: box.url.appendingPathComponent("here").path, withDestinationPath: box.path)
        try FileManager.default.createSymbolicLink(atPath: box.url.appendingPathComponent("link").path, withDestinationPath: "d")
        return (box, input)
    }

    /// Every file and folder of the sandbox with its bytes, to show a refused run changed nothing.
    static func snapshot(_ box: Sandbox) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for name in try box.files(under: ".") { result[name] = try box.bytes(name) }
        for name in try box.list() + ((try? box.list("d")) ?? []).map({ "d/" + $0 }) { result[name, default: []] += [] }
        return result
    }

    @Test(arguments: commands, Kind.all)
    func anOutputOverAnInputIsRefusedBeforeAnythingIsWritten(command: [String], kind: Kind) throws {
        for (folder, form) in Self.placements {
            let (box, input) = try Self.sandbox(kind, in: folder)
            let before = try Self.snapshot(box)
            let output = kind.output(form)
            let run = try box.ferry(command + [input, "-o", output])
            #expect(run.status == 2, "\(kind.name) -o \(output): \(run.stderr)")
            #expect(run.errors == ["ferry \(command[0]): error: \(kind.message(output, Self.base(of: form), input)) [usage]"])
            #expect(try Self.snapshot(box) == before, "\(kind.name) -o \(output) changed the sandbox")
        }
    }

    /// The two commands of the report, in every domain: `-o ./` and `-o .` beside the input.
    @Test(arguments: commands, ["notes-v1.json", "pet-story-v1.json", "vocabulary-v1-backup-restore.json", "vocabulary-v1-node-firestore.json"])
    func writingBesideTheInputIsRefusedInEveryDomain(command: [String], sample: String) throws {
        let box = try Sandbox()
        try box.copySample(sample, to: "n.json")
        #expect(try box.ferry(["convert", "n.json", "--to", "jsonl", "-o", "s.jsonl", "-q"]).status == 0)
        for (input, output, filter) in [("n.json", "./", [String]()), ("s.jsonl", ".", ["--where", "rating >= 5"])] {
            let before = try Self.snapshot(box)
            let run = try box.ferry(command + [input, "-o", output] + (command == ["convert"] && sample == "notes-v1.json" ? filter : []))
            #expect(run.status == 2)
            #expect(run.errors == ["ferry \(command[0]): error: the output './\(input)' is the input '\(input)'; inputs are never modified [usage]"])
            #expect(try Self.snapshot(box) == before)
        }
    }

    /// A hard link is the file it links to: an output that is a hard link of an input is refused,
    /// under any name.
    @Test(arguments: commands, Kind.all.filter { ["JSON", "JSON Lines", "XML", "tar bundle"].contains($0.name) })
    func anOutputThatIsAHardLinkOfAnInputIsRefused(command: [String], kind: Kind) throws {
        let (box, input) = try Self.sandbox(kind, in: ".")
        let ext = (kind.input as NSString).pathExtension
        try FileManager.default.createDirectory(at: box.url.appendingPathComponent("out"), withIntermediateDirectories: true)
        try FileManager.default.linkItem(at: box.url.appendingPathComponent(input), to: box.url.appendingPathComponent("out/n.\(ext)"))
        try FileManager.default.linkItem(at: box.url.appendingPathComponent(input), to: box.url.appendingPathComponent("out/other.\(ext)"))
        // A folder output of a tar input is a bundle folder, not out/n.tar: the tar is named.
        for output in [ext == "tar" ? "out/n.tar" : "out/", "out/other.\(ext)"] {
            let before = try Self.snapshot(box)
            let run = try box.ferry(command + [input, "-o", output])
            let shown = output == "out/" ? "out/n.\(ext)" : output
            #expect(run.status == 2)
            #expect(run.errors == ["ferry \(command[0]): error: the output '\(shown)' is the input '\(input)' (a hard link to it); inputs are never modified [usage]"])
            #expect(try Self.snapshot(box) == before)
        }
    }

    /// Several inputs of one name into one folder: one output would overwrite the other. The
    /// plan refuses, naming both inputs, and makes no folder.
    @Test(arguments: commands, Kind.all.filter { $0.name != "folder bundle" })
    func inputsOfOneNameIntoOneFolderAreRefused(command: [String], kind: Kind) throws {
        let (box, first) = try Self.sandbox(kind, in: "d")
        try FileManager.default.createDirectory(at: box.url.appendingPathComponent("e"), withIntermediateDirectories: true)
        let second = "e/" + kind.input
        try FileManager.default.copyItem(at: box.url.appendingPathComponent(first), to: box.url.appendingPathComponent(second))
        let before = try Self.snapshot(box)
        let run = try box.ferry(command + [first, second, "-o", "out/"])
        let stem = String(kind.input.prefix { $0 != "." })
        let output = switch kind.name {
        case "CSV folder": "out/\(stem)/"
        case "tar bundle": "out/\(stem).tar"
        default: "out/" + kind.input
        }
        #expect(run.status == 2)
        #expect(run.errors == ["ferry \(command[0]): error: the output '\(output)' would be written from both '\(first)' and '\(second)'; \(Self.oneNameHint) [usage]"])
        #expect(try Self.snapshot(box) == before)
        #expect(!box.exists("out"))
    }

    /// The same two inputs in a folder of datasets given as the input: the folder output mirrors
    /// the tree (`out/d/...`, `out/e/...`), so neither overwrites the other.
    @Test(arguments: commands, Kind.all.filter { $0.name != "folder bundle" && $0.name != "CSV folder" })
    func inputsOfOneNameInAFolderOfDatasetsAreMirrored(command: [String], kind: Kind) throws {
        let (box, first) = try Self.sandbox(kind, in: "all/d")
        try FileManager.default.createDirectory(at: box.url.appendingPathComponent("all/e"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: box.url.appendingPathComponent(first),
                                         to: box.url.appendingPathComponent("all/e/" + kind.input))
        let run = try box.ferry(command + ["all", "-o", "out/", "-q"])
        let stem = String(kind.input.prefix { $0 != "." })
        let output = kind.name == "tar bundle" ? "\(stem).tar" : kind.input
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(try box.files(under: "out") == ["d/" + output, "e/" + output])
    }

    static let oneNameHint = "inputs of one name cannot share a folder output; convert them to different folders, or convert their common folder (a folder of datasets is mirrored)"

    /// A bundle folder output replaces its folder whole: over a folder of the user's own files it
    /// is refused before anything is read, and the files stay; over an earlier bundle it goes on.
    @Test(arguments: [
        ["convert", "notes-v1.json", "--to", "tar", "-o", "mine/"],
        ["migrate", "pet-story-v1-documents", "--to-version", "2", "-o", "mine/"],
    ])
    func aBundleFolderOverTheUsersFilesIsRefused(command: [String]) throws {
        let box = try Sandbox()
        try box.copySample(command[1])
        try box.write("mine/thesis.txt", "precious\n")
        try box.write("mine/photos/p.jpg", "x")
        let run = try box.ferry(command)
        #expect(run.status == 2)
        #expect(run.errors == ["ferry \(command[0]): error: the output folder 'mine/' holds files that are not a Ferry bundle ('photos', 'thesis.txt'); a bundle folder output replaces its folder whole: give a new or empty folder, or an earlier bundle [usage]"])
        #expect(try box.files(under: "mine") == ["photos/p.jpg", "thesis.txt"])
        try box.remove("mine")
        #expect(try box.ferry(command + ["--quiet"]).status == 0)
        #expect(try box.ferry(command + ["--quiet"]).status == 0, "an earlier bundle is replaced")
        #expect(box.exists("mine/manifest.json"))
        // Files added to the earlier bundle, beside it or in its data folder, are not its own.
        try box.write("mine/NOTES.txt", "mine\n")
        try box.write("mine/data/extra/a.txt", "mine too\n")
        let added = try box.ferry(command)
        #expect(added.status == 2)
        #expect(added.errors == ["ferry \(command[0]): error: the output folder 'mine/' is an earlier bundle that also holds files that are not part of it ('NOTES.txt', 'data/extra/a.txt'); a bundle folder output replaces its folder whole: move them out, or give a new or empty folder [usage]"])
        #expect(try box.text("mine/NOTES.txt") == "mine\n")
        try box.remove("mine/NOTES.txt")
        try box.remove("mine/data/extra")
        #expect(try box.ferry(command + ["--quiet"]).status == 0, "the earlier bundle alone is replaced")
    }

    /// Inputs of one stem and different formats, converted to one format, meet in one file too.
    @Test(arguments: commands)
    func inputsOfOneStemAndTwoFormatsAreRefused(command: [String]) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "x.json")
        #expect(try box.ferry(["convert", "x.json", "-o", "x.jsonl", "-q"]).status == 0)
        let run = try box.ferry(command + ["x.json", "x.jsonl", "--to", "json", "-o", "out/"])
        #expect(run.status == 2)
        // Mirroring their common folder would not keep them apart either.
        #expect(run.errors == ["ferry \(command[0]): error: the output 'out/x.json' would be written from both 'x.json' and 'x.jsonl'; they differ only in their extensions, which outputs do not keep; rename one of them [usage]"])
        #expect(try box.list() == ["x.json", "x.jsonl"])
    }

    /// A folder input's files are inputs too: a folder bundle written over the folder (a CSV
    /// folder, an app Documents folder) is refused.
    @Test(arguments: commands, ["csv/", "docs"])
    func aFolderInputsFilesAreInputs(command: [String], folder: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        if folder == "docs" {
            try box.copySample("pet-story-v1-documents", to: "docs")
        } else {
            #expect(try box.ferry(["convert", "notes-v1.json", "--to", "csv", "-o", "csv/", "-q"]).status == 0)
        }
        let before = try Self.snapshot(box)
        let run = try box.ferry(command + [folder, "--to", "tar", "-o", folder])
        let first = folder == "docs" ? "docs/MemberImages/m1.JPG" : "csv/cocktailNotes.csv"
        #expect(run.status == 2)
        #expect(run.errors == ["ferry \(command[0]): error: the output folder '\(folder)' would be replaced whole, and it holds the input '\(first)'; inputs are never modified [usage]"])
        #expect(try Self.snapshot(box) == before)
    }

    /// Nothing is written inside a folder input (a bundle folder, a CSV folder, an app Documents
    /// folder): an output or a report there would become part of the input (a bundle's
    /// `unlisted-file`, a CSV folder's extra collection).
    @Test(arguments: ["bundle", "csv", "docs"], [["convert", "-o", "DIR/data/x.jsonl"], ["convert", "--to", "csv", "-o", "DIR/out/"], ["validate", "--report", "json", "--report-file", "DIR/r.json"]])
    func nothingIsWrittenInsideAFolderInput(folder: String, arguments: [String]) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        switch folder {
        case "docs": try box.copySample("pet-story-v1-documents", to: "docs")
        case "csv": #expect(try box.ferry(["convert", "notes-v1.json", "--to", "csv", "-o", "csv/", "-q"]).status == 0)
        default: #expect(try box.ferry(["convert", "notes-v1.json", "--to", "tar", "-o", "bundle/", "-q"]).status == 0)
        }
        let before = try Self.snapshot(box)
        let filled = arguments.map { $0.replacingOccurrences(of: "DIR", with: folder) }
        let run = try box.ferry([filled[0], folder] + filled.dropFirst())
        let output = filled.last!.hasSuffix("/") ? "the output folder '\(filled.last!)'" : "the output '\(filled.last!)'"
        #expect(run.status == 2)
        #expect(run.errors == ["ferry \(filled[0]): error: \(output) is inside the input folder '\(folder)'; inputs are never modified [usage]"])
        #expect(try Self.snapshot(box) == before)
    }

    // MARK: ferry run

    /// Writes `p.json`: the inputs migrated to V2 and written as JSON to `template`.
    func writePipeline(_ box: Sandbox, inputs: [String], template: String) throws {
        let list = inputs.map { "\"\($0)\"" }.joined(separator: ", ")
        try box.write("p.json", """
            {"inputs": [\(list)], "steps": [{"migrate": {"toVersion": 2}}], "output": {"path": "\(template)", "format": "json"}}
            """)
    }

    /// Two inputs whose template expands to one output: exit 2, both named, with the fix the
    /// template allows.
    @Test(arguments: [
        (["in/x.json", "in/x.jsonl"], "out/{name}.json",
         "the output 'out/x.json' would be written from both 'in/x.json' and 'in/x.jsonl'; the output template 'out/{name}.json' gives both one name, as they differ only in their extensions; rename one of them"),
        (["in/a/y.json", "in/b/y.json"], "out/{name}.json",
         "the output 'out/y.json' would be written from both 'in/a/y.json' and 'in/b/y.json'; add {path} (the input's path without its extensions) to the output template 'out/{name}.json'"),
        (["in/a/y.json", "in/b/y.json"], "out/all.json",
         "the output 'out/all.json' would be written from both 'in/a/y.json' and 'in/b/y.json'; add {path} (the input's path without its extensions) to the output template 'out/all.json'"),
        (["in/x.json"], "in/{name}.json", "the output 'in/x.json' is the input 'in/x.json'; inputs are never modified"),
        (["in/a/y.json", "in/b/y.json"], "in/a/", "the output 'in/a/y.json' is the input 'in/a/y.json'; inputs are never modified"),
    ])
    func pipelineTemplatesThatCollideAreRefused(inputs: [String], template: String, message: String) throws {
        let box = try Sandbox()
        for input in ["in/x.json", "in/a/y.json", "in/b/y.json"] { try box.copySample("notes-v1.json", to: input) }
        #expect(try box.ferry(["convert", "in/x.json", "-o", "in/x.jsonl", "-q"]).status == 0)
        try writePipeline(box, inputs: inputs, template: template)
        let before = try Self.snapshot(box)
        let run = try box.ferry(["run", "p.json", "-q"])
        #expect(run.status == 2)
        #expect(run.errors == ["ferry run: error: \(message) [usage]"])
        #expect(try Self.snapshot(box) == before)
        #expect(!box.exists("out"))
    }

    /// `{path}`: the input's path from the pipeline's folder without extensions keeps inputs of
    /// one name apart.
    @Test func pathVariableKeepsInputsOfOneNameApart() throws {
        let box = try Sandbox()
        for input in ["in/a/y.json", "in/b/y.json"] { try box.copySample("notes-v1.json", to: input) }
        try writePipeline(box, inputs: ["in/a/y.json", "in/b/y.json"], template: "out/{path}.v2.json")
        let run = try box.ferry(["run", "p.json", "-q"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try box.files(under: "out") == ["in/a/y.v2.json", "in/b/y.v2.json"])
    }

    // MARK: -o and --report-file

    @Test(arguments: [
        (["convert", "n.json", "-o", ""], "ferry convert: error: -o needs a file, a folder (DIR/) or - for standard output, not ''"),
        (["migrate", "n.json", "--to-version", "2", "--output="], "ferry migrate: error: -o needs a file, a folder (DIR/) or - for standard output, not ''"),
        (["validate", "n.json", "--report", "json", "--report-file", ""], "ferry validate: error: --report-file needs a file name, not ''"),
        (["convert", "n.json", "-o", "a.json", "--report", "json", "--report-file", ""], "ferry convert: error: --report-file needs a file name, not ''"),
        (["run", "p.json", "--report-file", ""], "ferry run: error: --report-file needs a file name, not ''"),
        (["convert", "n.json", "-o", "a.json", "-o", "b.json"], "ferry convert: error: -o given twice ('a.json', then 'b.json'); give it once"),
        (["migrate", "n.json", "--to-version", "2", "-o", "a.json", "--output", "b.json"], "ferry migrate: error: --output given twice ('a.json', then 'b.json'); give it once"),
        (["validate", "n.json", "--report-file", "a.xml", "--report-file=b.xml"], "ferry validate: error: --report-file given twice ('a.xml', then 'b.xml'); give it once"),
        (["run", "p.json", "--report-file", "a.xml", "--report-file", "b.xml"], "ferry run: error: --report-file given twice ('a.xml', then 'b.xml'); give it once"),
    ])
    func emptyOrRepeatedOutputPathsAreUsageErrors(arguments: [String], message: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "n.json")
        try box.write("p.json", #"{"inputs": ["n.json"], "steps": [], "output": {"path": "out/{name}.json"}}"#)
        // A temporary file of a dead run: a run that sweeps the folder would remove it.
        try box.write(".a.json.ferry-tmp-999999999-x", "left")
        let before = try Self.snapshot(box)
        let run = try box.ferry(arguments)
        #expect(run.status == 2)
        #expect(run.stderrLines.first == message)
        #expect(try Self.snapshot(box) == before)
    }

    /// The report file is written by the run too: it may not be an input or an output.
    @Test(arguments: [
        (["convert", "n.json", "-o", "a.json", "--report", "json", "--report-file", "n.json"],
         "ferry convert: error: the output 'n.json' is the input 'n.json'; inputs are never modified [usage]"),
        (["migrate", "n.json", "--to-version", "2", "-o", "a.json", "--report", "junit", "--report-file", "./a.json"],
         "ferry migrate: error: the output './a.json' of --report-file would overwrite the output 'a.json' of 'n.json'; give --report-file another name [usage]"),
        (["validate", "n.json", "--report", "junit", "--report-file", "sub/../n.json"],
         "ferry validate: error: the output 'sub/../n.json' is the input 'n.json'; inputs are never modified [usage]"),
        (["run", "p.json", "--report", "junit", "--report-file", "out/n.json"],
         "ferry run: error: the output 'out/n.json' would be written from both 'n.json' and --report-file; give --report-file another name [usage]"),
    ])
    func aReportFileOverAnInputOrOutputIsRefused(arguments: [String], message: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "n.json")
        try box.write("p.json", #"{"inputs": ["n.json"], "steps": [], "output": {"path": "out/{name}.json"}}"#)
        try FileManager.default.createDirectory(at: box.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let before = try Self.snapshot(box)
        let run = try box.ferry(arguments)
        #expect(run.status == 2)
        #expect(run.errors == [message])
        #expect(try Self.snapshot(box) == before)
    }

    // MARK: file mode

    /// Rewriting an output keeps the mode of the file it replaces.
    @Test(arguments: [(["-o", "n.json"], "n.json"), (["--to", "jsonl", "-o", "n.jsonl"], "n.jsonl"), (["--to", "xml", "-o", "n.xml"], "n.xml"),
                      (["--to", "csv", "-o", "csv/"], "csv/wineNotes.csv"), (["-o", "n.tar"], "n.tar"), (["-o", "n.tar.gz"], "n.tar.gz"),
                      (["-o", "n.json", "--report", "junit", "--report-file", "r.xml"], "r.xml")])
    func aReplacedOutputKeepsItsMode(arguments: [String], file: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        let convert = ["convert", "notes-v1.json", "-q"] + arguments
        #expect(try box.ferry(convert).status == 0)
        let path = box.url.appendingPathComponent(file).path
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(try box.ferry(convert).status == 0)
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}
