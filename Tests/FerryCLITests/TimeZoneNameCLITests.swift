import FerryTestSupport
import Testing

/// `--time-zone` takes IANA names only, on every command that has it: an abbreviation, which
/// Foundation would read as a fixed offset or as another zone (`PST` without daylight saving,
/// `BST` as Bangladesh), is a usage error naming the zone it usually means; so is an offset
/// (`GMT+9`), whose sign is the opposite of IANA's `Etc/GMT+9`.
@Suite struct TimeZoneNameCLITests {
    static let commands: [[String]] = [
        ["validate", "Samples/notes-v1.json"],
        ["convert", "Samples/pet-story-v1.json", "-o", "-"],
        ["migrate", "Samples/vocabulary-v1-node-firestore.json", "--to-version", "2", "-o", "-"],
    ]

    @Test(arguments: commands, [
        ("PST", "time zone \"PST\" is an abbreviation, not an IANA name; use \"America/Los_Angeles\" or another IANA name"),
        ("BST", "time zone \"BST\" is an abbreviation, not an IANA name; use \"Europe/London\" or another IANA name"),
        ("JST", "time zone \"JST\" is an abbreviation, not an IANA name; use \"Asia/Tokyo\" or another IANA name"),
        ("GMT+9", "time zone \"GMT+9\" is an offset, not an IANA name; use \"Etc/GMT-9\" (POSIX's sign: ahead of UTC) or a city's zone such as Asia/Tokyo"),
        ("UTC-05:30", "time zone \"UTC-05:30\" is an offset, not an IANA name; use a city's zone such as Asia/Tokyo"),
        ("Mars/Olympus", "unknown time zone \"Mars/Olympus\"; use an IANA name such as UTC or Asia/Tokyo"),
        ("asia/tokyo", "unknown time zone \"asia/tokyo\"; use an IANA name such as UTC or Asia/Tokyo"),
    ])
    func aNameThatIsNotIANAIsAUsageError(command: [String], zone: (name: String, message: String)) throws {
        let run = try runFerry(command + ["--time-zone", zone.name, "--quiet"])
        #expect(run.status == 2, "\(command[0]) \(zone.name)")
        #expect(run.stdout == "")
        let first = run.stderr.split(separator: "\n").first.map(String.init)
        #expect(first == "ferry \(command[0]): error: \(zone.message)", "\(command[0]) \(zone.name)")
    }

    @Test(arguments: commands, ["UTC", "GMT", "Asia/Tokyo", "America/Los_Angeles", "Etc/GMT-9"])
    func anIANANameIsTaken(command: [String], zone: String) throws {
        let run = try runFerry(command + ["--time-zone", zone, "--quiet"])
        #expect(run.status == 0, "\(command[0]) \(zone): \(run.stderr)")
    }
}
