#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The name of a temporary file or folder made by a run, and who owns it (DESIGN.md "Safety").
///
/// A name is `BASE.ferry-tmp-PID-START-RANDOM[SUFFIX]`: `BASE` is `.NAME` beside an output or
/// `ferry-KIND` under `$TMPDIR`; `PID` is the owning process, `START` its start time (field 22 of
/// `/proc/PID/stat`, clock ticks since boot; 0 where unknown), so a PID reused by a later process
/// is not mistaken for the owner; `RANDOM` is base-36 (never a `-`). Every field is delimited, so
/// no random text is ever read as a process id.
public struct TemporaryName: Sendable, Equatable {
    /// The marker that starts the ownership fields in every temporary name.
    public static let marker = ".ferry-tmp-"

    /// Who owns a temporary name, as read back from it.
    public enum Owner: Sendable, Equatable {
        /// `PID-START-RANDOM`: this format.
        case process(pid: Int32, startTime: UInt64)
        /// `PID-RANDOM`: the earlier format, without a start time.
        case processWithoutStartTime(pid: Int32)
        /// No owner can be read (a `mkstemp` suffix of an earlier version): never swept.
        case unknown
    }

    /// The owner fields of this process: its PID and start time.
    public static let current = (pid: getpid(), startTime: startTime(of: getpid()) ?? 0)

    /// A fresh name: `base` followed by the marker, this process's fields and a random part.
    /// - Parameters:
    ///   - base: a path without the marker (`/out/.notes.tar`, `/tmp/ferry-bundle`).
    ///   - suffix: appended after the random part.
    public static func make(base: String, suffix: String = "") -> String {
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        return base + marker + "\(current.pid)-\(current.startTime)-" + random + suffix
    }

    /// The owner read from a file name (the last path component), or nil without the marker.
    public static func owner(of name: String) -> Owner? {
        guard let start = fieldsStart(in: name) else { return nil }
        let fields = name[start...].split(separator: "-", omittingEmptySubsequences: false)
        func number<T: FixedWidthInteger>(_ text: Substring) -> T? {
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return T(text)
        }
        if fields.count >= 3, let pid: Int32 = number(fields[0]), let start: UInt64 = number(fields[1]) {
            return .process(pid: pid, startTime: start)
        }
        if fields.count == 2, let pid: Int32 = number(fields[0]) {
            return .processWithoutStartTime(pid: pid)
        }
        return .unknown
    }

    /// The index just past the last marker in `name`, or nil. A byte search: a sweep reads every
    /// name of `$TMPDIR`, and Foundation's backwards `range(of:)` costs tens of thousands of
    /// instructions a name.
    private static func fieldsStart(in name: String) -> String.Index? {
        let bytes = Array(name.utf8), needle = Array(marker.utf8)
        guard bytes.count >= needle.count else { return nil }
        var at = bytes.count - needle.count
        while at >= 0 {
            if bytes[at] == needle[0], bytes[at..<(at + needle.count)].elementsEqual(needle) {
                return name.utf8.index(name.utf8.startIndex, offsetBy: at + needle.count)
            }
            at -= 1
        }
        return nil
    }

    /// Whether `owner` is certainly gone, so what it left may be removed. A process that exists
    /// but cannot be inspected, and a name whose owner cannot be read, count as live.
    public static func isDead(_ owner: Owner) -> Bool {
        switch owner {
        case .unknown:
            return false
        case .processWithoutStartTime(let pid):
            return pid > 0 && !exists(pid)
        case .process(let pid, let startTime):
            guard pid > 0 else { return false }
            guard exists(pid) else { return true }
            // The PID runs: it is the owner unless its start time says it is a later process.
            guard startTime != 0, let actual = Self.startTime(of: pid) else { return false }
            return actual != startTime
        }
    }

    private static func exists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// Field 22 of `/proc/PID/stat` (the process's start time in clock ticks since boot), or nil
    /// where there is no such file. The command name (field 2) may hold spaces and parentheses,
    /// so fields are counted after its last `)`.
    public static func startTime(of pid: Int32) -> UInt64? {
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0, let close = bytes[0..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // After ")": field 3 (state) is the first, so field 22 is the 20th.
        let fields = bytes[(close + 1)..<count].split(separator: UInt8(ascii: " "))
        guard fields.count >= 20 else { return nil }
        return UInt64(String(decoding: fields[19], as: UTF8.self))
    }
}
