import FerryTestSupport
import Foundation
import Testing

/// A malformed `SOURCE_DATE_EPOCH` is a usage error (exit 2) of every command that may write its
/// time (a bundle's `createdAt`, an HTML report's date), said in one line naming the value before
/// anything is read or written, as the reproducible-builds specification asks; an empty value
/// too, for which it makes no exception. Commands that never write a time do not read it.
@Suite struct SourceDateEpochCLITests {
    /// Each command that reads it, with arguments that would otherwise succeed.
    static let commands: [[String]] = [
        ["convert", "notes-v1.json", "-o", "out.tar"],
        ["migrate", "notes-v1.json", "--to-version", "2", "-o", "out.tar"],
        ["validate", "notes-v1.json", "--report", "html", "--report-file", "out.html"],
        ["stats", "notes-v1.json"],
        ["diff", "notes-v1.json", "notes-v1.json"],
        ["run", "pipeline.json"],
    ]

    static let malformed = ["abc", "-5", "1.5", "", " 5", "+5", "1e9", "99999999999999", "253402300800"]

    static func sandbox() throws -> Sandbox {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        try box.write("pipeline.json", #"{"inputs": ["notes-v1.json"], "output": {"path": "out/{name}.tar"}}"#)
        return box
    }

    @Test(arguments: commands)
    func aMalformedValueIsAUsageError(command: [String]) throws {
        let box = try Self.sandbox()
        for value in Self.malformed {
            let run = try box.ferry(command, environment: ["SOURCE_DATE_EPOCH": value])
            #expect(run.status == 2, "\(command) '\(value)'")
            #expect(run.stderrLines == [
                "ferry \(command[0]): error: SOURCE_DATE_EPOCH expects a whole number of seconds since 1970-01-01T00:00:00Z, "
                    + "from 0 to 253402300799, not '\(value)' [usage]",
            ], "\(command) '\(value)'")
            #expect(run.stdout == "", "\(command) '\(value)'")
            #expect(try box.list() == ["notes-v1.json", "pipeline.json"], "\(command) '\(value)'")
        }
    }

    /// Whole seconds from 0 to the end of year 9999 are taken, and the unset variable is no error.
    @Test func wellFormedValuesAreTaken() throws {
        let box = try Self.sandbox()
        for (value, createdAt) in [("0", "1970-01-01T00:00:00Z"), ("1700000000", "2023-11-14T22:13:20Z"),
                                   ("253402300799", "9999-12-31T23:59:59Z")] {
            try? box.remove("out")
            let run = try box.ferry(["convert", "notes-v1.json", "-o", "out/", "--data-format", "json", "--quiet"],
                                    environment: ["SOURCE_DATE_EPOCH": value])
            #expect(run.status == 0, "'\(value)': \(run.stderr)")
            #expect(try box.text("out/manifest.json").contains(#""createdAt": "\#(createdAt)","#), "'\(value)'")
        }
        #expect(try box.ferry(["convert", "notes-v1.json", "-o", "out.tar", "--quiet"]).status == 0)
    }

    /// `inspect`, `head`, `schema` and `formats` write no time: the variable is not theirs to judge.
    @Test func commandsThatWriteNoTimeDoNotReadIt() throws {
        let box = try Self.sandbox()
        for command in [["inspect", "notes-v1.json"], ["head", "notes-v1.json", "-n", "1"], ["schema", "notes"], ["formats"]] {
            let run = try box.ferry(command, environment: ["SOURCE_DATE_EPOCH": "abc"])
            #expect(run.status == 0, "\(command): \(run.stderr)")
        }
    }
}
