import FuzzSupport

/// libFuzzer entry point: reads the input as JSON to the end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.read(UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size), with: JSONFormat.Reader())
    return 0
}

/// The executable's entry point (SwiftPM aliases `main` to it): runs libFuzzer on `fuzzJSON`.
@_cdecl("FuzzJSON_main")
public func fuzzJSONMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, fuzzJSON)
}
