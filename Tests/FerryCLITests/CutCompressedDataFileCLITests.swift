import FerryTestSupport
import Foundation
import Testing

/// A single compressed data file cut short (`x.jsonl.gz`, `x.csv.xz`, `x.xml.bz2`, `x.json.zst`):
/// its decompressor ends quietly where its stream stops, so the file reads as the same plain file
/// cut where its readable bytes end: every record whole in them is kept under `--lenient`, and the
/// errors of the records before the stop are the plain file's. The stop is said once, after them,
/// in the stream's words (`cut.jsonl.gz: error: truncated gzip input at byte offset N of the
/// decompressed data [truncated-archive]`), in place of what the plain file's reader says of its
/// end; a CSV row the stop runs into, with no line break after it, is not kept (its last cell may
/// be cut), as in a tar cut inside a member. (The decompressor threw at the stop: the batching
/// readers lost the chunk in hand, so a cut `.csv.gz` kept 1 row where the plain cut kept 93, a
/// `.xml.gz` cut at 50% nothing, a `.jsonl.gz` with `--jobs 2` 1 record.) Every domain and data
/// format under gzip, xz, bzip2 and zstd, with one job or two, `validate` and `convert --lenient`.
@Suite struct CutCompressedDataFileCLITests {
    struct Cell: CustomTestStringConvertible, Sendable {
        var domain: String
        var dataFormat: String
        /// The decompressor's name as the message says it: gzip, xz, bzip2 or zstd.
        var compression: String
        var records: Int
        /// How many cuts of the compressed stream are read: the first, middle and last of those
        /// whose readable bytes end inside the data.
        var cuts: Int
        var testDescription: String { "\(domain) \(dataFormat) \(compression) \(records) records" }
    }

    static let formats = ["json", "jsonl", "csv", "xml"]

    static let gzipAndXZCells = GeneratedDocuments.domains.flatMap { domain in
        formats.flatMap { format in
            ["gzip", "xz"].map { Cell(domain: domain, dataFormat: format, compression: $0, records: 40, cuts: 3) }
        }
    }

    /// `bzip2 -1` decodes blocks of 100 kB whole or not at all, so a cut keeps whole blocks only
    /// and needs several before it: larger files. zstd decodes whole blocks of up to 128 KiB: the
    /// file is written in frames of 8 KiB (as a streaming or parallel compressor writes it), which
    /// also shows that a stream of several frames reads on past the first.
    static let wholeBlockCells = GeneratedDocuments.domains.flatMap { domain in
        formats.flatMap { format in
            ["bzip2"].map { Cell(domain: domain, dataFormat: format, compression: $0, records: 1200, cuts: 2) }
        } + formats.map { Cell(domain: domain, dataFormat: $0, compression: "zstd", records: 200, cuts: 2) }
    }

    @Test(arguments: gzipAndXZCells) func aCutGzipOrXZFileReadsAsThePlainFileCutWhereItsBytesEnd(_ cell: Cell) throws {
        try expectCutsReadAsPlainFile(cell)
    }

    @Test(arguments: wholeBlockCells) func aCutFileOfWholeBlocksReadsAsThePlainFileCutWhereItsBytesEnd(_ cell: Cell) throws {
        try expectCutsReadAsPlainFile(cell)
    }

    /// The compressing command of `compression` (standard output), the file ending, and the
    /// decoder that says how many bytes a cut stream holds (as `CutCompressedBundleCLITests`).
    static func tools(_ compression: String) -> (compress: String, ending: String, decode: String) {
        switch compression {
        case "xz": return ("xz -c", "xz", "lzma.LZMADecompressor().decompress(d)")
        case "bzip2": return ("bzip2 -1 -c", "bz2", "bz2.BZ2Decompressor().decompress(d)")
        case "zstd":
            return ("frames() { split -b 8192 \"$1\" part. && for p in part.*; do zstd -q -c \"$p\"; done; }; frames", "zst",
                    "subprocess.run(['zstd', '-dcq'], input=d, capture_output=True).stdout")
        default: return ("gzip -n -c", "gz", "zlib.decompressobj(31).decompress(d)")
        }
    }

    /// True for the plain file's error that says its reader met the end of the bytes (a record,
    /// an element, a row or a quoted field left open): the compressed file says the stop instead.
    static func saysTheCut(_ error: String) -> Bool {
        error.contains("unexpected end of input") || error.contains("premature end of data")
            || error.contains("(the input may be cut short)") || error.contains("(the input is cut short)")
    }

