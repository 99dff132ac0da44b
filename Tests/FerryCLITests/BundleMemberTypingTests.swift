import FerryTestSupport
import Foundation
import Testing

/// A bundle's data member is read as the same file is read alone: typed by its own format
/// (`FormatDescriptor.scalarsAreText`), not by the bundle's other members, and giving the same
/// diagnostics (code, line, column, pointer, text, the CSV column, the duplicate-header check),
/// with the member named after the bundle. Over JSON, JSON Lines, CSV and XML members, in tar and
/// folder bundles, on generated notes V2 data.
@Suite struct BundleMemberTypingTests {
    static let dataFormats = ["json", "jsonl", "csv", "xml"]
    /// The bundle as the user names it: a folder (`b`) or a tar made of it by `tar(1)` (`b.tar`).
    static let containers = ["b", "b.tar"]

    /// Generated notes V2 with two values to aim at: the first wine's alcohol is 13.75, the
    /// second's 14.25 (no other value is either).
    static func notes() -> String {
        var text = GeneratedBackups.json(domain: "notes", version: 2, count: 3)
        for value in ["13.75", "14.25"] {
            let range = text.range(of: #""alcoholByVolume": 1[0-9]\.5,"#, options: .regularExpression)!
            text.replaceSubrange(range, with: "\"alcoholByVolume\": \(value),")
        }
        return text
    }

    /// Replaces `old` with `new` in the bundle folder's member and puts the member's new size
    /// and SHA-256 in the manifest and the bag's files, as a tool that edits a bundle properly would.
    static func edit(_ member: String, of folder: String, in box: Sandbox, _ change: (String) -> String) throws {
        let path = "\(folder)/\(member)"
        let before = try box.bytes(path)
        let after = Array(change(try box.text(path)).utf8)
        #expect(after != before, "the edit changed nothing in \(member)")
        try box.write(path, bytes: after)
        var manifest = try box.text("\(folder)/manifest.json")
        // The files entry follows the collections entry: the last mention of the path.
        let entry = manifest.range(of: "\"path\": \"\(member)\"", options: .backwards)!
        var tail = String(manifest[entry.upperBound...])
        tail = tail.replacingOccurrences(of: "\"size\": \(before.count),", with: "\"size\": \(after.count),", options: [], range: tail.range(of: "\"size\": \(before.count),"))
        tail = tail.replacingOccurrences(of: try sha256(before, in: box), with: try sha256(after, in: box))
        manifest = String(manifest[..<entry.upperBound]) + tail
        try box.write("\(folder)/manifest.json", manifest)
        // A version 1 bundle (`assemble`) has no bag files to update.
        if box.exists("\(folder)/bagit.txt") { try box.rebag(folder) }
    }

    static func sha256(_ bytes: [UInt8], in box: Sandbox) throws -> String {
        try box.write("hash.tmp", bytes: bytes)
        defer { try? box.remove("hash.tmp") }
        let run = try runTool("/usr/bin/env", ["sha256sum", "hash.tmp"], in: box.url)
        return String(run.output.prefix(64))
    }

    /// `b` as given, or `b.tar` made from the folder `b` by `tar(1)` (members in its order).
    static func container(_ name: String, in box: Sandbox) throws {
        guard name.hasSuffix(".tar") else { return }
        let tags = ["bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt"].filter { box.exists("b/" + $0) }
        let run = try runTool("/usr/bin/env", ["tar", "-cf", name, "-C", "b", "manifest.json"] + tags + ["data"], in: box.url)
        #expect(run.status == 0, "\(run.output)")
    }

    /// The diagnostics of a run with the file prefix `from` replaced by `to`.
    static func diagnostics(_ run: FerryRun, from: String, to: String) -> [String] {
        run.diagnostics.map { $0.hasPrefix(from) ? to + $0.dropFirst(from.count) : $0 }
    }

    @Test(arguments: dataFormats, containers)
    func aMemberGivesTheDiagnosticsOfItsPlainFile(dataFormat: String, container: String) throws {
        let box = try Sandbox()
        try box.write("in.json", Self.notes())
        #expect(try box.ferry(["convert", "in.json", "--data-format", dataFormat, "-o", "b/", "-q"]).status == 0)
        let member = "data/wineTastingNotes.\(dataFormat)"
        let textScalars = dataFormat == "csv" || dataFormat == "xml"
        try Self.edit(member, of: "b", in: box) { text in
            var text = text.replacingOccurrences(of: "13.75", with: textScalars ? "abc" : "\"abc\"")
                .replacingOccurrences(of: "14.25", with: "140")
            if dataFormat == "csv" {
                // A header naming `title` twice: an error in a domain, plain or member.
                let header = text.range(of: "\n")!
                text = text[..<header.lowerBound].replacingOccurrences(of: ",think,", with: ",title,") + text[header.lowerBound...]
            }
            return text
        }
        try Self.container(container, in: box)
        try box.write("plain/wineTastingNotes.\(dataFormat)", bytes: try box.bytes("b/" + member))

        let plain = try box.ferry(["validate", "plain/wineTastingNotes.\(dataFormat)"])
        let bundled = try box.ferry(["validate", container])
        #expect(plain.status == 1)
        #expect(bundled.status == 1)
        let expected = Self.diagnostics(plain, from: "plain/wineTastingNotes.\(dataFormat):", to: "\(container):\(member):")
        #expect(bundled.diagnostics == expected)
        // CSV: the header's error, the column `think` renamed (so missing in each row, as in
        // JSON), the two values and the unknown `title_2` of each row.
        #expect(expected.count == (dataFormat == "csv" ? 2 + 1 + 3 + 3 : 2), "\(expected)")
        #expect(expected.allSatisfy { $0.hasPrefix("\(container):\(member):") })
        if dataFormat == "csv" {
            // Exact text, as plain CSV gives it: the column named, the header checked.
            let at = "\(container):\(member)"
            #expect(expected == [
                "\(at):1:124: error: the header names 'title' more than once; a domain's fields are unique [duplicate-header]",
                #"\#(at):2:1: error: /wineTastingNotes/0/think: think is missing (required in WineTastingNote) (column 'think') (id "wine-0") [missing-field]"#,
                #"\#(at):2:40: error: /wineTastingNotes/0/alcoholByVolume: alcoholByVolume: expected a number, found "abc" (column 'alcoholByVolume') (id "wine-0") [type-error]"#,
                #"\#(at):2:82: error: /wineTastingNotes/0/title_2: unknown field "title_2" in WineTastingNote (column 'title_2') (id "wine-0") [unknown-field]"#,
                #"\#(at):3:1: error: /wineTastingNotes/1/think: think is missing (required in WineTastingNote) (column 'think') (id "wine-1") [missing-field]"#,
                #"\#(at):3:40: error: /wineTastingNotes/1/alcoholByVolume: alcoholByVolume 140 is out of range 0...100 (column 'alcoholByVolume') (id "wine-1") [out-of-range]"#,
                #"\#(at):3:79: error: /wineTastingNotes/1/title_2: unknown field "title_2" in WineTastingNote (column 'title_2') (id "wine-1") [unknown-field]"#,
                #"\#(at):4:1: error: /wineTastingNotes/2/think: think is missing (required in WineTastingNote) (column 'think') (id "wine-2") [missing-field]"#,
                #"\#(at):4:82: error: /wineTastingNotes/2/title_2: unknown field "title_2" in WineTastingNote (column 'title_2') (id "wine-2") [unknown-field]"#,
            ])
        }
    }

    /// One bundle holding each collection in another format (wine JSON, whiskey CSV, coffee XML,
    /// cocktail JSON Lines): it validates clean and reads back to its input; a number written as
    /// a string in the JSON member is the type error it is in a plain JSON file (typing the
    /// whole bundle as text, for its CSV member, let it pass).
    @Test(arguments: containers)
    func aBundleMixingFormatsTypesEachMemberByItsOwn(container: String) throws {
        let box = try Sandbox()
        try box.write("in.json", Self.notes())
        let formats = ["wineTastingNotes": "json", "whiskeyTastingNotes": "csv", "coffeeTastingNotes": "xml", "cocktailTastingNotes": "jsonl"]
        for format in Set(formats.values) {
            #expect(try box.ferry(["convert", "in.json", "--data-format", format, "-o", "\(format)/", "-q"]).status == 0)
        }
        try Self.assemble(formats, in: box)
        try Self.container(container, in: box)
        let clean = try box.ferry(["validate", container])
        #expect(clean.status == 0)
        #expect(clean.diagnostics == [])
        #expect(try box.ferry(["convert", container, "-o", "back.json", "-q"]).status == 0)
        #expect(try box.ferry(["convert", "in.json", "-o", "canonical.json", "-q"]).status == 0)
        #expect(try box.bytes("back.json") == box.bytes("canonical.json"))

        try Self.edit("data/wineTastingNotes.json", of: "b", in: box) { $0.replacingOccurrences(of: "13.75", with: "\"13.75\"") }
        try Self.container(container, in: box)
        try box.write("plain/wineTastingNotes.json", bytes: try box.bytes("b/data/wineTastingNotes.json"))
        let plain = try box.ferry(["validate", "plain/wineTastingNotes.json"])
        let bundled = try box.ferry(["validate", container])
        #expect(bundled.status == 1)
        #expect(plain.diagnostics == [#"plain/wineTastingNotes.json:10:26: error: /wineTastingNotes/0/alcoholByVolume: alcoholByVolume: expected a number, found "13.75" (id "wine-0") [type-error]"#])
        #expect(bundled.diagnostics == Self.diagnostics(plain, from: "plain/", to: "\(container):data/"))
    }

    /// Makes the bundle folder `b` from the one-format bundle folders (`json/`, `csv/`, ...):
    /// each collection's member from the folder of its format, the manifest listing them, in the
    /// version 1 layout (no bag files), which is still read.
    static func assemble(_ formats: [String: String], in box: Sandbox) throws {
        let base = try box.text("json/manifest.json")
        let manifest = try JSONSerialization.jsonObject(with: Data(base.utf8)) as! [String: Any]
        let order = (manifest["collections"] as! [String: Any]).keys.sorted {
            base.range(of: "\"\($0)\": {")!.lowerBound < base.range(of: "\"\($1)\": {")!.lowerBound
        }
        var collections: [String] = []
        var files: [(path: String, entry: String)] = []
        for name in order {
            let format = formats[name]!
            let source = try JSONSerialization.jsonObject(with: Data(try box.bytes("\(format)/manifest.json"))) as! [String: Any]
            let collection = (source["collections"] as! [String: [String: Any]])[name]!
            let path = collection["path"] as! String
            collections.append("    \"\(name)\": {\"path\": \"\(path)\", \"format\": \"\(format)\", \"count\": \(collection["count"] as! Int)}")
            let file = (source["files"] as! [[String: Any]]).first { $0["path"] as? String == path }!
            files.append((path, "    {\"path\": \"\(path)\", \"size\": \(file["size"] as! Int), \"sha256\": \"\(file["sha256"] as! String)\"}"))
            try box.write("b/" + path, bytes: try box.bytes("\(format)/\(path)"))
        }
        files.sort { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
        let text = """
            {
              "bundleVersion": 1,
              "domain": "notes",
              "schemaVersion": 2,
              "createdAt": "\(manifest["createdAt"] as! String)",
              "generator": "test",
              "collections": {
            \(collections.joined(separator: ",\n"))
              },
              "files": [
            \(files.map(\.entry).joined(separator: ",\n"))
              ]
            }

            """
        try box.write("b/manifest.json", text)
    }
}
