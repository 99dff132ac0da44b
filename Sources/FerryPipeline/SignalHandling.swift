import Dispatch
import FerryCore

#if canImport(Glibc)
import Glibc
#endif

/// Process-wide signal policy (DESIGN.md "Safety"): SIGPIPE and SIGXFSZ are ignored so writes
/// fail with EPIPE / EFBIG and are reported as errors (the failed write ends the run, which cleans
/// up); SIGINT, SIGTERM and SIGHUP remove every temporary file and folder of the run
/// (`TemporaryFiles.removeAll()`) and exit 130 / 143 / 129, unless ignored when ferry started.
public enum SignalHandling {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// The signals that end a run, with their exit statuses.
    public static let endingSignals: [(signal: Int32, status: ExitStatus)] = [
        (SIGINT, .interrupted), (SIGTERM, .terminated), (SIGHUP, .hangUp),
    ]

    /// Installs the policy. Call once, first thing in `main`.
    public static func install() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        for (number, status) in endingSignals {
            // Ignored, so no thread is interrupted: the dispatch source still sees the signal. One
            // ignored when ferry started (`nohup`, a background job) stays ignored.
            let previous = signal(number, SIG_IGN)
            if let previous, unsafeBitCast(previous, to: Int.self) == 1 { continue }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                // Threads still working may fail on a file this removes: what they would say is
                // not news, so standard error goes to /dev/null first.
                let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
                if null >= 0 { dup2(null, 2) }
                TemporaryFiles.shared.removeAll()
                _exit(status.rawValue)
            }
            source.resume()
            sources.append(source)
        }
    }
}
