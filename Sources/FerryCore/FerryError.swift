/// An error that stops an operation: it carries the diagnostic that explains it.
///
/// Thrown where going on makes no sense (a broken single JSON document, an unreadable file, an
/// unwritable output); problems that let reading go on are reported to a `DiagnosticLog` instead.
public struct FerryError: Error, Sendable, CustomStringConvertible {
    public var diagnostic: Diagnostic
    /// The underlying error (a system call's errno, a C library's message), if any.
    public var cause: (any Error & Sendable)?

    public init(_ diagnostic: Diagnostic, cause: (any Error & Sendable)? = nil) {
        self.diagnostic = diagnostic
        self.cause = cause
    }

    /// An error with a code, a message and a location.
    public init(_ code: Diagnostic.Code, _ message: String, at location: SourceLocation = SourceLocation()) {
        self.init(.error(code, message, at: location))
    }

    public var exitStatus: ExitStatus { diagnostic.code.exitStatus }
    public var description: String { diagnostic.description }
}

/// The cause of a writer's `FerryError` for a record its format cannot hold (a control character
/// in XML, a number JSON cannot write) when nothing of the record reached the output: the output
/// is as it was before the record, so a run that writes the valid records and reports the rest
/// (`--lenient`) can report this one and go on.
public struct RecordLeftOut: Error, Sendable {
    public init() {}
}
