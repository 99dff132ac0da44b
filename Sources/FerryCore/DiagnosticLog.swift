import Foundation

/// Collects the diagnostics of a run, in the order they were found, with exact counts.
///
/// Readers report recoverable syntax errors here and keep going; validators report every problem.
/// Thread-safe: parallel inputs may share one log.
public final class DiagnosticLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Diagnostic] = []
    private var errors = 0
    private var warnings = 0
    private var worst = ExitStatus.success
    /// Called with each diagnostic as it is reported (the CLI prints as it goes); nil keeps them only.
    private let onReport: (@Sendable (Diagnostic) -> Void)?
    private var rewriter: (@Sendable (Diagnostic) -> Diagnostic)?

    /// A change made to every diagnostic reported from now on, before it is kept or passed on
    /// (the pipeline adds the CSV column name of a field). Nil makes none.
    public var rewrite: (@Sendable (Diagnostic) -> Diagnostic)? {
        get { lock.withLock { rewriter } }
        set { lock.withLock { rewriter = newValue } }
    }

    public init(onReport: (@Sendable (Diagnostic) -> Void)? = nil) {
        self.onReport = onReport
    }

    /// Adds a diagnostic.
    public func report(_ diagnostic: Diagnostic) {
        lock.lock()
        let diagnostic = rewriter?(diagnostic) ?? diagnostic
        stored.append(diagnostic)
        switch diagnostic.severity {
        case .error: errors += 1
        case .warning: warnings += 1
        case .note: break
        }
        worst = max(worst, diagnostic.exitStatus)
        lock.unlock()
        onReport?(diagnostic)
    }

    /// Adds several diagnostics in order.
    public func report(contentsOf diagnostics: some Sequence<Diagnostic>) {
        for diagnostic in diagnostics { report(diagnostic) }
    }

    /// Every diagnostic so far, in the order reported.
    public var diagnostics: [Diagnostic] { lock.withLock { stored } }
    /// The number of errors so far.
    public var errorCount: Int { lock.withLock { errors } }
    /// The number of warnings so far.
    public var warningCount: Int { lock.withLock { warnings } }
    /// True when any error was reported.
    public var hasErrors: Bool { errorCount > 0 }
    /// The highest exit status any error asks for (`.success` when there are none).
    public var exitStatus: ExitStatus { lock.withLock { worst } }
}
