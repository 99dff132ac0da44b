import CByteMasks
import FerryCore
import FerryTestSupport
import Testing

@testable import FormatJSON

/// The 64-bytes-at-a-time scans (`ByteBlock`) against plain byte-at-a-time ones: the bracket
/// scan ends at the same byte with the same state, and positions count the same lines and
/// columns, on random bytes rich in quotes, backslashes, brackets, line feeds and multi-byte
/// characters, whole and resumed at random cuts.
@Suite struct BracketScanTests {
    /// Random bytes from an alphabet where every byte the scans look at is common, with a
    /// bracket first so that a scan has something to pair.
    private static func text(_ random: inout SplitMix, count: Int) -> [UInt8] {
        let alphabet: [[UInt8]] = [
            [0x22], [0x22], [0x5C], [0x5C], [0x5C, 0x22], [0x7B], [0x7D], [0x5B], [0x5D], [0x0A], [0x20], [0x61],
            [0x59], [0x5F], [0x79], [0x7F], Array("é".utf8), Array("샤".utf8), [0x3A], [0x2C],
        ]
        var bytes: [UInt8] = [random.next(2) == 0 ? 0x7B : 0x5B]
        while bytes.count < count { bytes += alphabet[random.next(alphabet.count)] }
        return bytes
    }

