import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Process-wide signal policy (DESIGN.md "Safety"): SIGPIPE and SIGXFSZ are ignored so writes
/// fail with EPIPE / EFBIG and are reported as errors (the failed write ends the run, which cleans
/// up); SIGINT, SIGTERM and SIGHUP remove every temporary file and folder of the run
/// (`TemporaryFiles.removeAll()`) and exit 130 / 143 / 129, unless ignored when ferry started.
///
/// The ending signals are blocked in every thread and taken by one thread waiting in `sigwait`:
/// a dispatch signal source on Linux could lose a signal delivered to a thread that had not
/// blocked it (a run then went on to its end and exit 0).
public enum SignalHandling {
    /// The signals that end a run, with their exit statuses.
    public static let endingSignals: [(signal: Int32, status: ExitStatus)] = [
        (SIGINT, .interrupted), (SIGTERM, .terminated), (SIGHUP, .hangUp),
    ]

    /// Installs the policy. Call once, first thing in `main`, before any other thread starts
    /// (threads inherit the blocked set).
    public static func install() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        var statuses: [Int32: ExitStatus] = [:]
        for (number, status) in endingSignals {
            // One ignored when ferry started (`nohup`, a background job) stays ignored.
            let previous = signal(number, SIG_IGN)
            if let previous, unsafeBitCast(previous, to: Int.self) == 1 { continue }
            signal(number, previous)
            sigaddset(&set, number)
            statuses[number] = status
        }
        guard !statuses.isEmpty else { return }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let waiting = set
        let handled = statuses
        let thread = Thread {
            var set = waiting
            while true {
                var number: Int32 = 0
                guard sigwait(&set, &number) == 0, let status = handled[number] else { continue }
                // Threads still working may fail on a file this removes: what they would say is
                // not news, so standard error goes to /dev/null first.
                let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
                if null >= 0 { dup2(null, 2) }
                TemporaryFiles.shared.removeAll()
                _exit(status.rawValue)
            }
        }
        thread.start()
    }
}
