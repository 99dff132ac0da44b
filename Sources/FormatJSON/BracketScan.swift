import CByteMasks

/// The state of a scan that pairs brackets outside strings, resumable across reads: it finds
/// where an object or array ends without parsing it (the parser checks everything else).
///
/// Whole 64-byte blocks are scanned with masks (`ByteBlock`): the quotes no backslash escapes
/// open and close strings (a prefix XOR of their mask marks the bytes inside), and only the
/// brackets outside strings are looked at one by one. The bytes after the last whole block are
/// scanned one at a time. Both keep the same state between calls; on valid JSON they agree
/// byte for byte (`BracketScanTests` checks them against each other).
struct BracketScan: Equatable {
    var depth = 0
    var inString = false
    /// True when the next byte is escaped by a backslash.
    var escaped = false

    /// Scans `bytes[from..<to]`: the offset after the bracket that brings the depth back to 0
    /// and true, or `to` and false. After true the state is not to be used again.
    mutating func run(over bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> (Int, Bool) {
        var j = from
        if let base = bytes.baseAddress {
            while to - j >= ByteBlock.size {
                if let end = runBlock(at: UnsafeRawPointer(base + j)) { return (j + end, true) }
                j += ByteBlock.size
            }
        }
        return runBytes(over: bytes, from: j, to: to)
    }

    /// One block: the offset after the closing bracket within it, or nil with the state carried on.
    @inline(__always)
    private mutating func runBlock(at pointer: UnsafeRawPointer) -> Int? {
        let masks = ByteBlock(pointer).jsonMasks
        let escapedBytes = ByteBlock.escaped(by: masks.backslashes, carry: &escaped)
        var inside = ByteBlock.prefixXor(masks.quotes & ~escapedBytes)
        if inString { inside = ~inside }
        inString = inside >> 63 != 0
        var brackets = masks.brackets & ~inside & ~escapedBytes
        while brackets != 0 {
            let bit = brackets.trailingZeroBitCount
            brackets &= brackets &- 1
            let byte = pointer.load(fromByteOffset: bit, as: UInt8.self)
            if byte == JSONSyntax.openBrace || byte == JSONSyntax.openBracket {
                depth += 1
            } else if byte == JSONSyntax.closeBrace || byte == JSONSyntax.closeBracket {
                depth -= 1
                if depth <= 0 { return bit + 1 }
            }
        }
        return nil
    }

    /// The same scan a byte at a time. A backslash escapes the byte after it inside strings and,
    /// as the block scan has it, outside them too (invalid JSON, which the parser rejects at the
    /// backslash before reaching anything the two scans could disagree on).
    mutating func runBytes(over bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> (Int, Bool) {
        var j = from
        while j < to {
            let byte = bytes[j]
            j += 1
            if escaped {
                escaped = false
            } else if inString {
                if byte == JSONSyntax.backslash {
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
            } else if byte == JSONSyntax.backslash {
                escaped = true
            }
        }
        return (j, false)
    }
}

extension JSONSyntax {
    /// The offset past the value whose first byte is at `start` in `bytes`, found without checking
    /// the value against the grammar (for a caller that checks its bytes elsewhere): an object or
    /// array by the bracket scan, a string at its closing quote, any other value at the first byte
    /// that ends a scalar. Nil when the value does not end within `bytes`.
    public static func endOfValue(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case openBrace, openBracket:
            var scan = BracketScan()
            let (end, closed) = scan.run(over: bytes, from: start, to: bytes.count)
            return closed ? end : nil
        case quote:
            var i = start + 1
            while i < bytes.count {
                if bytes[i] == backslash {
                    i += 2
                } else if bytes[i] == quote {
                    return i + 1
                } else {
                    i += 1
                }
            }
            return nil
        default:
            var i = start
            while i < bytes.count, !endsScalar(bytes[i]) { i += 1 }
            return i
        }
    }
}
