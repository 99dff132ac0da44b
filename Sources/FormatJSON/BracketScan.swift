/// The state of a scan that pairs brackets outside strings, resumable across reads.
struct BracketScan {
    var depth = 0
    var inString = false
    var escaped = false

    /// Scans `bytes[from..<to]`: the offset after the bracket that brings the depth back to 0
    /// and true, or `to` and false.
    mutating func run(over bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> (Int, Bool) {
        var j = from
        while j < to {
            let byte = bytes[j]
            j += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == JSONSyntax.backslash {
                    escaped = true
                } else if byte == JSONSyntax.quote {
                    inString = false
                }
            } else if byte == JSONSyntax.quote {
                inString = true
            } else if byte == JSONSyntax.openBrace || byte == JSONSyntax.openBracket {
                depth += 1
            } else if byte == JSONSyntax.closeBrace || byte == JSONSyntax.closeBracket {
                depth -= 1
                if depth <= 0 { return (j, true) }
            }
        }
        return (j, false)
    }
}