    /// The result and final state of scanning `bytes` from 0 in pieces cut at `cuts`.
    private static func scan(_ bytes: [UInt8], cuts: [Int], blocks: Bool) -> (Int, Bool, BracketScan) {
        var scan = BracketScan()
        var from = 0
        return bytes.withUnsafeBufferPointer { p in
            for to in cuts + [bytes.count] where to >= from {
                let (next, closed) = blocks ? scan.run(over: p, from: from, to: to) : scan.runBytes(over: p, from: from, to: to)
                if closed { return (next, true, BracketScan()) }
                from = next
            }
            return (from, false, scan)
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func blocksAgreeWithBytes(seed: UInt64) {
        var random = SplitMix(seed: seed)
        for round in 0..<400 {
            let bytes = Self.text(&random, count: 1 + random.next(round % 4 == 0 ? 3000 : 300))
            let cuts = (0..<random.next(4)).map { _ in random.next(bytes.count + 1) }.sorted()
            let expected = Self.scan(bytes, cuts: [], blocks: false)
            let got = Self.scan(bytes, cuts: cuts, blocks: true)
            #expect(got.0 == expected.0 && got.1 == expected.1 && got.2 == expected.2,
                    "seed \(seed) round \(round) cuts \(cuts): \(bytes)")
        }
    }

    /// A string of escaped quotes and backslashes across block boundaries, then the close.
    @Test func escapesRunAcrossBlocks() {
        for backslashes in 60...70 {
            let string = "\"" + String(repeating: "\\", count: backslashes) + "\"" + (backslashes % 2 == 0 ? "" : "]\"")
            let text = "[" + string + ", \"}\"]" + String(repeating: " ", count: 64)
            let bytes = Array(text.utf8)
            let close = bytes.count - 64
            #expect(Self.scan(bytes, cuts: [], blocks: true).0 == close, "\(backslashes) backslashes")
            #expect(Self.scan(bytes, cuts: [], blocks: false).0 == close, "\(backslashes) backslashes")
        }
    }

    /// `ByteBlock.advance` over `bytes[from..<to]` gives the position the byte-by-byte count gives.
    static func expectAgreement(_ bytes: [UInt8], from: Int, to: Int, start: TextPosition, _ label: String,
                                sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        bytes.withUnsafeBufferPointer { p in
            #expect(ByteBlock.advance(start, in: p, from: from, to: to) == JSONSyntax.position(in: p, from: from, at: start, to: to),
                    "\(label) \(from)..<\(to)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [7, 8, 9])
    func positionsAgreeWithBytes(seed: UInt64) {
        var random = SplitMix(seed: seed)
        for round in 0..<300 {
            let bytes = Self.text(&random, count: 1 + random.next(round % 3 == 0 ? 2000 : 200))
            let from = random.next(bytes.count)
            let to = from + random.next(bytes.count - from + 1)
            let start = TextPosition(line: 3, column: 5)
            Self.expectAgreement(bytes, from: from, to: to, start: start, "seed \(seed) round \(round)")
        }
    }

    /// Long stretches with no line feed (a compact document), counted a block at a time, with
    /// every byte value that is or is not a UTF-8 continuation byte.
    @Test(arguments: [1, 2, 3])
    func positionsOnLongLinesAgreeWithBytes(seed: UInt64) {
        var random = SplitMix(seed: seed)
        let pieces: [[UInt8]] = [[0x61], [0x20], [0x7F], [0x80], [0xBF], [0xC0], [0xFF], Array("é".utf8), Array("샤".utf8), Array("🍷".utf8)]
        for round in 0..<200 {
            var bytes: [UInt8] = []
            let count = 1 + random.next(1500)
            while bytes.count < count { bytes += pieces[random.next(pieces.count)] }
            if round % 4 == 0 { bytes[random.next(bytes.count)] = 0x0A }
            let from = random.next(bytes.count)
            let to = from + random.next(bytes.count - from + 1)
            let start = TextPosition(line: 2, column: 7)
            Self.expectAgreement(bytes, from: from, to: to, start: start, "seed \(seed) round \(round)")
        }
        var block = [UInt8](repeating: 0x61, count: 64)
        for (offset, byte) in [(0, 0x80), (1, 0xBF), (2, 0xC0), (3, 0x7F), (63, 0x9F)] as [(Int, UInt8)] { block[offset] = byte }
        block.withUnsafeBytes { #expect(ByteBlock($0.baseAddress!).continuationCount() == 3) }
    }

    /// The masks the scans use (SSE2's on x86-64) are those of the portable loops, on blocks of
    /// every byte value and on random blocks rich in the bytes they look for.
    @Test func masksAgreeWithThePortableLoops() {
        var random = SplitMix(seed: 64)
        var blocks: [[UInt8]] = (0..<4).map { quarter in (0..<64).map { UInt8(quarter * 64 + $0) } }
        for _ in 0..<2_000 { blocks.append(Array(Self.text(&random, count: 80).prefix(64))) }
        for block in blocks {
            block.withUnsafeBufferPointer { p in
                let bytes = p.baseAddress!
                let (fast, portable) = (CByteMasks_json(bytes), CByteMasks_jsonPortable(bytes))
                #expect(fast.quotes == portable.quotes && fast.backslashes == portable.backslashes
                    && fast.brackets == portable.brackets, "\(block)")
                for value in [0x0A, 0x22, 0x5C, 0x7B, 0x80, 0xFF] as [UInt8] {
                    #expect(CByteMasks_equal(bytes, value) == CByteMasks_equalPortable(bytes, value), "\(value) \(block)")
                }
                for value in [-64, 0, 1, -128, 127] as [Int8] {
                    #expect(CByteMasks_signedBelow(bytes, value) == CByteMasks_signedBelowPortable(bytes, value), "\(value) \(block)")
                }
                for offset in stride(from: 0, through: 48, by: 16) {
                    let portable = CByteMasks_stringStopsPortable(bytes + offset)
                    #expect(CByteMasks_stringStops(bytes + offset) == portable, "\(offset) \(block)")
                    #expect(CByteMasks_stringStopsWords(bytes + offset) == portable, "\(offset) \(block)")
                }
            }
        }
    }

    /// A string's stops are `"`, `\` and 0x00-0x1F (bits 0-15); bytes from 0x80 are flagged apart
    /// (bits 16-31); 0x20, 0x7F and everything else ASCII is neither.
    @Test func stringStopsNameTheirBytes() {
        let bytes: [UInt8] = [0x61, 0x22, 0x20, 0x5C, 0x1F, 0x00, 0x7F, 0x80, 0xFF, 0xC3, 0xA9, 0x2F, 0x0A, 0x21, 0x23, 0x5B]
        let expected: UInt32 = 0b0001_0000_0011_1010 | 0b0000_0111_1000_0000 << 16
        bytes.withUnsafeBufferPointer { p in
            #expect(CByteMasks_stringStops(p.baseAddress!) == expected)
            #expect(CByteMasks_stringStopsPortable(p.baseAddress!) == expected)
            #expect(CByteMasks_stringStopsWords(p.baseAddress!) == expected)
        }
    }

    @Test func masksNameTheirBytes() {
        var bytes = [UInt8](repeating: 0x61, count: 64)
        for (offset, byte) in [(0, 0x22), (5, 0x7B), (6, 0x5D), (31, 0x0A), (63, 0x22), (40, 0x59)] as [(Int, UInt8)] {
            bytes[offset] = byte
        }
        bytes.withUnsafeBytes { raw in
            let block = ByteBlock(raw.baseAddress!)
            #expect(block.mask(0x22) == (1 | UInt64(1) << 63))
            #expect(block.jsonMasks.brackets == (UInt64(1) << 5 | 1 << 6))
            #expect(block.jsonMasks.quotes == (1 | UInt64(1) << 63) && block.jsonMasks.backslashes == 0)
            #expect(block.count(0x0A) == 1 && block.count(0x5C) == 0)
        }
        #expect(ByteBlock.prefixXor(0b10_1001_0010) == 0b01_1000_1110)
        var carry = false
        // `\\\"x`: the first two escape each other, the third escapes the quote.
        #expect(ByteBlock.escaped(by: 0b0111, carry: &carry) == 0b1010 && !carry)
        carry = true
        #expect(ByteBlock.escaped(by: UInt64(1) << 63 | 1, carry: &carry) == 1 && carry)
    }
}
