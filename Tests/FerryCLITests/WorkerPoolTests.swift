import Foundation
import Glibc
import Testing

@testable import FerryPipeline

/// The worker pool's queues let go of a job as soon as it is taken: on a long input the queue may
/// never run empty, and a job holds a whole batch of records (this once kept every batch alive).
/// Every job given to one worker runs on that worker's thread, urgent ones first, then shared
/// ones, each told the number of the worker running it: a batch's records are freed on the thread
/// that allocated them.
@Suite struct WorkerPoolTests {
    private final class Token: Sendable {}

    @Test func aTakenJobIsReleasedWhileTheQueueStillHoldsOthers() {
        var queue = WorkerPool.JobQueue<@Sendable () -> Void>()
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

    /// The queue of jobs for any worker lets go of a job once taken too: the calling thread cuts
    /// batches faster than the workers parse some inputs (XML), so that queue seldom runs empty,
    /// and it once kept every batch it handed out until it did (hundreds of MB at 200,000 notes).
    @Test func aSharedJobIsReleasedOnceRunWhileOthersAreStillQueued() {
        let pool = WorkerPool(threads: 1)
        defer { pool.stop() }
        let done = DispatchGroup()
        let busy = HeldWorker(pool, worker: 0, done: done)
        weak var watched: Token?
        let secondStarted = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        do {
            let token = Token()
            watched = token
            done.enter()
            pool.submitToAny { _ in
                _ = token
                done.leave()
            }
        }
        // The second holds the worker while the third waits in the queue behind it.
        done.enter()
        pool.submitToAny { _ in
            secondStarted.signal()
            proceed.wait()
            done.leave()
        }
        done.enter()
        pool.submitToAny { _ in done.leave() }
        #expect(watched != nil)
        busy.release()
        secondStarted.wait()
        // The first ran and the queue still holds the third: the first is gone all the same.
        #expect(watched == nil)
        proceed.signal()
        done.wait()
    }

    @Test func jobsRunInOrderAcrossCompaction() {
        var queue = WorkerPool.JobQueue<@Sendable () -> Void>()
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

    @Test func aWorkersJobsRunOnItsOwnThreadAndNumbersWrapAround() {
        let pool = WorkerPool(threads: 2)
        defer { pool.stop() }
        #expect(pool.count == 2)
        let seen = Seen()
        let done = DispatchGroup()
        for index in 0..<12 {
            done.enter()
            pool.submit(to: index, urgent: index % 3 == 0) {
                seen.add(index, thread: pthread_self())
                done.leave()
            }
        }
        done.wait()
        let threads = seen.threads
        #expect(threads.count == 12)
        // Even numbers went to worker 0, odd ones to worker 1 (numbers wrap around the count).
        #expect(Set((0..<12).filter { $0 % 2 == 0 }.map { threads[$0]! }).count == 1)
        #expect(Set((0..<12).filter { $0 % 2 == 1 }.map { threads[$0]! }).count == 1)
        #expect(threads[0]! != threads[1]!)
        #expect(!threads.values.contains(pthread_self()))
    }

    @Test func aWorkerTakesItsUrgentJobsBeforeItsOthers() {
        let pool = WorkerPool(threads: 2)
        defer { pool.stop() }
        let order = LockedOrder()
        let done = DispatchGroup()
        let busy = HeldWorker(pool, worker: 1, done: done) { order.add(0) }
        // Queued while the worker is busy with the job above.
        for (index, urgent) in [(1, false), (2, true), (3, false), (4, true)] {
            done.enter()
            pool.submit(to: 1, urgent: urgent) {
                order.add(index)
                done.leave()
            }
        }
        busy.release()
        done.wait()
        #expect(order.values == [0, 2, 4, 1, 3])
    }

    @Test func aSharedJobIsToldTheNumberOfTheWorkerRunningIt() {
        let pool = WorkerPool(threads: 2)
        defer { pool.stop() }
        // Each worker's thread, learned from a job given to it by number.
        let seen = Seen()
        let done = DispatchGroup()
        for index in 0..<2 {
            done.enter()
            pool.submit(to: index, urgent: false) {
                seen.add(index, thread: pthread_self())
                done.leave()
            }
        }
        done.wait()
        let workerThreads = seen.threads
        let shared = Seen()
        for job in 0..<40 {
            done.enter()
            pool.submitToAny { worker in
                // Recorded as 100 + job, with the worker's number checked against its thread.
                #expect(workerThreads[worker]! == pthread_self())
                shared.add(100 + job, thread: pthread_self())
                done.leave()
            }
        }
        done.wait()
        #expect(shared.threads.count == 40)
    }

    @Test func aBusyWorkerLeavesSharedJobsToTheFreeOne() {
        let pool = WorkerPool(threads: 2)
        defer { pool.stop() }
        let done = DispatchGroup()
        let busy = HeldWorker(pool, worker: 0, done: done)
        let workers = LockedOrder()
        for _ in 0..<10 {
            done.enter()
            pool.submitToAny { worker in
                workers.add(worker)
                done.leave()
            }
        }
        // Worker 0 is held until every shared job ran: worker 1 ran them all.
        let shared = DispatchGroup()
        shared.enter()
        pool.submitToAny { _ in shared.leave() }
        shared.wait()
        busy.release()
        done.wait()
        #expect(workers.values == Array(repeating: 1, count: 10))
    }

    @Test func aWorkerTakesItsOwnJobsBeforeSharedOnes() {
        let pool = WorkerPool(threads: 1)
        defer { pool.stop() }
        let order = LockedOrder()
        let done = DispatchGroup()
        let busy = HeldWorker(pool, worker: 0, done: done) { order.add(0) }
        done.enter()
        pool.submitToAny { _ in
            order.add(1)
            done.leave()
        }
        done.enter()
        pool.submit(to: 0, urgent: false) {
            order.add(2)
            done.leave()
        }
        done.enter()
        pool.submit(to: 0, urgent: true) {
            order.add(3)
            done.leave()
        }
        busy.release()
        done.wait()
        #expect(order.values == [0, 3, 2, 1])
    }

    /// When the workers and the thread that started the pool outnumber the cores, each worker runs
    /// 5 nice steps below that thread (the serial stage must not get less of a core than a worker);
    /// when they fit, the workers keep its value (a lower one only put them behind other
    /// processes). The starting thread's own value is unchanged either way.
    @Test(arguments: [1, ProcessInfo.processInfo.activeProcessorCount])
    func workersRunFiveNiceStepsAboveTheirStartingThreadOnlyWhenTheyOutnumberTheCores(threads: Int) {
        errno = 0
        let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #expect(errno == 0)
        let pool = WorkerPool(threads: threads)
        defer { pool.stop() }
        let seen = LockedOrder()
        let done = DispatchGroup()
        for worker in 0..<threads {
            done.enter()
            pool.submit(to: worker, urgent: false) {
                seen.add(Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)))
                done.leave()
            }
        }
        done.wait()
        let outnumbered = threads + 1 > ProcessInfo.processInfo.activeProcessorCount
        let expected = outnumbered ? Int(min(before + 5, 19)) : Int(before)
        #expect(seen.values == Array(repeating: expected, count: threads))
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == before)
    }

    /// A job given without waking its worker runs once the worker is awake for another job, before
    /// that one, or when the pool stops.
    @Test func aJobGivenWithoutAWakeRunsWithTheWorkersNextJobOrAtTheStop() {
        let pool = WorkerPool(threads: 1)
        let order = LockedOrder()
        let done = DispatchGroup()
        // The worker is asleep once the first job is done and it found nothing more.
        done.enter()
        pool.submitToAny { _ in done.leave() }
        done.wait()
        usleep(20_000)
        done.enter()
        pool.submit(to: 0, urgent: false, wakes: false) {
            order.add(1)
            done.leave()
        }
        done.enter()
        pool.submitToAny { _ in
            order.add(2)
            done.leave()
        }
        done.wait()
        #expect(order.values == [1, 2])
        let stopped = DispatchSemaphore(value: 0)
        usleep(20_000)
        pool.submit(to: 0, urgent: false, wakes: false) { stopped.signal() }
        pool.stop()
        #expect(stopped.wait(timeout: .now() + 10) == .success)
    }

    /// A worker of `pool` held busy by a job of its own, given and started before `init` returns;
    /// the job runs `then` and leaves `done` once `release()` is called.
    private struct HeldWorker {
        private let proceed = DispatchSemaphore(value: 0)

        init(_ pool: WorkerPool, worker: Int, done: DispatchGroup, then: @escaping @Sendable () -> Void = {}) {
            let started = DispatchSemaphore(value: 0)
            let proceed = proceed
            done.enter()
            pool.submit(to: worker, urgent: false) {
                started.signal()
                proceed.wait()
                then()
                done.leave()
            }
            started.wait()
        }

        func release() { proceed.signal() }
    }

    private final class Order: @unchecked Sendable {
        // @unchecked: used from one thread.
        var values: [Int] = []
        func add(_ value: Int) { values.append(value) }
    }

    private final class LockedOrder: @unchecked Sendable {
        // @unchecked: guarded by `lock`.
        private let lock = NSLock()
        private var added: [Int] = []
        func add(_ value: Int) { lock.withLock { added.append(value) } }
        var values: [Int] { lock.withLock { added } }
    }

    /// The thread each numbered job ran on.
    private final class Seen: @unchecked Sendable {
        // @unchecked: guarded by `lock`.
        private let lock = NSLock()
        private var byIndex: [Int: pthread_t] = [:]
        func add(_ index: Int, thread: pthread_t) { lock.withLock { byIndex[index] = thread } }
        var threads: [Int: pthread_t] { lock.withLock { byIndex } }
    }
}
