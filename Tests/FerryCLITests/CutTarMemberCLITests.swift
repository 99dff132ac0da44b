import FerryTestSupport
import Foundation
import Testing

/// A tar bundle cut inside a data member (a download stopped short): the member's records up to
/// the cut are read, and one `truncated-archive` error says where its data ends, at that line and
/// column of the member; not what the member's reader says of its own end, nor the members,
/// records or references that lie past the cut. Every domain, with JSON, JSON Lines, CSV and XML
/// members, with one job or two.
@Suite struct CutTarMemberCLITests {
    struct Cell: CustomTestStringConvertible, Sendable {
        var domain: String
        var format: String
        var testDescription: String { "\(domain) \(format)" }
    }

    static let cells = GeneratedDocuments.domains.flatMap { domain in
        ["json", "jsonl", "csv", "xml"].map { Cell(domain: domain, format: $0) }
    }

    @Test(arguments: cells) func theRecordsBeforeTheCutAreReadAndTheCutSaidOnce(_ cell: Cell) throws {
        guard case let (box, _, _)? = try Sandbox.generated(cell.domain, records: 40) else { return }
        let made = try box.ferry(["convert", "v1.json", "--data-format", cell.format, "-o", "whole.tar", "--quiet"])
        try #require(made.status == 0, "\(made.stderr)")
        let tar = TarEditor(bytes: try box.bytes("whole.tar"))
        // The main collection's member (the largest), cut at 60% of its data.
        let member = try #require(tar.members.filter { $0.path.hasPrefix("data/") }.max { $0.size < $1.size })
        let kept = member.size * 6 / 10
        let cut = member.dataOffset + kept
        try box.write("cut.tar", bytes: Array(tar.bytes[..<cut]))
        let (line, column) = CutShortWordingCLITests.end(of: Array(tar.bytes[member.dataOffset..<cut]))
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", "cut.tar", "--jobs", jobs])
            #expect(run.errors == ["cut.tar:\(member.path):\(line):\(column): error: truncated tar archive at byte offset \(cut), in member "
                + "\"\(member.path)\": the member's data ends here; its records before the cut are read [truncated-archive]"], "\(cell)")
            #expect(run.status == 3, "\(cell)")
        }
        // The records written under --lenient: the whole bundle's first ones, some of the cut member's among them.
        let whole = try box.ferry(["convert", "whole.tar", "--to", "jsonl", "-o", "-"]).stdout.split(separator: "\n")
        let (one, two) = try box.ferryByJobs(["convert", "cut.tar", "--to", "jsonl", "--lenient", "-o", "OUT"])
        #expect(one.output == two.output && one.stderr == two.stderr && one.status == 3 && two.status == 3, "\(cell)")
        let records = one.output.split(separator: "\n")
        #expect(records.count < whole.count && Array(records) == Array(whole.prefix(records.count)), "\(cell)")
        let collection = member.path.dropFirst(5).split(separator: ".")[0]
        #expect(records.contains { $0.hasPrefix("{\"$collection\":\"\(collection)\"") }, "\(cell): \(one.stderr)")
    }

    /// A tar cut between two members, at the header of the main collection's member: libarchive
    /// reads it as whole (some writers omit the end-of-archive blocks), but its last bytes are
    /// not the zero blocks that end a tar, so the cut is said, after the last member read.
    @Test(arguments: cells) func aCutBetweenMembersIsSaid(_ cell: Cell) throws {
        guard case let (box, _, _)? = try Sandbox.generated(cell.domain, records: 40) else { return }
        let made = try box.ferry(["convert", "v1.json", "--data-format", cell.format, "-o", "whole.tar", "--quiet"])
        try #require(made.status == 0, "\(made.stderr)")
        let tar = TarEditor(bytes: try box.bytes("whole.tar"))
        let members = tar.members
        let index = try #require(members.indices.filter { members[$0].path.hasPrefix("data/") }.max { members[$0].size < members[$1].size })
        try #require(index > 0)
        try box.write("cut.tar", bytes: Array(tar.bytes[..<members[index].headerOffset]))
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", "cut.tar", "--jobs", jobs])
            #expect(run.errors == ["cut.tar:\(members[index - 1].path): error: the archive ends after this member without the two "
                + "zero blocks that end a tar (the input is cut short) [truncated-archive]"], "\(cell)")
            #expect(run.status == 3, "\(cell)")
        }
        // The whole tar ends with them: nothing said.
        #expect(try box.ferry(["validate", "whole.tar"]).status == 0)
    }

    /// A manifest that lists a collection before the one it names (stories before members), the
    /// tar cut inside the members: the stories' references to members past the cut are not
    /// reported dangling; only the cut is.
    @Test func referencesToRecordsPastTheCutAreNotDangling() throws {
        guard let tarTool = toolOnPath("tar"), case let (box, _, _)? = try Sandbox.generated("pet-story", records: 40) else { return }
        #expect(try box.ferry(["convert", "v1.json", "--data-format", "json", "-o", "b/", "--quiet"]).status == 0)
        var manifest = try box.text("b/manifest.json")
        let members = try #require(manifest.range(of: "    \"members\": {"))
        let stories = try #require(manifest.range(of: "    \"stories\": {"))
        let end = try #require(manifest.range(of: "\n  },", range: stories.upperBound..<manifest.endIndex))
        let membersEntry = manifest[members.lowerBound..<stories.lowerBound].dropLast(2)  // without ",\n"
        let storiesEntry = manifest[stories.lowerBound..<end.lowerBound]
        manifest.replaceSubrange(members.lowerBound..<end.lowerBound, with: storiesEntry + ",\n" + membersEntry)
        try box.write("b/manifest.json", manifest)
        let order = ["manifest.json", "bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt",
                     "data/profiles.json", "data/stories.json", "data/members.json"]
        let packed = try runTool(tarTool, ["-cf", "whole.tar", "-C", "b"] + order, in: box.url)
        try #require(packed.status == 0, "\(packed.output)")
        let tar = TarEditor(bytes: try box.bytes("whole.tar"))
        #expect(tar.members.map(\.path) == order)
        let member = try #require(tar.member("data/members.json"))
        let cut = member.dataOffset + member.size * 6 / 10
        try box.write("cut.tar", bytes: Array(tar.bytes[..<cut]))
        let (line, column) = CutShortWordingCLITests.end(of: Array(tar.bytes[member.dataOffset..<cut]))
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", "cut.tar", "--jobs", jobs])
            #expect(run.errors == ["cut.tar:data/members.json:\(line):\(column): error: truncated tar archive at byte offset \(cut), in member "
                + "\"data/members.json\": the member's data ends here; its records before the cut are read [truncated-archive]"])
            #expect(run.stderrLines.last?.contains(", stories 40 (") == true, "\(run.stderr)")
            #expect(run.status == 3)
        }
    }
}