    func expectCutsReadAsPlainFile(_ cell: Cell) throws {
        let (compress, ending, decode) = Self.tools(cell.compression)
        guard let shell = toolOnPath("sh"), let python = toolOnPath("python3"),
              toolOnPath(cell.compression) != nil,
              case let (box, _, _)? = try Sandbox.generated(cell.domain, records: cell.records)
        else {
            print("skipped: sh, python3, \(compress) or the generators are absent")
            return
        }
        // A CSV file holds every collection (a `$collection` column), as the other formats do; one of
        // a single collection is named after it.
        let made = try box.ferry(["convert", "v1.json", "--to", cell.dataFormat, "-o", "whole.\(cell.dataFormat)", "--quiet"])
        try #require(made.status == 0, "\(made.stderr)")
        var stem = "cut"
        if cell.dataFormat == "csv", try !box.text("whole.csv").hasPrefix("$collection") {
            let lines = try box.ferry(["convert", "v1.json", "--to", "jsonl", "-o", "-", "--quiet"]).stdout
            stem = String(try #require(lines.firstMatch(of: /"\$collection":"([^"]*)"/)?.1))
        }
        let plainName = "\(stem).\(cell.dataFormat)"
        let name = "\(plainName).\(ending)"
        let packed = try runTool(shell, ["-c", "\(compress) whole.\(cell.dataFormat) > whole.compressed"], in: box.url)
        try #require(packed.status == 0, "\(packed.output)")
        let whole = try box.bytes("whole.\(cell.dataFormat)")
        let compressed = try box.bytes("whole.compressed")
        // How many bytes of the file each of 31 cuts of the compressed stream holds.
        let cuts = (1..<32).map { compressed.count * $0 / 32 }
        let script = """
            import sys, zlib, lzma, bz2, subprocess
            whole = open('whole.compressed', 'rb').read()
            for k in sys.argv[1:]:
                d = whole[:int(k)]
                print(len(\(decode)))
            """
        let decoded = try runTool(python, ["-c", script] + cuts.map(String.init), in: box.url)
        try #require(decoded.status == 0, "\(decoded.output)")
        let readable = decoded.output.split(separator: "\n").compactMap { Int($0) }
        try #require(readable.count == cuts.count)
        // Cuts whose readable bytes end inside the data, past its first record's start.
        let inside = zip(cuts, readable).filter { _, length in length > 200 && length < whole.count - 200 }
        try #require(inside.count >= cell.cuts, "\(cell): \(readable)")
        let chosen = cell.cuts == 2 ? [inside[0], inside[inside.count - 1]] : [inside[0], inside[inside.count / 2], inside[inside.count - 1]]
        for (index, (cut, length)) in chosen.enumerated() {
            try box.write(name, bytes: Array(compressed[..<cut]))
            try box.write(plainName, bytes: Array(whole[..<length]))
            let context = "\(cell) \(name) cut at \(cut) of \(compressed.count), \(length) bytes of \(whole.count) readable"
            let stop = "\(name): error: truncated \(cell.compression) input at byte offset \(length) of the decompressed data [truncated-archive]"
            // A CSV row the stop runs into (no line break after it) is not kept, even with all its cells.
            let cutRow = cell.dataFormat == "csv" && whole[length - 1] != UInt8(ascii: "\n")
            for jobs in ["1", "2"] {
                let plain = try box.ferry(["validate", plainName, "--jobs", jobs])
                let kept = plain.errors.filter { !Self.saysTheCut($0) }
                #expect(kept.count + 1 >= plain.errors.count, "\(context): \(plain.stderr)")
                #expect(cutRow || kept.count < plain.errors.count, "\(context): the plain file says no cut: \(plain.stderr)")
                let expected = kept.map { name + $0.dropFirst(plainName.count) } + [stop]
                let run = try box.ferry(["validate", name, "--jobs", jobs])
                #expect(run.errors == expected, "\(context) --jobs \(jobs)")
                #expect(run.status == 3, "\(context) --jobs \(jobs)")
            }
            let (plainOne, plainTwo) = try box.ferryByJobs(["convert", plainName, "--to", "jsonl", "--lenient", "-o", "OUT"])
            #expect(plainOne.output == plainTwo.output, "\(context)")
            var expected = plainOne.output
            if cutRow, !plainOne.stderr.split(separator: "\n").contains(where: { Self.saysTheCut(String($0)) }) {
                // The plain file kept the row the stop runs into as a record: its last line.
                var lines = expected.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                if lines.last?.hasPrefix("{\"$collection\"") == true { lines.removeLast() }
                expected = lines.joined(separator: "\n") + "\n"
            }
            if !expected.contains("{\"$collection\"") {
                // No record before the stop: nothing is written, as for a JSON document cut before
                // its first record (a plain JSON Lines or CSV file writes its header line alone).
                expected = ""
            }
            let (one, two) = try box.ferryByJobs(["convert", name, "--to", "jsonl", "--lenient", "-o", "OUT"])
            #expect(one.status == 3 && two.status == 3, "\(context): \(one.stderr)")
            #expect(one.output == expected, "\(context): \(one.stderr)")
            #expect(two.output == expected, "\(context): \(two.stderr)")
            let records = one.output.split(separator: "\n").filter { $0.hasPrefix("{\"$collection\"") }
            #expect(index == 0 || !records.isEmpty, "\(context): \(one.stderr)")
        }
    }
}
