import Dispatch
import FerryCore

#if canImport(Glibc)
import Glibc
#endif

/// Process-wide signal policy (DESIGN.md "Safety"): SIGPIPE and SIGXFSZ are ignored so writes
/// fail with EPIPE / EFBIG and are reported as errors; SIGINT and SIGTERM remove the temporary
/// outputs being written and exit 130 / 143.
public enum SignalHandling {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Installs the policy. Call once, first thing in `main`.
    public static func install() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        for (number, status) in [(SIGINT, ExitStatus.interrupted), (SIGTERM, ExitStatus.terminated)] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                OutputCleanup.shared.removeAll()
                _exit(status.rawValue)
            }
            source.resume()
            sources.append(source)
        }
    }
}
