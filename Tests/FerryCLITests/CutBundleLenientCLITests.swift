import FerryTestSupport
import Foundation
import Testing

/// A bundle cut short, converted with `--lenient`: a tar keeps the members read before the cut
/// (a proper envelope, its domain named); a zip, read from the directory at its end, has none to
/// keep, so nothing is written and a note says why, where an empty output with no domain was
/// written before (which validate then called schema-free valid). Every data format inside.
@Suite struct CutBundleLenientCLITests {
    /// Where the content of a tar's last member starts (ustar headers, POSIX.1-1988: the name in
    /// bytes 0-99, the size in octal in bytes 124-135), and its size.
    static func lastMember(of tar: [UInt8]) -> (start: Int, size: Int) {
        var offset = 0
        var last = (start: 0, size: 0)
        while offset + 512 <= tar.count, tar[offset] != 0 {
            let octal = String(decoding: tar[(offset + 124)..<(offset + 136)].prefix { $0 != 0 && $0 != 0x20 }, as: UTF8.self)
            let size = Int(octal, radix: 8) ?? 0
            last = (offset + 512, size)
            offset += 512 + (size + 511) / 512 * 512
        }
        return last
    }

    @Test(arguments: ["json", "jsonl", "csv", "xml"])
    func aCutZipWritesNothingAndACutTarKeepsWhatWasRead(_ data: String) throws {
        let box = try Sandbox()
        try box.copySample("vocabulary-v1-backup-restore.json", to: "in.json")
        for bundle in ["tar", "zip"] {
            #expect(try box.ferry(["convert", "in.json", "--data-format", data, "-o", "whole.\(bundle)"]).status == 0)
            let bytes = try box.bytes("whole.\(bundle)")
            // A tar cut inside its last member (the words), a zip in its middle.
            let last = Self.lastMember(of: bytes)
            let cut = bundle == "tar" ? last.start + last.size / 2 : bytes.count / 2
            try box.write("cut.\(bundle)", bytes: Array(bytes.prefix(cut)))
            for output in ["out.jsonl", "out.json"] {
                try? box.remove(output)
                let run = try box.ferry(["convert", "cut.\(bundle)", "--lenient", "-o", output])
                #expect(run.status == 3, "\(bundle) \(data)")
                #expect(run.errors.count == 1 && run.errors.allSatisfy { $0.hasSuffix("[truncated-archive]") }, "\(bundle) \(data): \(run.stderr)")
                if bundle == "zip" {
                    #expect(!box.exists(output), "\(data)")
                    #expect(run.diagnostics.last == "cut.zip: note: nothing was written: the input is cut short before any record that "
                        + "could be kept [assumption]", "\(data)")
                } else {
                    // The envelope names its domain, and what was kept (the word books) validates.
                    let check = try box.ferry(["validate", output])
                    #expect(check.stderrLines.last == "\(output): vocabulary v1: wordBooks 1, words 0 (1 record, 0 errors, 0 warnings); valid",
                        "\(data): \(run.stderr)")
                }
            }
        }
    }

    /// A bundle folder whose data file is cut keeps the records before the cut, as the file alone does,
    /// in an envelope naming its domain.
    @Test func aBundleFolderWithACutDataFileKeepsWhatWasRead() throws {
        let box = try Sandbox()
        try box.copySample("vocabulary-v1-backup-restore.json", to: "in.json")
        #expect(try box.ferry(["convert", "in.json", "--data-format", "jsonl", "--to", "tar", "-o", "b/"]).status == 0)
        let words = try box.bytes("b/data/words.jsonl")
        try box.write("b/data/words.jsonl", bytes: Array(words.prefix(words.count - 20)))
        let run = try box.ferry(["convert", "b", "--lenient", "-o", "out.jsonl"])
        #expect(run.status == 3)
        // The file no longer matches the manifest's digest either: that is said too.
        #expect(run.errors.first == "b:data/words.jsonl:3:222: error: unexpected end of input, expected ',' or '}' after object member: "
            + "the input ends inside the record on line 3, which is not closed (the input is cut short) [malformed-json]", "\(run.stderr)")
        let check = try box.ferry(["validate", "out.jsonl"])
        #expect(check.stderrLines.last == "out.jsonl: vocabulary v1: wordBooks 1, words 1 (2 records, 0 errors, 0 warnings); valid",
            "\(check.stderr)")
    }
}
