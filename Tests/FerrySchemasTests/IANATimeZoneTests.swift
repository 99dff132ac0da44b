import FerryCore
import FerrySchemas
import Foundation
import Testing

/// The library resolves time zone names as the command line does: the same refusals, worded the
/// same, from `IANATimeZone` and from a `DatasetProcessor` given the name in its options.
@Suite struct IANATimeZoneTests {
    @Test(arguments: [
        ("IST", "time zone \"IST\" is an abbreviation, not an IANA name; use \"Asia/Kolkata\" or another IANA name"),
        ("UTC+5", "time zone \"UTC+5\" is an offset, not an IANA name; use \"Etc/GMT-5\" (POSIX's sign: ahead of UTC) or a city's zone such as Asia/Tokyo"),
        ("GMT-3", "time zone \"GMT-3\" is an offset, not an IANA name; use \"Etc/GMT+3\" (POSIX's sign: behind UTC) or a city's zone such as Asia/Tokyo"),
        ("Nowhere/City", "unknown time zone \"Nowhere/City\"; use an IANA name such as UTC or Asia/Tokyo"),
        ("", "unknown time zone \"\"; use an IANA name such as UTC or Asia/Tokyo"),
    ])
    func aNameThatIsNotIANAIsRefused(name: String, message: String) throws {
        let error = try #require(throws: FerryError.self) { try IANATimeZone.resolve(name) }
        #expect(error.diagnostic.code == .usage)
        #expect(error.diagnostic.message == message)
        var options = ProcessingOptions()
        options.timeZone = name
        let processorError = try #require(throws: FerryError.self) {
            try DatasetProcessor(domain: .petStory, sourceVersion: 1, targetVersion: 2, options: options, log: DiagnosticLog())
        }
        #expect(processorError.diagnostic.message == message)
    }

    @Test func anIANANameGivesItsZone() throws {
        #expect(try IANATimeZone.resolve("Asia/Tokyo").identifier == "Asia/Tokyo")
        #expect(try IANATimeZone.resolve("America/Los_Angeles").identifier == "America/Los_Angeles")
        #expect(try IANATimeZone.resolve("UTC").secondsFromGMT() == 0)
        #expect(try IANATimeZone.resolve("GMT").secondsFromGMT() == 0)
    }
}
