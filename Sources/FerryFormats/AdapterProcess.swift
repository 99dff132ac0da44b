import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One run of an external adapter executable, with its three pipes and a silence timeout.
final class AdapterProcess: @unchecked Sendable {
    private let process = Process()
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let executable: String
    private let verb: String
    private let timeout: Double
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var backgroundError: FerryError?

    /// Standard output, read with the silence timeout.
    let output: PipeSource
    /// Standard input.
    let input: FileDescriptorSink

    /// Starts `executable verb`.
    /// - Throws: `FerryError(.adapterFailed)` when it cannot start.
    init(executable: String, verb: String, timeout: Double) throws {
        self.executable = executable
        self.verb = verb
        self.timeout = timeout
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [verb]
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        output = PipeSource(descriptor: stdoutPipe.fileHandleForReading.fileDescriptor, timeout: timeout, name: executable)
        input = FileDescriptorSink(descriptor: stdinPipe.fileHandleForWriting.fileDescriptor, name: executable, capacity: 64 * 1024)
        // An executable that some process still holds open for writing cannot be run (ETXTBSY):
        // one just installed, or a script another thread of a test or build just wrote while a
        // third forked. That ends within moments. Foundation does not report the errno reliably
        // (posix_spawn returns it rather than setting errno), so any failure to start a file that
        // is still there and executable is tried again a few times, about 0.3 s in all.
        var attempt = 0
        while true {
            do {
                try process.run()
                break
            } catch where attempt < 4 && access(executable, X_OK) == 0 {
                attempt += 1
                usleep(UInt32(10_000 << attempt))
            } catch {
                throw FerryError(.adapterFailed, "cannot start `\(executable) \(verb)`: \(error.localizedDescription)",
                                 at: SourceLocation(file: executable))
            }
        }
    }

    /// Copies `source` to the adapter's standard input on a background thread, then closes it.
    func feed(from source: any ByteSource) {
        group.enter()
        let handoff = Handoff(source)
        DispatchQueue.global().async { [self] in
            let source = handoff.value
            defer { group.leave() }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            do {
                while true {
                    let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                    if n == 0 { break }
                    try buffer.withUnsafeBytes { try input.write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                }
                try input.flush()
            } catch let error as FerryError where error.diagnostic.code == .unreadableInput {
                record(error)
            } catch {
                // The adapter closed its input early; its exit status tells what happened.
            }
            try? stdinPipe.fileHandleForWriting.close()
        }
    }

    /// Copies the adapter's standard output to `sink` on a background thread.
    func drainOutput(into sink: any ByteSink) {
        group.enter()
        let handoff = Handoff(sink)
        DispatchQueue.global().async { [self] in
            let sink = handoff.value
            defer { group.leave() }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            do {
                while true {
                    let n = try buffer.withUnsafeMutableBytes { try output.read(into: $0) }
                    if n == 0 { break }
                    try buffer.withUnsafeBytes { try sink.write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                }
            } catch let error as FerryError {
                record(error)
                terminate()
            } catch {
                terminate()
            }
        }
    }

    /// Reads standard error on a background thread: each JSON line becomes a diagnostic; any other
    /// text is an `adapter-failed` error quoting it.
    func collectErrors(into log: DiagnosticLog, file: String?) {
        group.enter()
        DispatchQueue.global().async { [self] in
            defer { group.leave() }
            let data = stderrPipe.fileHandleForReading.readDataToEndOfFile()
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                log.report(Self.diagnostic(fromLine: String(line), file: file, adapter: executable))
            }
        }
    }

    /// The diagnostic an adapter's error line stands for.
    static func diagnostic(fromLine line: String, file: String?, adapter: String) -> Diagnostic {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let message = object["message"] as? String
        else {
            return .error(.adapterFailed, "\(adapter) printed on standard error: \(line.prefix(200))", at: SourceLocation(file: file))
        }
        let severity = Diagnostic.Severity(rawValue: object["severity"] as? String ?? "error") ?? .error
        let code = Diagnostic.Code(rawValue: object["code"] as? String ?? Diagnostic.Code.adapterFailed.rawValue)
        let location = SourceLocation(file: file, line: object["line"] as? Int, column: object["column"] as? Int)
        return Diagnostic(severity, code, message, at: location)
    }

    /// Closes standard input (the adapter sees the end of its input).
    func closeInput() throws {
        try input.flush()
        try? stdinPipe.fileHandleForWriting.close()
    }

    /// Reads all of standard output (for `describe`).
    func readAll() throws -> [UInt8] { try output.readAll(limit: 1 << 20) }

    /// Waits for the adapter to exit (at most `timeout` seconds) and checks its status.
    /// - Throws: `FerryError(.adapterFailed)` for a timeout, a crash or a non-zero status.
    func waitForExit() throws {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning {
            terminate()
            throw FerryError(.adapterFailed, "`\(executable) \(verb)` did not finish within \(Int(timeout)) s (--adapter-timeout)",
                             at: SourceLocation(file: executable))
        }
        _ = group.wait(timeout: .now() + timeout)
        if let error = lock.withLock({ backgroundError }) { throw error }
        if process.terminationReason == .uncaughtSignal {
            throw FerryError(.adapterFailed, "`\(executable) \(verb)` crashed (signal \(process.terminationStatus))",
                             at: SourceLocation(file: executable))
        }
        if process.terminationStatus != 0 {
            throw FerryError(.adapterFailed, "`\(executable) \(verb)` exited with status \(process.terminationStatus)",
                             at: SourceLocation(file: executable))
        }
    }

    /// Stops the adapter and whatever it started: Foundation starts it as the leader of a process
    /// group of its own, so the group is killed (a shell script's `sleep` outlived its adapter).
    func terminate() {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        if kill(-pid, SIGKILL) != 0 { kill(pid, SIGKILL) }
    }

    private func record(_ error: FerryError) {
        lock.withLock { if backgroundError == nil { backgroundError = error } }
    }
}

/// Reads a pipe, failing when nothing arrives for `timeout` seconds.
final class PipeSource: ByteSource {
    private let descriptor: Int32
    private let timeout: Double
    private let name: String

    init(descriptor: Int32, timeout: Double, name: String) {
        self.descriptor = descriptor
        self.timeout = timeout
        self.name = name
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&poller, 1, Int32(min(timeout * 1000, Double(Int32.max))))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                throw FerryError(.adapterFailed, "\(name) printed nothing for \(Int(timeout)) s (--adapter-timeout)",
                                 at: SourceLocation(file: name))
            }
            let n = Glibc.read(descriptor, base, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                throw FerryError(.adapterFailed, "cannot read from \(name): \(String(cString: strerror(errno)))", at: SourceLocation(file: name))
            }
            return n
        }
    }
}

/// Moves a non-Sendable stream to the one background thread that uses it from then on; the caller
/// never touches it again, so no two threads share it.
private struct Handoff<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
