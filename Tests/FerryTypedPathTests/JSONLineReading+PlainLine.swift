import FerrySchemas

@testable import FerryTypedPath

extension JSONLineReading {
    /// A reading in a context of `options` with no record.
    convenience init(options: DecodingOptions) {
        self.init(context: .placeless(options))
    }

    /// A reading of JSON lines with the default options, as the typed lane keeps one for a batch
    /// (a new one each time: a reading serves one thread).
    static var plainLine: JSONLineReading { JSONLineReading(options: DecodingOptions()) }
}

extension JSONRecordScan {
    /// `decode(_:reading:)` with a reading of `options` made for the call (the typed lane keeps one
    /// for a batch).
    func decode<T: FieldCodable>(_ type: T.Type, options: DecodingOptions) -> T? {
        decode(T.self, reading: JSONLineReading(options: options))
    }
}
