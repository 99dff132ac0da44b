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
    /// Which diagnostics `diagnostics` holds; nil holds every one.
    private let keeps: (@Sendable (Diagnostic) -> Bool)?
    private var rewriter: (@Sendable (Diagnostic) -> Diagnostic)?

    /// A change made to every diagnostic reported from now on, before it is kept or passed on
    /// (the pipeline adds the CSV column name of a field). Nil makes none.
    public var rewrite: (@Sendable (Diagnostic) -> Diagnostic)? {
        get { lock.withLock { rewriter } }
        set { lock.withLock { rewriter = newValue } }
    }

    /// - Parameters:
    ///   - onReport: sees every diagnostic as it is reported.
    ///   - keeps: which diagnostics `diagnostics` holds (nil: every one). A caller that prints
    ///     them as they come needs to hold few, so that memory does not grow with a run's
    ///     problems; the counts and the exit status count every one either way.
    public init(onReport: (@Sendable (Diagnostic) -> Void)? = nil, keeps: (@Sendable (Diagnostic) -> Bool)? = nil) {
        self.onReport = onReport
        self.keeps = keeps
    }

    /// Adds a diagnostic.
    public func report(_ diagnostic: Diagnostic) {
        lock.lock()
        let diagnostic = rewriter?(diagnostic) ?? diagnostic
        if keeps?(diagnostic) ?? true { stored.append(diagnostic) }
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

    /// Every diagnostic so far that the log keeps (`keeps`), in the order reported.
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
