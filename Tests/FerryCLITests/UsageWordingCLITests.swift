import FerryTestSupport
import Foundation
import Testing

/// A usage message names an option as the user typed it, and an unknown schema version names
/// the known ones, whichever command meets it.
@Suite struct UsageWordingCLITests {
    /// An option's bad value is named by the name given (short or long, with its value after a
    /// space, `=` or, for a short one, attached).
    @Test(arguments: [
        (["head", "in.json", "-n", "x"], "ferry head: error: -n expects a whole number from 0, not 'x'"),
        (["head", "in.json", "-nx"], "ferry head: error: -n expects a whole number from 0, not 'x'"),
        (["head", "in.json", "--records", "x"], "ferry head: error: --records expects a whole number from 0, not 'x'"),
        (["head", "in.json", "--records=x"], "ferry head: error: --records expects a whole number from 0, not 'x'"),
        (["validate", "in.json", "-j", "0"], "ferry validate: error: -j expects a whole number from 1 to 256, not '0'"),
        (["stats", "in.json", "--jobs", "0"], "ferry stats: error: --jobs expects a whole number from 1 to 256, not '0'"),
    ])
    func aBadValueNamesTheOptionAsTyped(_ arguments: [String], _ message: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "in.json")
        let run = try box.ferry(arguments)
        #expect(run.stderrLines.first == message)
        #expect(run.status == 2)
    }

    /// `schema`, `validate` and `migrate` say the same of a version the domain does not define;
    /// `schema` names itself, since the version is its command line's, not an input's.
    @Test(arguments: GeneratedDocuments.domains)
    func anUnknownVersionNamesTheKnownOnes(_ domain: String) throws {
        let box = try Sandbox()
        try box.write("in.json", GeneratedBackups.json(domain: domain, version: 1))
        let message = "error: \(domain) has no schema version 3 (known: 1, 2) [unknown-version]"
        let schema = try box.ferry(["schema", domain, "--schema-version", "3"])
        #expect(schema.stderrLines == ["ferry schema: " + message])
        #expect(schema.status == 4)
        for command in [["validate", "in.json", "--schema-version", "3"], ["migrate", "in.json", "--to-version", "3", "-o", "out.json"]] {
            let run = try box.ferry(command + ["--quiet"])
            #expect(run.stderrLines == ["in.json: " + message], "\(command[0]) \(domain)")
            #expect(run.status == 4)
        }
    }
}
