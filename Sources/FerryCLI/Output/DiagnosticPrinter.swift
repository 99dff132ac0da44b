import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Prints diagnostics compiler-style on standard error as they are found (DESIGN.md "Errors"),
/// up to `--max-errors`, then says how many it held back. Colour only on a terminal without `NO_COLOR`.
public final class DiagnosticPrinter: @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int?
    private let quiet: Bool
    private let color: Bool
    private var printed = 0
    private var heldBack = 0

    /// - Parameters:
    ///   - limit: the most errors and warnings to print (`--max-errors`); nil prints all.
    ///   - quiet: `--quiet` prints errors only.
    public init(limit: Int?, quiet: Bool) {
        self.limit = limit
        self.quiet = quiet
        self.color = isatty(2) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// Prints one diagnostic (or counts it as held back).
    public func print(_ diagnostic: Diagnostic) {
        if quiet && diagnostic.severity != .error { return }
        lock.lock()
        defer { lock.unlock() }
        if let limit, printed >= limit, diagnostic.severity != .note {
            heldBack += 1
            return
        }
        if diagnostic.severity != .note { printed += 1 }
        ProgressBar.current?.clearForText()
        StandardError.write(render(diagnostic) + "\n")
    }

    /// Says how many diagnostics `--max-errors` held back, if any.
    public func finish() {
        let count = lock.withLock { heldBack }
        if count > 0 {
            StandardError.write("ferry: \(count) more diagnostic\(count == 1 ? "" : "s") held back by --max-errors\n")
        }
    }

    /// The diagnostic's line, in colour on a terminal: the same escaped parts as
    /// `Diagnostic.description`, so colour never lets data through unescaped.
    private func render(_ diagnostic: Diagnostic) -> String {
        guard color else { return diagnostic.description }
        let severityColor: String
        switch diagnostic.severity {
        case .error: severityColor = "\u{1B}[1;31m"
        case .warning: severityColor = "\u{1B}[1;35m"
        case .note: severityColor = "\u{1B}[1;36m"
        }
        var text = "\u{1B}[1m\(diagnostic.headPosition):\u{1B}[0m \(severityColor)\(diagnostic.severity.rawValue):\u{1B}[0m "
        text += "\(diagnostic.body) [\(diagnostic.code.rawValue)]"
        // The excerpt lines (already escaped) follow the coloured line as they do the plain one.
        if let newline = diagnostic.description.firstIndex(of: "\n") {
            text += diagnostic.description[newline...]
        }
        return text
    }
}

/// Unbuffered writes to standard error and standard output.
public enum StandardError {
    public static func write(_ text: String) {
        UnbufferedWrite.all(text, to: 2)
    }
}

enum StandardOutput {
    static func write(_ text: String) {
        UnbufferedWrite.all(text, to: 1)
    }
}

/// `write(2)` of a whole text. A closed pipe (`ferry validate X | head -1`) loses the rest of the
/// text but never stops the program (Foundation's `FileHandle.write` traps on EPIPE): the reader
/// went away on purpose. Any other failure of a write to standard output (a full disk,
/// `> /dev/full`, a file-size limit) is kept in `outputFailure`, and `FerryMain` ends the run
/// with `output-unwritable` (exit 5) instead of the command's own status.
enum UnbufferedWrite {
    private static let lock = NSLock()
    /// The `errno` of the first failed write to standard output other than EPIPE; 0 for none.
    nonisolated(unsafe) private static var failure: Int32 = 0

    /// The `errno` of the first write to standard output that failed for another reason than a
    /// closed pipe, nil when every write succeeded or only the pipe was closed.
    static var outputFailure: Int32? {
        let code = lock.withLock { failure }
        return code == 0 ? nil : code
    }

    /// Forgets a failure (`FerryMain.run` starts each run afresh: tests call it in one process).
    static func resetOutputFailure() {
        lock.withLock { failure = 0 }
    }

    static func all(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    // write(2) returns 0 only for a count of 0; treat it as no space all the same.
                    let code = written < 0 ? errno : ENOSPC
                    if descriptor == 1 && code != EPIPE {
                        lock.withLock { if failure == 0 { failure = code } }
                    }
                    return
                }
            }
        }
    }
}
