/// The text of CSV cells for the typed path.
enum CSVCellText {
    /// True when `bytes` spell `word` exactly.
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let w = word.utf8Start
        for k in 0..<bytes.count where bytes[k] != w[k] { return false }
        return true
    }
}
