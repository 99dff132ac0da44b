import FerryTestSupport
import Foundation
import Testing

/// A compressed tar bundle cut short (a download stopped early): every byte the compressed bytes
/// before the cut decode to is read, so the bundle reads as the plain tar cut at that length: the
/// records of the members before the cut and of the cut member's lines before it are kept under
/// `--lenient`, and one `truncated-archive` error stands at the line and column where the cut
/// member's data ends, naming the compressed stream as what was cut. (libarchive's filters
/// dropped the 64 KiB block they were filling: a small bundle kept nothing, a larger one lost up
/// to 64 KiB before the cut.) Every domain and data format under gzip (`.tar.gz`, `.tgz`), JSON
/// Lines under xz, bzip2 and zstd; each cut with one job or two.
@Suite struct CutCompressedBundleCLITests {
    struct Cell: CustomTestStringConvertible, Sendable {
        var domain: String
        var dataFormat: String
        /// The decompressor's name as the message says it: gzip, xz, bzip2 or zstd.
        var compression: String
        var records: Int
        var testDescription: String { "\(domain) \(dataFormat) \(compression) \(records) records" }
        /// The stream's name in messages (`zstd-frames` is zstd).
        var streamName: String { compression == "zstd-frames" ? "zstd" : compression }
    }

    static let gzipCells = GeneratedDocuments.domains.flatMap { domain in
        ["json", "jsonl", "csv", "xml"].map { Cell(domain: domain, dataFormat: $0, compression: "gzip", records: 40) }
    }

    /// Larger bundles: zstd decodes blocks of up to 128 KiB and `bzip2 -1` blocks of 100 kB whole
    /// or not at all, so a cut keeps whole blocks only, and needs several before it.
    static let otherCells = GeneratedDocuments.domains.flatMap { domain in
        ["xz", "bzip2", "zstd"].map { Cell(domain: domain, dataFormat: "jsonl", compression: $0, records: 1200) }
    }

    @Test(arguments: gzipCells) func aCutGzipBundleReadsAsThePlainTarCutWhereItsBytesEnd(_ cell: Cell) throws {
        try expectCutsReadAsPlainTar(cell)
    }

    @Test(arguments: otherCells) func aCutXZBzip2OrZstdBundleReadsAsThePlainTarCutWhereItsBytesEnd(_ cell: Cell) throws {
        try expectCutsReadAsPlainTar(cell)
    }

    /// A zstd stream of several frames (the tar compressed 16 KiB at a time, as a parallel or
    /// streaming compressor writes it): libarchive's filter kept nothing of it once cut.
    static let zstdFrameCells = GeneratedDocuments.domains.map {
        Cell(domain: $0, dataFormat: "jsonl", compression: "zstd-frames", records: 200)
    }

    @Test(arguments: zstdFrameCells) func aCutZstdBundleOfSeveralFramesReadsAsThePlainTarCutWhereItsBytesEnd(_ cell: Cell) throws {
        try expectCutsReadAsPlainTar(cell)
    }

    /// The compressing command of `compression` (standard output), its file ending, and the
    /// decoder that says how many bytes a cut stream holds: Python's bindings of the same
    /// libraries (zlib, liblzma, libbz2), which hand out all they can decode (`gzip -dc` stops a
    /// byte short of zlib now and then); for zstd the `zstd` tool.
    static func tools(_ compression: String) -> (compress: String, endings: [String], decode: String) {
        switch compression {
        case "xz": return ("xz -c", ["tar.xz"], "lzma.LZMADecompressor().decompress(d)")
        case "bzip2": return ("bzip2 -1 -c", ["tar.bz2"], "bz2.BZ2Decompressor().decompress(d)")
        case "zstd": return ("zstd -q -c", ["tar.zst"], "subprocess.run(['zstd', '-dcq'], input=d, capture_output=True).stdout")
        case "zstd-frames":
            return ("frames() { split -b 16384 \"$1\" part. && for p in part.*; do zstd -q -c \"$p\"; done; }; frames", ["tar.zst"],
                    "subprocess.run(['zstd', '-dcq'], input=d, capture_output=True).stdout")
        default: return ("gzip -n -c", ["tar.gz", "tgz"], "zlib.decompressobj(31).decompress(d)")
        }
    }

    func expectCutsReadAsPlainTar(_ cell: Cell) throws {
        let (compress, endings, decode) = Self.tools(cell.compression)
        guard let shell = toolOnPath("sh"), let python = toolOnPath("python3"),
              toolOnPath(cell.streamName) != nil,
              case let (box, _, _)? = try Sandbox.generated(cell.domain, records: cell.records)
        else {
            print("skipped: sh, python3, \(compress) or the generators are absent")
            return
        }
        let made = try box.ferry(["convert", "v1.json", "--data-format", cell.dataFormat, "-o", "whole.tar", "--quiet"])
        try #require(made.status == 0, "\(made.stderr)")
        let packed = try runTool(shell, ["-c", "\(compress) whole.tar > whole.compressed"], in: box.url)
        try #require(packed.status == 0, "\(packed.output)")
        let tar = TarEditor(bytes: try box.bytes("whole.tar"))
        let compressed = try box.bytes("whole.compressed")
        // How many bytes of the tar each of 31 cuts of the compressed stream holds.
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
        // The cuts whose readable bytes end inside a data member's data (the plain tar then says
        // where in the member): the first, one from the middle and the last of them.
        let members = tar.members.filter { $0.path.hasPrefix("data/") }
        let inside = zip(cuts, readable).filter { _, length in
            members.contains { $0.dataOffset < length && length < $0.dataOffset + $0.size }
        }
        try #require(inside.count >= 2, "\(cell): \(readable)")
        let chosen = [inside[0], inside[inside.count / 2], inside[inside.count - 1]]
        for (index, (cut, length)) in chosen.enumerated() {
            let ending = endings[index % endings.count]
            let name = "cut.\(ending)"
            try box.write(name, bytes: Array(compressed[..<cut]))
            try box.write("cut.tar", bytes: Array(tar.bytes[..<length]))
            let context = "\(cell) \(name) cut at \(cut) of \(compressed.count), \(length) bytes of the tar readable"
            for jobs in ["1", "2"] {
                let plain = try box.ferry(["validate", "cut.tar", "--jobs", jobs])
                try #require(plain.status == 3 && plain.errors.count == 1, "\(context): \(plain.stderr)")
                let expected = plain.errors.map {
                    name + $0.dropFirst("cut.tar".count).replacingOccurrences(
                        of: "truncated tar archive at byte offset \(length), in member",
                        with: "truncated \(cell.streamName) input at byte offset \(length) of the decompressed archive, in member")
                }
                let run = try box.ferry(["validate", name, "--jobs", jobs])
                #expect(run.errors == expected, "\(context) --jobs \(jobs)")
                #expect(run.status == 3, "\(context) --jobs \(jobs)")
            }
            // Under --lenient: the records of the plain tar cut there: past the first cut, records
            // (a small bundle kept none before).
            let (plainOne, _) = try box.ferryByJobs(["convert", "cut.tar", "--to", "jsonl", "--lenient", "-o", "OUT"])
            let (one, two) = try box.ferryByJobs(["convert", name, "--to", "jsonl", "--lenient", "-o", "OUT"])
            #expect(one.status == 3 && two.status == 3, "\(context)")
            #expect(one.output == plainOne.output && two.output == plainOne.output, "\(context)")
            let records = one.output.split(separator: "\n").filter { $0.hasPrefix("{\"$collection\"") }
            #expect(index == 0 || !records.isEmpty, "\(context): \(one.stderr)")
        }
    }
}
