/// The text of CSV cells for the typed path.
enum CSVCellText {
    /// The value of a cell of plain integer text (`-?[0-9]{1,18}`: what `Int64(text)` reads
    /// exactly, as `Value.int64Value` does), nil for anything else.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        let negative = bytes.count > 0 && bytes[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        let digits = bytes.count - i
        guard digits >= 1, digits <= 18 else { return nil }
        var value: Int64 = 0
        while i < bytes.count {
            let digit = bytes[i] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
            i += 1
        }
        return negative ? -value : value
    }

    /// True when `bytes` spell `word` exactly.
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let w = word.utf8Start
        for k in 0..<bytes.count where bytes[k] != w[k] { return false }
        return true
    }
}
