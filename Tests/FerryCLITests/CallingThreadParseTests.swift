import Testing

@testable import FerryPipeline

/// With `--jobs N` the calling thread is one of the N: while the batch it must hand over next is
/// not parsed, it parses that batch itself when no worker has started it, else the latest batch
/// of the window no worker has started (the workers take them from the front), and waits only
/// when every batch is taken (`ParallelConversion.waitParsed`).
@Suite struct CallingThreadParseTests {
    /// A batch of the window: `claimedByWorker` stands for a worker that took it first;
    /// `parsedAfterHelping` makes it parsed once the calling thread has parsed that many others.
    private final class Batch: ClaimedParse {
        let name: String
        var claimed: Bool
        var parsed = false
        var waited = false
        init(_ name: String, claimedByWorker: Bool = false) {
            self.name = name
            self.claimed = claimedByWorker
        }
        func claim() -> Bool {
            if claimed { return false }
            claimed = true
            return true
        }
        var isParsed: Bool { parsed }
        func waitUntilParsed() {
            waited = true
            parsed = true
        }
    }

    @Test func theNextBatchNoWorkerStartedIsParsedHere() {
        let window = [Batch("b0"), Batch("b1"), Batch("b2")]
        var parsedHere: [String] = []
        ParallelConversion.waitParsed(window[0], window: window) { batch in
            parsedHere.append(batch.name)
            batch.parsed = true
        }
        #expect(parsedHere == ["b0"])
        #expect(!window[0].waited)
        #expect(!window[1].claimed && !window[2].claimed)
    }

    @Test func whileAWorkerParsesTheNextTheLatestFreeBatchesAreParsedHere() {
        let window = [Batch("b0", claimedByWorker: true), Batch("b1", claimedByWorker: true), Batch("b2"), Batch("b3")]
        var parsedHere: [String] = []
        ParallelConversion.waitParsed(window[0], window: window) { batch in
            parsedHere.append(batch.name)
            batch.parsed = true
            // The worker finishes the first batch while the second one here is parsed.
            if parsedHere.count == 2 { window[0].parsed = true }
        }
        #expect(parsedHere == ["b3", "b2"])
        #expect(!window[0].waited)
    }

    @Test func withEveryBatchTakenItWaits() {
        let window = [Batch("b0", claimedByWorker: true), Batch("b1", claimedByWorker: true)]
        var parsedHere: [String] = []
        ParallelConversion.waitParsed(window[0], window: window) { parsedHere.append($0.name) }
        #expect(parsedHere.isEmpty)
        #expect(window[0].waited)
    }

    @Test func aBatchAlreadyParsedIsNotWaitedFor() {
        let window = [Batch("b0", claimedByWorker: true), Batch("b1")]
        window[0].parsed = true
        var parsedHere: [String] = []
        ParallelConversion.waitParsed(window[0], window: window) { parsedHere.append($0.name) }
        #expect(parsedHere.isEmpty)
        #expect(!window[0].waited && !window[1].claimed)
    }
}
