import FuzzSupport

/// libFuzzer entry point: the input as a vocabulary dataset through the whole record path (read, model,
/// migration, JSON Lines), the typed path checked against the `Value` path (`FuzzDriver.wholePath`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVocabulary(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.wholePath(UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size), domain: "vocabulary")
    return 0
}

/// The executable's entry point (SwiftPM aliases `main` to it): runs libFuzzer on `fuzzVocabulary`.
@_cdecl("FuzzVocabulary_main")
public func fuzzVocabularyMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, fuzzVocabulary)
}
