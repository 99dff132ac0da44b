import FuzzSupport

/// libFuzzer entry point: reads the input as JSONLines to the end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLines(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.read(UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size), with: JSONLinesFormat.Reader())
    return 0
}

/// The executable's entry point (SwiftPM aliases `main` to it): runs libFuzzer on `fuzzJSONLines`.
@_cdecl("FuzzJSONLines_main")
public func fuzzJSONLinesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, fuzzJSONLines)
}
