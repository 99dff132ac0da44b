import FerryPipeline
import FerrySchemas
import Foundation

extension FuzzDriver {
    /// Runs one input through the whole record path as `domain` (bytes -> reader -> model ->
    /// migration stages -> JSON Lines emitter), and checks the typed path against the `Value` path.
    ///
    /// The bytes are written to a file with no extension, so the format is found by content, as
    /// for a file a user names without one. Each source version (1, then 2) is forced with
    /// `--domain` and `--schema-version`: V1 is migrated to V2, V2 is converted. Each run is made
    /// twice, record by record on the `Value` path (one job, typed path off) and in batches on the
    /// typed path (two jobs), and the two must agree on every diagnostic (severity, code,
    /// message, file, line, column, pointer, record id), on the exit status and on the output
    /// bytes: a difference is a finding (`fatalError` with both sides).
    public static func wholePath(_ bytes: UnsafeRawBufferPointer, domain name: String) {
        guard let domain = Domain(rawValue: name) else { fatalError("unknown domain \(name)") }
        let input = workFolder + "/input"
        guard FileManager.default.createFile(atPath: input, contents: Data(bytes)) else { fatalError("cannot write \(input)") }
        for version in [1, 2] {
            let value = run(input: input, domain: domain, version: version, typed: false)
            let typed = run(input: input, domain: domain, version: version, typed: true)
            if value.diagnostics != typed.diagnostics || value.status != typed.status || value.output != typed.output {
                fatalError("""
                    \(name) v\(version): the typed path and the Value path disagree
                    Value path (\(value.status)): \(value.diagnostics.map(\.description).joined(separator: "\n  "))
                    typed path (\(typed.status)): \(typed.diagnostics.map(\.description).joined(separator: "\n  "))
                    outputs: \(value.output.count) and \(typed.output.count) bytes\(value.output == typed.output ? ", the same" : ", different")
                    """)
            }
        }
    }

    /// One conversion of `input` to JSON Lines at V2; what it reported and wrote.
    private static func run(input: String, domain: Domain, version: Int, typed: Bool)
        -> (diagnostics: [Diagnostic], status: ExitStatus, output: Data)
    {
        let output = workFolder + (typed ? "/typed.jsonl" : "/value.jsonl")
        try? FileManager.default.removeItem(atPath: output)
        var request = ConversionRequest(action: .convert, inputs: [input])
        request.output = output
        request.outputFormat = "jsonl"
        request.domain = domain
        request.sourceVersion = version
        request.targetVersion = 2
        request.usesTypedPath = typed
        request.jobs = typed ? 2 : 1
        let collected = DiagnosticCollector()
        let reports = Converter(registry: .builtIn).run(request) { collected.add($0) }
        let log = DiagnosticLog()
        for diagnostic in collected.diagnostics { log.report(diagnostic) }
        checkPositions(log)
        let status = reports.map(\.status).max() ?? .success
        return (collected.diagnostics, status, FileManager.default.contents(atPath: output) ?? Data())
    }
}

/// Diagnostics as the converter reports them, in order (it reports on the calling thread).
private final class DiagnosticCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Diagnostic] = []
    func add(_ diagnostic: Diagnostic) { lock.lock(); list.append(diagnostic); lock.unlock() }
    var diagnostics: [Diagnostic] { lock.lock(); defer { lock.unlock() }; return list }
}
