import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fixed set of worker threads, each taking closures from its own two queues, the urgent one
/// first (work the calling thread is about to wait for goes ahead of read-ahead work), and then
/// from a queue shared by all (`submitToAny`).
///
/// A batch's first job (its parse) goes to whichever worker is free first, so that a slower
/// worker holds back no batch behind it; the job is told that worker's number, and
/// `ParallelConversion` gives the batch's other jobs (preparing its records, letting go of them)
/// to the same worker, so that what a worker allocates is freed on that worker. Memory malloc'd
/// on one thread and freed on another goes back to the first thread's arena under its lock and
/// fills its fast bins, which every larger request then consolidates: with every job on a shared
/// queue that was about a tenth of the CPU of `--jobs 2` on JSON documents, and the records'
/// memory moved between cores.
///
/// When the workers and the thread that starts them outnumber the cores, the workers run at a
/// lower scheduling priority than that thread (`workerNiceIncrement`, on Linux), which is the
/// pipeline's one serial stage.
final class WorkerPool: @unchecked Sendable {
    // @unchecked: the queues and `stopping` are guarded by `condition`.
    private struct Worker {
        var urgent = JobQueue<@Sendable () -> Void>()
        var normal = JobQueue<@Sendable () -> Void>()
    }

    /// One lock for the pool: every worker waits on it for its own jobs or a shared one.
    private let condition = NSCondition()
    private var workers: [Worker]
    /// Jobs for whichever worker is free first (`submitToAny`), each handed that worker's number.
    private var shared = JobQueue<@Sendable (Int) -> Void>()
    private var stopping = false
    /// Entered by each thread as it starts, left as it ends (`stopAndWait`).
    private let running = DispatchGroup()

    /// Runs worker `index`: its urgent jobs, then its others, then shared ones, until stopped with
    /// nothing left.
    private func run(_ index: Int) {
        while true {
            condition.lock()
            var job: (@Sendable () -> Void)? = nil
            var sharedJob: (@Sendable (Int) -> Void)? = nil
            while true {
                if let next = workers[index].urgent.take() ?? workers[index].normal.take() {
                    job = next
                    break
                }
                if let next = shared.take() {
                    sharedJob = next
                    break
                }
                if stopping { break }
                condition.wait()
            }
            condition.unlock()
            if let job {
                job()
            } else if let sharedJob {
                sharedJob(index)
            } else {
                return
            }
        }
    }

    /// Jobs in order (a worker's own, or those shared by all). A job taken is dropped at once,
    /// with what it holds (a batch's bytes and records): the queue may never run empty on a long
    /// input, so it must not keep the jobs it handed out.
    struct JobQueue<Job> {
        private var jobs: [Job?] = []
        private var head = 0

        mutating func append(_ job: Job) { jobs.append(job) }

        mutating func take() -> Job? {
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

    /// How much higher the workers' nice value is than that of the thread starting them (Linux;
    /// capped at 19) when the workers and that thread outnumber the cores. The starting thread
    /// keeps what must stay in input order (cutting batches, ids, writing) and the workers only
    /// wait for it when it falls behind: with more threads than cores, a fair scheduler gives it as
    /// little of a core as each worker, and where it does a third of the work (small records:
    /// pet-story's 182 bytes against a wine note's 452) it then sets the pace while the workers
    /// sleep. At +5 the scheduler's weights give it three quarters of a core it shares with a
    /// worker; the workers still take every cycle it leaves idle.
    static let workerNiceIncrement: Int32 = 5

    /// The nice value for `threads` workers started by the calling thread, or nil to leave theirs
    /// as it is: where it is not known or not per thread (only Linux gives each thread its own),
    /// and where the workers and the calling thread fit on the cores. Then no worker shares a core
    /// with the calling thread, and a lower priority only puts the workers behind the machine's
    /// other processes: with `--jobs 2` on two cores busy with other work, the worker got a
    /// fraction of its core (pet-story's JSON document: 0.67 s against 0.53 s at the same nice
    /// value as the calling thread, medians of 15 runs in turn).
    static func workerNice(threads: Int) -> Int32? {
        #if os(Linux)
        if threads + 1 <= ProcessInfo.processInfo.activeProcessorCount { return nil }
        errno = 0
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        if current == -1, errno != 0 { return nil }
        return min(current + workerNiceIncrement, 19)
        #else
        return nil
        #endif
    }

    /// Sets the calling thread's nice value (Linux: `PRIO_PROCESS` with id 0 names the calling
    /// thread alone, not its process). Failure changes nothing and is not an error.
    private static func setNice(_ nice: Int32) {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
        #endif
    }

    /// Starts `threads` workers (at least one), numbered from 0.
    init(threads: Int) {
        workers = Array(repeating: Worker(), count: max(threads, 1))
        let nice = Self.workerNice(threads: max(threads, 1))
        for index in workers.indices {
            running.enter()
            let thread = Thread { [self] in
                if let nice { Self.setNice(nice) }
                run(index)
                running.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// The number of workers.
    var count: Int { workers.count }

    /// Queues `job` for worker `index` (taken modulo `count`), which runs its jobs one at a time:
    /// `urgent` ones before the others, each kind in the order queued, and both before shared ones.
    /// Without `wakes`, a sleeping worker is not woken for it: it runs the job once it is awake for
    /// another (or the pool stops). Letting go of a batch is such a job: waking a worker that has
    /// nothing to parse only to free a batch was about one wake-up a batch, each a few
    /// microseconds of both threads' time and more of the worker's before it ran again.
    func submit(to index: Int, urgent isUrgent: Bool, wakes: Bool = true, _ job: @escaping @Sendable () -> Void) {
        condition.lock()
        if isUrgent { workers[index % workers.count].urgent.append(job) } else { workers[index % workers.count].normal.append(job) }
        condition.unlock()
        // After the unlock: a worker woken while the lock is held wakes only to wait for it.
        if wakes { condition.broadcast() }
    }

    /// Queues `job` for the first worker free of its own jobs, in the order queued; it is handed
    /// that worker's number (for the jobs that must follow it on the same worker).
    func submitToAny(_ job: @escaping @Sendable (Int) -> Void) {
        condition.lock()
        shared.append(job)
        condition.unlock()
        condition.signal()
    }

    /// Lets the threads end once their queues are empty, and returns once they have: a run that
    /// ends early (an error, a full selection) leaves no thread at work past it, only the jobs
    /// queued before (the parse of the batches read ahead, which nothing takes) run first.
    /// Jobs are never dropped: each batch's parse leaves the group its slot waits on.
    func stopAndWait() {
        stop()
        running.wait()
    }

    /// Lets the threads end once their queues are empty, without waiting for them.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }
}
