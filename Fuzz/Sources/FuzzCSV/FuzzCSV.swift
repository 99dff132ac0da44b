import FuzzSupport

/// libFuzzer entry point: reads the input as CSV to the end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.read(UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size), with: CSVFormatReader())
    return 0
}

/// The executable's entry point (SwiftPM aliases `main` to it): runs libFuzzer on `fuzzCSV`.
@_cdecl("FuzzCSV_main")
public func fuzzCSVMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, fuzzCSV)
}
