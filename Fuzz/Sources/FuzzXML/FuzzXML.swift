import FuzzSupport

/// libFuzzer entry point: reads the input as XML to the end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.read(UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size), with: XMLFormatReader())
    return 0
}

/// The executable's entry point (SwiftPM aliases `main` to it): runs libFuzzer on `fuzzXML`.
@_cdecl("FuzzXML_main")
public func fuzzXMLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, fuzzXML)
}
