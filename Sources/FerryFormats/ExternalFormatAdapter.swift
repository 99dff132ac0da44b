import FerryCore
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A format adapter implemented by an executable `ferry-format-NAME` on PATH (DESIGN.md "External
/// adapters"): `describe` prints `{"name", "extensions", "reads", "writes"}`; `read` turns the format on
/// standard input into JSON Lines records on standard output; `write` does the reverse; each error
/// is a JSON line on standard error: `{"severity", "code", "message", "line", "column"}`.
///
/// An adapter that crashes, stays silent longer than `timeout` seconds, or prints what the protocol
/// does not allow yields an `adapter-failed` diagnostic, never a hang or a partial output.
public struct ExternalFormatAdapter: FormatReader, FormatWriter {
    /// The format name (`toml` for `ferry-format-toml`).
    public let name: String
    /// The executable's path.
    public let executable: String
    /// Seconds of silence after which the adapter is stopped.
    public let timeout: Double
    /// The JSON Lines adapter that speaks the protocol on the pipes.
    let jsonLines: FormatDescriptor

    /// The prefix of adapter executables.
    public static let prefix = "ferry-format-"

    /// Finds every `ferry-format-*` executable on `searchPath` (the `PATH` value) and asks each to
    /// describe itself. Adapters that fail to describe themselves are reported to `log` and left out.
    public static func discover(
        searchPath: String?, timeout: Double, jsonLines: FormatDescriptor, log: DiagnosticLog? = nil
    ) -> [FormatDescriptor] {
        var failed: [String] = []
        return discover(searchPath: searchPath, timeout: timeout, jsonLines: jsonLines, log: log, failed: &failed)
    }

    /// `discover`, also giving the paths of the executables that failed to describe themselves.
    static func discover(
        searchPath: String?, timeout: Double, jsonLines: FormatDescriptor, log: DiagnosticLog?, failed: inout [String]
    ) -> [FormatDescriptor] {
        var seen: Set<String> = []
        var candidates: [String] = []
        for folder in (searchPath ?? "").split(separator: ":").map(String.init) where !folder.isEmpty {
            // Most folders on PATH hold no adapter: their listing is read without making a
            // `String` of every name and sorting them all (a few milliseconds before any record is
            // read, on every run). A folder with a name starting with the prefix's bytes is listed
            // as before.
            guard mayHoldAdapter(folder) else { continue }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names.sorted() where name.hasPrefix(prefix) && !seen.contains(name) {
                let path = folder + "/" + name
                // A folder is searchable (X_OK) but no program: as a shell looks up a command.
                guard access(path, X_OK) == 0, isRegularFile(path) else { continue }
                seen.insert(name)
                candidates.append(path)
            }
        }
        var found: [FormatDescriptor] = []
        for (path, result) in zip(candidates, describeAll(candidates, timeout: timeout, jsonLines: jsonLines)) {
            switch result {
            case .success(let descriptor):
                found.append(descriptor)
            case .failure(let error as FerryError):
                failed.append(path)
                log?.report(error.diagnostic)
            case .failure(let error):
                failed.append(path)
                log?.report(.error(.adapterFailed, "cannot run: \(error)", at: SourceLocation(file: path)))
            }
        }
        return found
    }

    /// True when `path` is a regular file, through symbolic links.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// `describe` of each of `paths`, in their order, all run at once: an adapter that hangs
    /// until the timeout then delays a command by one timeout, not by one for each adapter.
    static func describeAll(_ paths: [String], timeout: Double, jsonLines: FormatDescriptor)
        -> [Result<FormatDescriptor, any Error>]
    {
        guard paths.count > 1 else {
            return paths.map { path in Result { try describe(path, timeout: timeout, jsonLines: jsonLines) } }
        }
        let results = DescribeResults(count: paths.count)
        let group = DispatchGroup()
        for (index, path) in paths.enumerated() {
            group.enter()
            // A thread each, not a queue's: every describe mostly waits on its process, and a
            // pool the width of the cores would run the third after the first two.
            let thread = Thread {
                results.set(index, Result { try describe(path, timeout: timeout, jsonLines: jsonLines) })
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return results.all
    }

    /// False when `folder` can be listed and no name in it starts with the bytes of `prefix` (no
    /// name there can then have it as a `String` prefix: every character of the prefix is ASCII,
    /// which nothing else is canonically equivalent to). True when it cannot be listed this way:
    /// the caller then asks `FileManager`, as it did for every folder.
    static func mayHoldAdapter(_ folder: String) -> Bool {
        guard let directory = opendir(folder) else { return true }
        defer { closedir(directory) }
        let prefixBytes = Array(prefix.utf8)
        errno = 0
        while let entry = readdir(directory) {
            // `d_name` ends with a NUL, which no byte of the prefix is: a shorter name differs there.
            let found = withUnsafeBytes(of: &entry.pointee.d_name) { name in
                zip(name, prefixBytes).allSatisfy { $0 == $1 }
            }
            if found { return true }
        }
        // A listing that failed part way says nothing: asked again the usual way.
        return errno != 0
    }

    /// Runs `describe` and builds the descriptor.
    static func describe(_ path: String, timeout: Double, jsonLines: FormatDescriptor) throws -> FormatDescriptor {
        let run = try AdapterProcess(executable: path, verb: "describe", timeout: timeout)
        // What it says on standard error goes into the failure's message: it is the why.
        let said = DiagnosticLog()
        run.collectErrors(into: said, file: path)
        func failure(_ error: FerryError) -> FerryError {
            guard let first = said.diagnostics.first?.message else { return error }
            var error = error
            error.diagnostic.message += "; " + (first.hasPrefix(path + " ") ? "it" + first.dropFirst(path.count) : first)
            return error
        }
        let output: [UInt8]
        do {
            try run.closeInput()
            output = try run.readAll()
            try run.waitForExit()
        } catch let error as FerryError {
            // Silent past the timeout: stopped, not left running after ferry exits.
            run.terminate()
            throw failure(error)
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(output)) as? [String: Any],
              let name = object["name"] as? String, !name.isEmpty
        else {
            throw failure(FerryError(.adapterFailed, "`describe` did not print {\"name\", \"extensions\", \"reads\", \"writes\"}",
                                     at: SourceLocation(file: path)))
        }
        let extensions = (object["extensions"] as? [String] ?? []).map { $0.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
        let adapter = ExternalFormatAdapter(name: name, executable: path, timeout: timeout, jsonLines: jsonLines)
        return FormatDescriptor(
            name: name, extensions: extensions, summary: "external adapter \(path)",
            reader: (object["reads"] as? Bool ?? false) ? adapter : nil,
            writer: (object["writes"] as? Bool ?? false) ? adapter : nil)
    }

    public func makeReader(_ source: any ByteSource, options: ReadOptions, log: DiagnosticLog) throws -> any RecordReader {
        guard let reader = jsonLines.reader else { throw FerryError(.internalError, "no JSON Lines reader") }
        let process = try AdapterProcess(executable: executable, verb: "read", timeout: timeout)
        process.feed(from: source)
        process.collectErrors(into: log, file: options.fileName)
        var innerOptions = options
        innerOptions.fileName = "\(name) adapter output"
        let protocolLog = DiagnosticLog()
        let inner = try reader.makeReader(process.output, options: innerOptions, log: protocolLog)
        return ExternalRecordReader(inner: inner, process: process, protocolLog: protocolLog, options: options, name: name)
    }

    public func makeWriter(_ sink: any ByteSink, options: WriteOptions) throws -> any RecordWriter {
        guard let writer = jsonLines.writer else { throw FerryError(.internalError, "no JSON Lines writer") }
        let process = try AdapterProcess(executable: executable, verb: "write", timeout: timeout)
        process.drainOutput(into: sink)
        let errors = DiagnosticLog()
        process.collectErrors(into: errors, file: options.fileName)
        let inner = try writer.makeWriter(process.input, options: options)
        return ExternalRecordWriter(inner: inner, process: process, errors: errors, name: name, file: options.fileName)
    }
}

/// Reads records the adapter printed, and turns protocol breaches and crashes into errors.
final class ExternalRecordReader: RecordReader {
    private let inner: any RecordReader
    private let process: AdapterProcess
    private let protocolLog: DiagnosticLog
    private let options: ReadOptions
    private let name: String

    init(inner: any RecordReader, process: AdapterProcess, protocolLog: DiagnosticLog, options: ReadOptions, name: String) {
        self.inner = inner
        self.process = process
        self.protocolLog = protocolLog
        self.options = options
        self.name = name
    }

    var header: DatasetHeader { inner.header }

    // A run that stops reading before the adapter's last record (`ferry head`, a failure) leaves
    // no adapter behind it; one read to its end has exited already.
    deinit { process.terminate() }

    func next() throws -> Record? {
        let record: Record?
        do {
            record = try inner.next()
        } catch let error as FerryError {
            // Stop the adapter whatever went wrong, a silence timeout included: a hung adapter
            // must not outlive the run.
            process.terminate()
            if error.diagnostic.code == .adapterFailed { throw error }
            throw FerryError(.adapterFailed, "the \(name) adapter printed output that is not JSON Lines: \(error.diagnostic.message)",
                             at: options.inputLocation)
        }
        if let breach = protocolLog.diagnostics.first(where: { $0.severity == .error }) {
            process.terminate()
            throw FerryError(.adapterFailed, "the \(name) adapter printed output that is not JSON Lines: \(breach.message)",
                             at: options.inputLocation)
        }
        guard var record else {
            try process.waitForExit()
            return nil
        }
        record.location.file = options.fileName
        record.location.member = options.member
        record.location.line = nil
        record.location.column = nil
        record.locator = nil
        return record
    }
}

/// Feeds records to the adapter's `write` and checks it finished cleanly.
final class ExternalRecordWriter: RecordWriter {
    private let inner: any RecordWriter
    private let process: AdapterProcess
    private let errors: DiagnosticLog
    private let name: String
    private let file: String?

    init(inner: any RecordWriter, process: AdapterProcess, errors: DiagnosticLog, name: String, file: String?) {
        self.inner = inner
        self.process = process
        self.errors = errors
        self.name = name
        self.file = file
    }

    /// The adapter's failure once it stopped reading: said once, by `finish` (a record's write
    /// that threw it was reported with `--lenient` and then again by `finish`), and the same
    /// whichever record the pipe filled up on.
    private var failure: FerryError?

    func write(_ record: Record) throws {
        guard failure == nil else { return }
        do {
            try inner.write(record)
        } catch {
            failure = stoppedReading()
        }
    }

    func finish() throws {
        if let failure { throw failure }
        do {
            try inner.finish()
            try process.closeInput()
        } catch {
            throw stoppedReading()
        }
        // Its own error first: an adapter that explains itself and exits non-zero has said why.
        do { try process.waitForExit() } catch let error as FerryError { throw firstError ?? error }
        if let firstError { throw firstError }
    }

    /// The first error the adapter printed on standard error, as the write's failure: always
    /// `adapter-failed` (exit 3), as a read's failure is, whatever code the adapter gave it. A
    /// write has no record to put a data error on, and its line and column count the JSON Lines
    /// Ferry fed it, not a file the user has: the message and the adapter's code are kept.
    private var firstError: FerryError? {
        guard let said = errors.diagnostics.first(where: { $0.severity == .error }) else { return nil }
        if said.code == .adapterFailed { return FerryError(said) }
        return FerryError(.adapterFailed, "the \(name) adapter could not write: \(said.message) (\(said.code.rawValue))",
                          at: SourceLocation(file: file))
    }

    /// The error of an adapter that closed its input before the last record (most often it
    /// exited): its first error on standard error, else `adapter-failed` with how it ended. It is
    /// the adapter's failure, not the output's: no `output-unwritable` for the broken pipe.
    private func stoppedReading() -> FerryError {
        var ended: FerryError? = nil
        do { try process.waitForExit() } catch let error as FerryError { ended = error } catch {}
        process.terminate()
        // The adapter's own error, as `finish` reports it (its code may be the data's, not a failure).
        if let firstError { return firstError }
        let how = ended.map { "; " + $0.diagnostic.message } ?? ""
        return FerryError(.adapterFailed, "the \(name) adapter stopped reading its input\(how)", at: SourceLocation(file: file))
    }
}

/// The results of describes running on several threads, each set once.
private final class DescribeResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<FormatDescriptor, any Error>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<FormatDescriptor, any Error>) { lock.withLock { results[index] = result } }

    var all: [Result<FormatDescriptor, any Error>] {
        lock.withLock { results.map { $0 ?? .failure(FerryError(.internalError, "an adapter's describe gave no result")) } }
    }
}
