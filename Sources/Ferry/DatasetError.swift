import FerryCore

/// Every diagnostic of an operation that failed: the `cause` of the `FerryError` that
/// `Dataset` and `Records` throw, whose own `diagnostic` is the first error among these.
public struct DiagnosticList: Error, Sendable, CustomStringConvertible {
    /// The diagnostics in the order they were found, errors, warnings and notes alike, exactly
    /// as the command line prints them (`Diagnostic.description`).
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// One diagnostic a line, compiler-style.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

extension FerryError {
    /// The diagnostics an operation found, when it failed on data (`DiagnosticList` as cause),
    /// else this error's own diagnostic alone.
    public var diagnostics: [Diagnostic] {
        (cause as? DiagnosticList)?.diagnostics ?? [diagnostic]
    }

    /// The error for a failed operation: its first error diagnostic, with all of them as cause.
    static func failed(_ diagnostics: [Diagnostic]) -> FerryError {
        let first = diagnostics.first { $0.severity == .error }
            ?? .error(.internalError, "the operation failed without a diagnostic")
        return FerryError(first, cause: DiagnosticList(diagnostics))
    }

    /// `error` as a `FerryError` (a thrown `FerryError` unchanged, anything else an internal error).
    static func wrapping(_ error: any Error) -> FerryError {
        if let error = error as? FerryError { return error }
        return FerryError(.internalError, "unexpected error: \(error)")
    }
}
