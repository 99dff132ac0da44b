/// The process exit statuses of DESIGN.md "Exit codes". For many inputs the highest one wins.
public struct ExitStatus: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: done (warnings allowed).
    public static let success = ExitStatus(rawValue: 0)
    /// 1: invalid data, or lossy under `--strict`.
    public static let invalidData = ExitStatus(rawValue: 1)
    /// 2: usage: a bad flag, argument or filter.
    public static let usage = ExitStatus(rawValue: 2)
    /// 3: an input unreadable or malformed.
    public static let malformedInput = ExitStatus(rawValue: 3)
    /// 4: an unknown format, domain or version (or a down-migration).
    public static let unknown = ExitStatus(rawValue: 4)
    /// 5: the output is not writable.
    public static let outputUnwritable = ExitStatus(rawValue: 5)
    /// 70: an internal error (a bug).
    public static let internalError = ExitStatus(rawValue: 70)
    /// 129: ended by SIGHUP (the terminal closed).
    public static let hangUp = ExitStatus(rawValue: 129)
    /// 130: interrupted by SIGINT.
    public static let interrupted = ExitStatus(rawValue: 130)
    /// 143: terminated by SIGTERM.
    public static let terminated = ExitStatus(rawValue: 143)

    public var description: String { String(rawValue) }

    /// Statuses rank by how bad they are: internal errors above everything, then the numeric order.
    public static func < (lhs: ExitStatus, rhs: ExitStatus) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int32 { self == .internalError ? 1000 : rawValue }
}
