import FerryTestSupport
import Foundation
import Testing

/// A tar bundle that cannot be read, in whole or in part, gets its `malformed-archive` error and
/// nothing that only follows from it: no `missing-manifest` when the archive could not be read at
/// all, and for a damaged member header one error for the damage (libarchive steps over it a block
/// at a time) and no `missing-file`, `count-mismatch`, `orphan-media` or dangling reference for
/// what the damage hid, as a `truncated-archive` says its cut once. Every domain, each data format
/// a bundle holds, `validate` and `convert` alike.
@Suite struct UnreadableArchiveCLITests {
    static let cells: [(String, String)] = GeneratedDocuments.domains.flatMap { domain in
        ["json", "jsonl", "csv", "xml"].map { (domain, $0) }
    }

    /// The bundle of `domain`'s generated V1 document with its data in `dataFormat`, as `in.tar`;
    /// nil (the test skips) without the generators.
    static func bundle(_ box: Sandbox, _ domain: String, _ dataFormat: String) throws -> [UInt8]? {
        guard let document = GeneratedDocuments.v1(domain, records: 20) else {
            print("skipped: the generators of bench/gen_matrix.sh are absent")
            return nil
        }
        let input = try box.input(String(decoding: document, as: UTF8.self), as: "tar", dataFormat: dataFormat)
        return Array(try Data(contentsOf: box.url.appendingPathComponent(input)))
    }

    /// `validate` and `convert` of `file`, with one job or two: exactly `errors` on standard
    /// error (`--quiet`), exit 3.
    static func expectOnly(_ errors: [String], reading file: String, in box: Sandbox, _ cell: String) throws {
        for command in [["validate", file], ["convert", file, "-o", "out.json"]] {
            for jobs in ["1", "2"] {
                let run = try box.ferry(command + ["--quiet", "--jobs", jobs])
                #expect(run.stderrLines == errors, "\(command[0]) \(file) \(cell) --jobs \(jobs)")
                #expect(run.status == 3, "\(command[0]) \(file) \(cell) --jobs \(jobs)")
            }
        }
    }

    /// Bytes that are no archive, and the bundle cut after 100 bytes (inside its first header):
    /// libarchive recognises neither, and that is all that is said (not also that no manifest.json
    /// was found).
    @Test(arguments: cells)
    func anArchiveThatCannotBeReadSaysOnlyThat(_ domain: String, _ dataFormat: String) throws {
        let box = try Sandbox()
        guard let bytes = try Self.bundle(box, domain, dataFormat) else { return }
        try Data(String(repeating: "not a tar archive\n", count: 300).utf8).write(to: box.url.appendingPathComponent("garbage.tar"))
        try Data(bytes.prefix(100)).write(to: box.url.appendingPathComponent("cut.tar"))
        for file in ["garbage.tar", "cut.tar"] {
            try Self.expectOnly(["\(file): error: unrecognized archive format at byte offset 0, the first member header [malformed-archive]"],
                                reading: file, in: box, "\(domain) \(dataFormat)")
        }
    }

    /// The header of the first data member damaged (its checksum): one error at the archive (a
    /// header stands in no member; the message names the one before it), at the header's offset,
    /// and none for the members, records, references and media the damage hid.
    @Test(arguments: cells)
    func aDamagedHeaderIsSaidOnceWithoutFollowOns(_ domain: String, _ dataFormat: String) throws {
        let box = try Sandbox()
        guard let bytes = try Self.bundle(box, domain, dataFormat) else { return }
        var tar = TarEditor(bytes: bytes)
        let members = tar.members
        let index = try #require(members.firstIndex { $0.path.hasPrefix("data/") })
        let (damaged, before) = (members[index], members[index - 1])
        for (offset, digit) in "9999999".utf8.enumerated() { tar.bytes[damaged.headerOffset + 148 + offset] = digit }
        try Data(tar.bytes).write(to: box.url.appendingPathComponent("damaged.tar"))
        try Self.expectOnly(["damaged.tar: error: damaged tar archive at byte offset \(damaged.headerOffset), "
                                + "the header after member \"\(before.path)\" [malformed-archive]"],
                            reading: "damaged.tar", in: box, "\(domain) \(dataFormat)")
    }

    /// The bundle cut 100 bytes into the header of its first data member: `truncated-archive` at
    /// the archive, not at the member before the header, which the message names.
    @Test(arguments: cells)
    func aCutInsideAHeaderIsAtTheArchive(_ domain: String, _ dataFormat: String) throws {
        let box = try Sandbox()
        guard let bytes = try Self.bundle(box, domain, dataFormat) else { return }
        let members = TarEditor(bytes: bytes).members
        let index = try #require(members.firstIndex { $0.path.hasPrefix("data/") })
        let (cut, before) = (members[index], members[index - 1])
        try Data(bytes.prefix(cut.headerOffset + 100)).write(to: box.url.appendingPathComponent("cut.tar"))
        try Self.expectOnly(["cut.tar: error: truncated tar archive at byte offset \(cut.headerOffset), "
                                + "the header after member \"\(before.path)\" [truncated-archive]"],
                            reading: "cut.tar", in: box, "\(domain) \(dataFormat)")
    }

    /// An empty file named as an archive is no archive (GNU tar: "This does not look like a tar
    /// archive"), not a bundle without its manifest: `malformed-archive` only, compressed or
    /// not, zip too, and an empty standard input read as a tar.
    @Test(arguments: ["x.tar", "x.tgz", "x.tar.gz", "x.zip", "-"])
    func anEmptyFileIsNoArchive(_ file: String) throws {
        let box = try Sandbox()
        let error = "\(file): error: the input is empty (0 bytes), not a tar or zip archive [malformed-archive]"
        if file == "-" {
            for command in [["validate", "-"], ["convert", "-", "-o", "out.json"]] {
                for jobs in ["1", "2"] {
                    let run = try box.ferry(command + ["--from", "tar", "--quiet", "--jobs", jobs], stdin: "")
                    #expect(run.stderrLines == [error], "\(command[0]) --jobs \(jobs)")
                    #expect(run.status == 3, "\(command[0]) --jobs \(jobs)")
                }
            }
            return
        }
        try box.write(file, bytes: [])
        try Self.expectOnly([error], reading: file, in: box, "empty")
    }
}
