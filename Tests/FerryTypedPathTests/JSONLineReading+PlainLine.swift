import FerrySchemas

@testable import FerryTypedPath

extension JSONLineReading {
    /// A reading of JSON lines with the default options, as the typed lane keeps one for a batch
    /// (a new one each time: a reading serves one thread).
    static var plainLine: JSONLineReading { JSONLineReading(options: DecodingOptions()) }
}
