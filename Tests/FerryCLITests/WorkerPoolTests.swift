import Foundation
import Testing

@testable import FerryPipeline

/// The worker pool's queues let go of a job as soon as it is taken: on a long input the queue may
/// never run empty, and a job holds a whole batch of records (this once kept every batch alive).
@Suite struct WorkerPoolTests {
    private final class Token: Sendable {}

    @Test func aTakenJobIsReleasedWhileTheQueueStillHoldsOthers() {
        var queue = WorkerPool.JobQueue()
        weak var watched: Token?
        do {
            let token = Token()
            watched = token
            queue.append { _ = token }
        }
        for _ in 0..<200 { queue.append {} }
        #expect(watched != nil)
        var job = queue.take()
        job?()
        job = nil
        #expect(watched == nil)
        #expect(!queue.isEmpty)
        var taken = 0
        while queue.take() != nil { taken += 1 }
        #expect(taken == 200)
        #expect(queue.isEmpty)
    }

    @Test func jobsRunInOrderAcrossCompaction() {
        var queue = WorkerPool.JobQueue()
        let order = Order()
        for index in 0..<300 { queue.append { order.add(index) } }
        var ran = 0
        while let job = queue.take() {
            job()
            ran += 1
            // Keep adding while taking, as the pipeline does.
            if ran < 100 { queue.append { [ran] in order.add(1000 + ran) } }
        }
        #expect(order.values == Array(0..<300) + (1..<100).map { 1000 + $0 })
    }

    private final class Order: @unchecked Sendable {
        // @unchecked: used from one thread.
        var values: [Int] = []
        func add(_ value: Int) { values.append(value) }
    }
}
