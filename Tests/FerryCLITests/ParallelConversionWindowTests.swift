import Testing

@testable import FerryPipeline

/// How many batches `--jobs` cuts ahead of the one being handed over: four a job, and past two
/// no more than half a MB of input a job, so that batches of one large record each (a Firestore
/// word book with its thousands of words) are not held four a job.
@Suite struct ParallelConversionWindowTests {
    /// The batches cut ahead when each holds `batchBytes` bytes of input.
    private func ahead(jobs: Int, batchBytes: Int) -> Int {
        var count = 0
        while ParallelConversion.cutsAnother(inFlight: count, bytes: count * batchBytes, jobs: jobs) { count += 1 }
        return count
    }

    @Test(arguments: [2, 3, 4])
    func batchesOfSmallRecordsFillTheWindow(jobs: Int) {
        // 128 wine notes in XML, the largest of the usual batches, and 128 CSV rows.
        #expect(ahead(jobs: jobs, batchBytes: 115 << 10) == jobs * 4)
        #expect(ahead(jobs: jobs, batchBytes: 24 << 10) == jobs * 4)
    }

    @Test(arguments: [2, 3, 4])
    func batchesOfOneLargeRecordAreHeldTwoAhead(jobs: Int) {
        // A word book of 4,000 words is about 1.3 MB of JSON.
        #expect(ahead(jobs: jobs, batchBytes: 1_300_000) == 2)
    }

    @Test func middleSizedBatchesStopAtTheBudget() {
        // Batches of 300 KB: two jobs' 1 MB is passed with the fourth.
        #expect(ahead(jobs: 2, batchBytes: 300 << 10) == 4)
        #expect(ahead(jobs: 3, batchBytes: 300 << 10) == 6)
    }
}
