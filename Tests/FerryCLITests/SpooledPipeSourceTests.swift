import FerryCore
import Foundation
import Testing

@testable import FerryPipeline

/// What `SpooledPipeSource` gives: the pipe's bytes unchanged; after `reopen()`, a second reading
/// of every byte from the first, while the first reading goes on with exactly the bytes it had
/// not read; a refusal, the first reading untouched, when the kept bytes or the temporary file
/// fall short.
@Suite struct SpooledPipeSourceTests {
    /// Serves bytes at most `step` at a time, as a pipe does, and counts its reads; throws
    /// `failure` once `failsAfter` bytes were served.
    final class PipeStandIn: ByteSource {
        private let bytes: [UInt8]
        private let step: Int
        private let failsAfter: Int?
        private(set) var served = 0

        init(_ bytes: [UInt8], step: Int = 4096, failsAfter: Int? = nil) {
            self.bytes = bytes
            self.step = step
            self.failsAfter = failsAfter
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            if let failsAfter, served >= failsAfter {
                throw FerryError(.unreadableInput, "read failed: Input/output error", at: SourceLocation(file: "-"))
            }
            let count = min(step, buffer.count, bytes.count - served)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[served..<(served + count)])) }
            served += count
            return count
        }
    }

    /// 300,000 bytes that repeat nowhere near a read's size, so a byte out of place shows.
    static let input: [UInt8] = {
        var state: UInt32 = 12345
        return (0..<300_000).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
    }()

    /// Reads `count` bytes (fewer at the end) in reads of `chunk` bytes.
    static func read(_ source: any ByteSource, chunk: Int, count: Int = .max) throws -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while result.count < count {
            let want = min(chunk, count - result.count)
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want])) }
            if n == 0 { break }
            result += buffer[..<n]
        }
        return result
    }

    static let chunks = [1, 7, 65_536, 1 << 20]

    @Test(arguments: chunks)
    func readsPassThrough(chunk: Int) throws {
        let source = SpooledPipeSource(PipeStandIn(Self.input), name: "-")
        #expect(try Self.read(source, chunk: chunk) == Self.input)
        #expect(try Self.read(source, chunk: chunk) == [])
        #expect(source.refusal == nil)
    }

    /// A second reading asked after `readFirst` bytes gives every byte from the first, however it
    /// is read and whenever; the first reading then goes on with the bytes it had not read.
    @Test(arguments: chunks, [0, 1, 5000, 299_999, 300_000])
    func reopenedMidStreamBothReadingsAreWhole(chunk: Int, readFirst: Int) throws {
        let pipe = PipeStandIn(Self.input, step: 3000)
        let source = SpooledPipeSource(pipe, name: "-", makeSpool: { try SpoolFile(kind: "test") })
        #expect(try Self.read(source, chunk: chunk, count: readFirst) == Array(Self.input[..<readFirst]))
        let again = try source.reopen()
        // The rest of the pipe is in the temporary file: the pipe is not read again.
        #expect(pipe.served == Self.input.count)
        // Half the second reading, then some of the first, then the rest of the second.
        let half = try Self.read(again, chunk: chunk, count: 150_000)
        let next = try Self.read(source, chunk: chunk, count: 10)
        #expect(half + (try Self.read(again, chunk: chunk)) == Self.input)
        #expect(next + (try Self.read(source, chunk: chunk)) == Array(Self.input[readFirst...]))
        // Another reading gives the same bytes again.
        #expect(try Self.read(try source.reopen(), chunk: 65_536) == Self.input)
        #expect(source.refusal == nil)
    }

    /// Up to the limit the bytes are kept; one byte past it, they are dropped and a second reading
    /// is refused, the first going on as before.
    @Test(arguments: [1, 7, 65_536])
    func pastTheLimitASecondReadingIsRefused(chunk: Int) throws {
        let atLimit = SpooledPipeSource(PipeStandIn(Self.input), name: "-", prefixLimit: 1000)
        _ = try Self.read(atLimit, chunk: chunk, count: 1000)
        #expect(try Self.read(try atLimit.reopen(), chunk: chunk) == Self.input)

        let pipe = PipeStandIn(Self.input)
        let past = SpooledPipeSource(pipe, name: "-", prefixLimit: 1000)
        #expect(try Self.read(past, chunk: chunk, count: 1001) == Array(Self.input[..<1001]))
        let served = pipe.served
        let error = #expect(throws: FerryError.self) { try past.reopen() }
        #expect(error?.diagnostic.code == .unreadableInput)
        #expect(past.refusal == .pastKeptPrefix(limit: 1000))
        #expect(pipe.served == served)
        #expect(try Self.read(past, chunk: chunk) == Array(Self.input[1001...]))
    }

    /// Once nothing will read it again (its reader handed on a record; an archive), nothing is kept.
    @Test func afterStopKeepingASecondReadingIsRefused() throws {
        let source = SpooledPipeSource(PipeStandIn(Self.input), name: "-")
        _ = try Self.read(source, chunk: 10, count: 10)
        source.stopKeeping()
        #expect(throws: FerryError.self) { try source.reopen() }
        #expect(source.refusal == .pastKeptPrefix(limit: SpooledPipeSource.defaultPrefixLimit))
        #expect(try Self.read(source, chunk: 4096) == Array(Self.input[10...]))
    }

    /// A pipe that ends within the bound is read ahead into memory: no temporary file is made
    /// (here none could be), and both readings are whole.
    @Test(arguments: chunks)
    func aShortPipeNeedsNoTemporaryFile(chunk: Int) throws {
        let pipe = PipeStandIn(Self.input)
        let source = SpooledPipeSource(pipe, name: "-", makeSpool: {
            throw FerryError(.outputUnwritable, "cannot create a temporary file in /nonexistent: No such file or directory")
        })
        let first = try Self.read(source, chunk: chunk, count: 100)
        let again = try source.reopen()
        #expect(source.refusal == nil)
        #expect(pipe.served == Self.input.count)
        #expect(try Self.read(again, chunk: chunk) == Self.input)
        #expect(first + (try Self.read(source, chunk: chunk)) == Self.input)
    }

    /// Past the bound a temporary file is needed; when none can be made, the second reading is
    /// refused, and the first goes on with every byte, those read ahead first.
    @Test func withoutATemporaryFileTheFirstReadingGoesOn() throws {
        let pipe = PipeStandIn(Self.input)
        let source = SpooledPipeSource(pipe, name: "-", prefixLimit: 1000, makeSpool: {
            throw FerryError(.outputUnwritable, "cannot create a temporary file in /nonexistent: No such file or directory")
        })
        _ = try Self.read(source, chunk: 100, count: 100)
        #expect(throws: FerryError.self) { try source.reopen() }
        #expect(source.refusal == .noTemporaryFile("cannot create a temporary file in /nonexistent: No such file or directory"))
        // One read of the pipe (4,096 bytes) took the input past the 1,000 bytes kept.
        #expect(pipe.served == 100 + 4096)
        #expect(try Self.read(source, chunk: 100) == Array(Self.input[100...]))
        let again = #expect(throws: FerryError.self) { try source.reopen() }
        #expect(again?.diagnostic.message == "it cannot be read again: no temporary file could be made for its rest")
    }

    /// Reading the rest that fails after taking bytes from the pipe (read ahead into memory, or
    /// copied into the temporary file past the bound) leaves no reading that could go on without
    /// them: both say why.
    @Test(arguments: [SpooledPipeSource.defaultPrefixLimit, 1000])
    func aCopyThatFailsStopsTheFirstReadingToo(prefixLimit: Int) throws {
        let source = SpooledPipeSource(PipeStandIn(Self.input, failsAfter: 50_000), name: "-", prefixLimit: prefixLimit,
                                       makeSpool: { try SpoolFile(kind: "test") })
        _ = try Self.read(source, chunk: 100, count: 100)
        #expect(throws: FerryError.self) { try source.reopen() }
        #expect(source.refusal == .copyFailed("read failed: Input/output error"))
        let error = #expect(throws: FerryError.self) { try Self.read(source, chunk: 100) }
        #expect(error?.diagnostic.code == .unreadableInput)
        #expect(error?.diagnostic.message
            == "cannot read on: reading it ahead to read it again failed (read failed: Input/output error)")
        #expect(error?.diagnostic.location.file == "-")
    }

    /// The temporary file has no name from its first moment: nothing is left under `$TMPDIR`.
    @Test func theTemporaryFileLeavesNoName() throws {
        // Past 1,000 bytes kept: the rest goes to a temporary file.
        let source = SpooledPipeSource(PipeStandIn(Self.input), name: "-", prefixLimit: 1000)
        #expect(try Self.read(try source.reopen(), chunk: 65_536) == Self.input)
        #expect(!TemporaryFiles.shared.paths.contains { $0.contains("/ferry-input.ferry-tmp-") })
        let names = try FileManager.default.contentsOfDirectory(atPath: TemporaryFiles.directory)
        #expect(!names.contains { $0.hasPrefix("ferry-input.ferry-tmp-\(getpid())-") })
    }
}
