@_exported import FerryCore
@_exported import FerryFilter
@_exported import FerryFormats
@_exported import FormatBundle
@_exported import FormatCSV
@_exported import FormatJSON
@_exported import FormatXML
import CFuzzer
import Foundation

/// What every fuzz target does with one input: read it to the end, as `ferry validate` would,
/// and let any error be a diagnostic. A trap, a sanitizer report or a hang is the finding.
public enum FuzzDriver {
    /// Runs libFuzzer with the process arguments and `body` as the test function; returns its status.
    public static func run(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
        _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt {
        var count = argc
        var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        return LLVMFuzzerRunDriver(&count, &arguments, body)
    }

    /// Reads `bytes` with `format`'s reader, pulling every record until the end or a thrown `FerryError`.
    public static func read(_ bytes: UnsafeRawBufferPointer, with format: any FormatReader, options: ReadOptions = ReadOptions(fileName: "fuzz")) {
        let log = DiagnosticLog()
        do {
            let reader = try format.makeReader(MemorySource(Array(bytes)), options: options, log: log)
            var count = 0
            while let record = try reader.next() {
                count += 1
                _ = record.value
            }
            _ = reader.header
        } catch is FerryError {
            // A refused input is the expected outcome for most fuzz inputs.
        } catch {
            // Readers promise FerryError only; anything else is a finding.
            fatalError("unexpected error type: \(error)")
        }
        checkPositions(log)
    }

    /// Every diagnostic a reader reports must name the input (issue 8 "every diagnostic has a position").
    public static func checkPositions(_ log: DiagnosticLog) {
        for diagnostic in log.diagnostics where diagnostic.location.file == nil {
            fatalError("diagnostic without a file: \(diagnostic)")
        }
    }

    /// A private folder for targets that need a path (bundles), removed at exit by the caller's run.
    public static let workFolder: String = {
        let path = NSTemporaryDirectory() + "ferry-fuzz-\(getpid())"
        mkdir(path, 0o700)
        atexit { _ = try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "ferry-fuzz-\(getpid())") }
        return path
    }()
}
