import Foundation

/// A fixed set of worker threads, each taking closures from its own two queues, the urgent one
/// first (work the calling thread is about to wait for goes ahead of read-ahead work).
///
/// Work is given to one worker by number, not to whichever is free: `ParallelConversion` gives
/// every job of a batch (parsing it, preparing its records, letting go of them) to the same
/// worker, so that what a worker allocates is freed on that worker. Memory malloc'd on one thread
/// and freed on another goes back to the first thread's arena under its lock and fills its fast
/// bins, which every larger request then consolidates: with a shared queue that was about a
/// tenth of the CPU of `--jobs 2` on JSON documents, and the records' memory moved between cores.
final class WorkerPool: @unchecked Sendable {
    // @unchecked: a worker's queues and `stopping` are guarded by its `condition`.
    private final class Worker: @unchecked Sendable {
        let condition = NSCondition()
        var urgent = JobQueue()
        var normal = JobQueue()
        var stopping = false

        func run() {
            while true {
                condition.lock()
                while urgent.isEmpty, normal.isEmpty, !stopping { condition.wait() }
                let job = urgent.take() ?? normal.take()
                condition.unlock()
                guard let job else { return }
                job()
            }
        }
    }

    private let workers: [Worker]

    /// Jobs in order. A job taken is dropped at once, with what it holds (a batch's records): the
    /// queue may never run empty on a long input, so it must not keep the jobs it handed out.
    struct JobQueue {
        private var jobs: [(@Sendable () -> Void)?] = []
        private var head = 0

        mutating func append(_ job: @escaping @Sendable () -> Void) { jobs.append(job) }

        mutating func take() -> (@Sendable () -> Void)? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            jobs[head] = nil
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }

        var isEmpty: Bool { head == jobs.count }
    }

    /// Starts `threads` workers (at least one), numbered from 0.
    init(threads: Int) {
        workers = (0..<max(threads, 1)).map { _ in Worker() }
        for worker in workers {
            let thread = Thread { worker.run() }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// The number of workers.
    var count: Int { workers.count }

    /// Queues `job` for worker `index` (taken modulo `count`), which runs its jobs one at a time:
    /// `urgent` ones before the others, each kind in the order queued.
    func submit(to index: Int, urgent isUrgent: Bool, _ job: @escaping @Sendable () -> Void) {
        let worker = workers[index % workers.count]
        worker.condition.lock()
        if isUrgent { worker.urgent.append(job) } else { worker.normal.append(job) }
        worker.condition.signal()
        worker.condition.unlock()
    }

    /// Lets the threads end once their queues are empty.
    func stop() {
        for worker in workers {
            worker.condition.lock()
            worker.stopping = true
            worker.condition.broadcast()
            worker.condition.unlock()
        }
    }
}
