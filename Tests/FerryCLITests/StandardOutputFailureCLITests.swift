import FerryTestSupport
import Foundation
import Testing

/// A write to standard output that fails (a full disk: `> /dev/full`) ends every command with
/// `output-unwritable` (exit 5), said as a conversion to standard output says it, after what the
/// run says anyway; a closed pipe (`| head -1`) stays silent and keeps the command's status.
@Suite struct StandardOutputFailureCLITests {
    static let fullDevice = "-: error: write failed: No space left on device [output-unwritable]"

    /// Runs ferry in `box` with standard output going to `stdout` ("full": /dev/full; "closed": a
    /// pipe nobody reads, its reading end closed before ferry starts): standard error's lines and
    /// the status.
    static func run(_ arguments: [String], in box: Sandbox, stdout: String) throws -> (stderr: String, status: Int32) {
        let process = Process()
        process.executableURL = ferryExecutable()
        process.arguments = arguments
        process.currentDirectoryURL = box.url
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "SOURCE_DATE_EPOCH")
        process.environment = environment
        let pipe = Pipe()
        if stdout == "full" {
            process.standardOutput = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        } else {
            try pipe.fileHandleForReading.close()
            process.standardOutput = pipe
        }
        let err = Pipe()
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? pipe.fileHandleForWriting.close()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    /// The commands that read an input and write their result to standard output, in every
    /// domain and format, with one job or two: to /dev/full, what they say to a pipe and then the
    /// write failure, exit 5.
    @Test(arguments: FormatCells.all)
    func aReadingCommandSaysItsOutputFailed(_ domain: String, _ format: String) throws {
        guard let document = GeneratedDocuments.v1(domain, records: 20) else {
            print("skipped: the generators of bench/gen_matrix.sh are absent")
            return
        }
        let box = try Sandbox()
        let input = try box.input(String(decoding: document, as: UTF8.self), as: format)
        for jobs in ["1", "2"] {
            for command in [["inspect", input], ["stats", input], ["validate", input, "--report", "json"], ["diff", input, input]] {
                let arguments = command + ["--jobs", jobs]
                let piped = try box.ferry(arguments)
                #expect(piped.status == 0, "\(arguments) \(domain) \(format): \(piped.stderr)")
                #expect(!piped.stdout.isEmpty, "\(arguments) \(domain) \(format)")
                let full = try Self.run(arguments, in: box, stdout: "full")
                #expect(full.stderr == piped.stderr + Self.fullDevice + "\n", "\(arguments) \(domain) \(format)")
                #expect(full.status == 5, "\(arguments) \(domain) \(format)")
            }
        }
    }

    /// What reads no input: the published schemas, the format list, help and the version.
    static let inputless: [[String]] = GeneratedDocuments.domains.flatMap { domain in
        [["schema", domain], ["schema", domain, "--as", "xsd"], ["schema", domain, "--schema-version", "1"]]
    } + [["formats"], ["formats", "--json"], ["--help"], ["--version"], ["help", "convert"]]
        + ["convert", "migrate", "validate", "inspect", "diff", "run", "schema", "formats", "stats", "head"].map { [$0, "--help"] }

    @Test(arguments: inputless)
    func aCommandOfNoInputSaysItsOutputFailed(_ arguments: [String]) throws {
        let box = try Sandbox()
        let full = try Self.run(arguments, in: box, stdout: "full")
        #expect(full.stderr == Self.fullDevice + "\n", "\(arguments)")
        #expect(full.status == 5, "\(arguments)")
        // A reader that went away is no failure: nothing said, the command's status.
        let closed = try Self.run(arguments, in: box, stdout: "closed")
        #expect(closed.stderr == "", "\(arguments)")
        #expect(closed.status == 0, "\(arguments)")
    }
}
