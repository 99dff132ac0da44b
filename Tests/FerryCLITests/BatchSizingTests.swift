import FerryCore
import Testing

@testable import FerryPipeline

/// How many records `--jobs` asks its reader for in a batch: about 64 KiB of input (or of output
/// rendered ahead, when more), from the bytes a record took in the batch before, between 128 and
/// 1,024 records.
@Suite struct BatchSizingTests {
    /// A batch that only says how many input bytes it was cut from.
    private final class SizedBatch: RecordBatch {
        let inputBytes: Int
        init(_ inputBytes: Int) { self.inputBytes = inputBytes }
        func parse(offering taker: (any RawRecordTaker)?) {}
    }

    /// The limits asked for, in turn, after batches of (items, bytes), rendering `rendered` bytes each.
    private func limits(after batches: [(items: Int, bytes: Int)], rendered: Int = 0) -> [Int] {
        var sizing = BatchSizing()
        var asked = [sizing.limit]
        for batch in batches {
            sizing.observe(SizedBatch(batch.bytes), items: batch.items, rendered: rendered)
            asked.append(sizing.limit)
        }
        return asked
    }

    @Test func smallRecordsAreTakenManyABatch() {
        // Pet stories in JSON Lines, about 180 bytes a line: 65,536 * 128 / 23,040 = 364.
        #expect(limits(after: [(128, 23_040), (364, 65_520)]) == [128, 364, 364])
        // CSV rows of 40 bytes reach the most.
        #expect(limits(after: [(128, 5_120)]) == [128, 1_024])
    }

    @Test func theOutputRenderedAheadCountsWhenLarger() {
        // Wine notes' CSV rows of 190 bytes rendered as JSON lines of 450: 65,536 * 128 / 57,600 = 145.
        #expect(limits(after: [(128, 24_320)], rendered: 57_600) == [128, 145])
        // Output smaller than the input (JSON Lines to CSV): the input decides.
        #expect(limits(after: [(128, 23_040)], rendered: 9_000) == [128, 364])
    }

    @Test func largeRecordsKeepTheFewest() {
        // Wine notes in XML, about 860 bytes each; a Firestore word book, one record of 1.3 MB.
        #expect(limits(after: [(128, 110_080)]) == [128, 128])
        #expect(limits(after: [(1, 1_300_000)]) == [128, 128])
    }

    @Test func shortOrUnsizedBatchesChangeNothing() {
        // Under half the count asked for (an input's last batch), or of unknown size.
        #expect(limits(after: [(128, 23_040), (100, 400)]) == [128, 364, 364])
        #expect(limits(after: [(128, 0), (0, 5_000)]) == [128, 128, 128])
    }

    @Test func theCountFollowsTheRecords() {
        // Records that grow: the count falls back to what the last full batch says.
        #expect(limits(after: [(128, 23_040), (364, 262_080)]) == [128, 364, 128])
    }
}
