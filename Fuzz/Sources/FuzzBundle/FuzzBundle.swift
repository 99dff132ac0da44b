import Foundation
import FuzzSupport

/// The temporary archive each input is written to (BundleReader reads paths, not memory).
private let archivePath = FuzzDriver.workFolder + "/input.tar"

/// libFuzzer entry point: writes the input to a temporary file and reads it as a bundle: the scan
/// pass (paths, sizes, checksums, manifest), every data member's records, then verification.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBundle(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let fd = open(archivePath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { fatalError("cannot write \(archivePath)") }
    var written = 0
    while let data, written < size {
        let n = write(fd, data + written, size - written)
        guard n > 0 else { fatalError("cannot write \(archivePath)") }
        written += n
    }
    close(fd)
    let log = DiagnosticLog()
    do {
        let options = BundleReader.Options(maximumMemberSize: 1 << 20, maximumManifestSize: 1 << 20)
        let bundle = try BundleReader(path: archivePath, options: options, log: log)
        let reader = try bundle.makeRecordReader(
            registry: .builtIn, options: ReadOptions(fileName: archivePath), log: log)
        var counts: [String: Int] = [:]
        while let record = try reader.next() {
            counts[record.collection ?? "", default: 0] += 1
        }
        bundle.verify(referencedMedia: [], recordCounts: counts, log: log)
    } catch is FerryError {
        // Refused: the expected outcome for most inputs.
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    FuzzDriver.checkPositions(log)
    return 0
}

/// The executable's entry point (SwiftPM aliases `main` to it): runs libFuzzer on `fuzzBundle`.
@_cdecl("FuzzBundle_main")
public func fuzzBundleMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, fuzzBundle)
}
