import FerryTestSupport
import Foundation
import Testing

/// A JSON Lines line that names `$collection` twice is reported as a member given twice is (an
/// `invalid-value` error at the second one's value): the record is read into the collection the
/// first names, counted invalid, and not written. The same whichever way the line is read (its
/// `$collection` first, its keys sorted, the second `$collection` last), by `validate` and
/// `convert`, with one job or two.
@Suite struct CollectionNamedTwiceCLITests {
    static let header = #"{"domain": "pet-story", "schemaVersion": 2}"#
    static let member2 = #"{"$collection":"members","id":"m2","name":"Pet 2","since":"2010-04-03","birthDate":"2010-01-01","species":"dog","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}"#
    static let story = #"{"$collection":"stories","id":"s1","caption":"nap","createdAt":"2024-01-01T08:00:00Z","media":[],"taggedMemberIds":["m2"]}"#

    /// Member m1 naming `$collection` twice, and where the second one's value stands.
    static let lines: [(name: String, line: String, position: String)] = [
        ("leading",
         #"{"$collection":"members","id":"m1","$collection":"stories","name":"Pet 1","since":"2010-04-03","birthDate":"2010-01-01","species":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}"#,
         "2:50"),
        ("sorted keys",
         #"{"bio":"","birthDate":"2010-01-01","createdAt":"2023-01-10T10:05:00Z","$collection":"members","id":"m1","$collection":"stories","name":"Pet 1","sex":"male","since":"2010-04-03","species":"cat"}"#,
         "2:119"),
        ("last",
         #"{"$collection":"members","id":"m1","name":"Pet 1","since":"2010-04-03","birthDate":"2010-01-01","species":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z","$collection":"stories"}"#,
         "2:184"),
    ]

    @Test(arguments: [0, 1, 2], ["1", "2"])
    func theSecondCollectionIsAnError(index: Int, jobs: String) throws {
        let (name, line, position) = Self.lines[index]
        let box = try Sandbox()
        try box.write("in.jsonl", [Self.header, line, Self.member2, Self.story].joined(separator: "\n") + "\n")
        let error = #"in.jsonl:\#(position): error: /members/0/$collection: "$collection" appears twice in FamilyMember; a record belongs to one collection (id "m1") [invalid-value]"#

        let validated = try box.ferry(["validate", "in.jsonl", "--jobs", jobs])
        #expect(validated.status == 1, "\(name) --jobs \(jobs)")
        #expect(validated.stderrLines == [
            error,
            "in.jsonl: pet-story v2: profiles 0, members 1, stories 1 (2 of 3 records valid, 1 error, 0 warnings); invalid",
        ], "\(name) --jobs \(jobs)")

        let converted = try box.ferry(["convert", "in.jsonl", "-o", "out.json", "--jobs", jobs])
        #expect(converted.status == 1, "\(name) --jobs \(jobs)")
        #expect(converted.stderrLines == [
            error,
            "in.jsonl: note: nothing was written because of the errors above; --lenient writes the valid records [assumption]",
            "in.jsonl: pet-story v2: profiles 0, members 1, stories 1 (2 of 3 records passed, 1 error, 0 warnings); nothing written",
        ], "\(name) --jobs \(jobs)")
        #expect(!box.exists("out.json"))

        // --lenient leaves the record out and writes the others.
        let lenient = try box.ferry(["convert", "in.jsonl", "-o", "out.jsonl", "--lenient", "--jobs", jobs])
        #expect(lenient.status == 1, "\(name) --jobs \(jobs)")
        #expect(lenient.stderrLines == [
            error,
            "in.jsonl: pet-story v2: profiles 0, members 1, stories 1 (2 of 3 records passed, 1 error, 0 warnings) -> out.jsonl",
        ], "\(name) --jobs \(jobs)")
        #expect(try box.text("out.jsonl") == [Self.header, Self.member2, Self.story].joined(separator: "\n") + "\n")
    }

    /// A field given twice is reported where it is given again, as `$collection` is.
    @Test(arguments: ["1", "2"])
    func aFieldGivenTwiceIsReportedAtItsSecondValue(jobs: String) throws {
        let box = try Sandbox()
        let line = #"{"$collection":"members","id":"m1","name":"Pet 1","since":"2010-04-03","name":"Pet 9","birthDate":"2010-01-01","species":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}"#
        try box.write("in.jsonl", [Self.header, line, Self.member2, Self.story].joined(separator: "\n") + "\n")
        let validated = try box.ferry(["validate", "in.jsonl", "--jobs", jobs])
        #expect(validated.status == 1)
        #expect(validated.stderrLines == [
            #"in.jsonl:2:79: error: /members/0/name: field "name" appears twice in FamilyMember (id "m1") [invalid-value]"#,
            "in.jsonl: pet-story v2: profiles 0, members 1, stories 1 (2 of 3 records valid, 1 error, 0 warnings); invalid",
        ], "--jobs \(jobs)")
    }
}
