import Dispatch
import FerryPipeline
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Draws a run's progress on standard error (DESIGN.md "Progress"): only when standard error is a
/// terminal, not with `--quiet`, and only once the work has taken a second. Bytes done of bytes
/// expected with a bar, the rate and the time left when the size is known; records done always.
/// No colour, so `NO_COLOR` has nothing to turn off.
public final class ProgressBar: @unchecked Sendable {
    public let meter = ProgressMeter()
    private let timer: any DispatchSourceTimer
    private let start = Date()
    private let lock = NSLock()
    private var visible = false
    private let width: Int

    /// A bar when standard error is a terminal and not `quiet`; nil otherwise.
    public static func make(quiet: Bool) -> ProgressBar? {
        guard !quiet, isatty(2) == 1, ProcessInfo.processInfo.environment["TERM"] != "dumb" else { return nil }
        return ProgressBar()
    }

    private init() {
        var size = winsize()
        width = ioctl(2, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 20 ? Int(size.ws_col) : 80
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 1, repeating: .milliseconds(200))
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
        ProgressBar.current = self
    }

    /// Stops drawing and clears the line.
    public func finish() {
        timer.cancel()
        lock.withLock {
            if visible { StandardError.write("\r\u{1B}[K") }
            visible = false
        }
        ProgressBar.current = nil
    }

    /// Clears the bar's line before other text goes to standard error; the next tick redraws it.
    func clearForText() {
        lock.withLock {
            if visible { StandardError.write("\r\u{1B}[K") }
            visible = false
        }
    }

    nonisolated(unsafe) static weak var current: ProgressBar?

    private func draw() {
        let (bytes, total, records) = meter.snapshot
        let seconds = max(Date().timeIntervalSince(start), 0.001)
        let rate = Double(bytes) / seconds
        var text = "ferry: "
        if total > 0 {
            let fraction = min(1, Double(bytes) / Double(total))
            let barWidth = max(10, min(30, width - 70))
            let filled = Int(fraction * Double(barWidth))
            text += String(format: "%3d%% [", Int(fraction * 100)) + String(repeating: "=", count: filled)
                + (filled < barWidth ? ">" + String(repeating: " ", count: barWidth - filled - 1) : "") + "] "
            text += "\(Self.megabytes(bytes)) of \(Self.megabytes(total)), \(Self.megabytes(Int64(rate)))/s"
            if rate > 0, bytes < total { text += ", \(Self.duration(Double(total - bytes) / rate)) left" }
            text += ", \(records) records"
        } else {
            text += "\(records) records, \(Self.megabytes(bytes)) read, \(Self.megabytes(Int64(rate)))/s"
        }
        lock.withLock {
            StandardError.write("\r\u{1B}[K" + String(text.prefix(width - 1)))
            visible = true
        }
    }

    static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }

    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return total >= 3600 ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
            : String(format: "%d:%02d", total / 60, total % 60)
    }
}
