import CLibXML2
import FerryCore
import Foundation

/// Lines and columns of what the parser just read, counted as libxml2 counts them.
extension XMLSafeParser {
    /// The parser's current line and column (just after what it parsed last).
    var currentPosition: TextPosition {
        guard let input = context?.pointee.input?.pointee else { return TextPosition(line: 1, column: 1) }
        return TextPosition(line: Int(input.line), column: Int(input.col))
    }

    /// `position(backTo: "<")` for a start tag just parsed, in one pass back from the parser's
    /// position for the usual tag, which stands on one line (columns counted in characters as
    /// it counts them); a tag that spans lines is left to it.
    @inline(__always)
    func startTagPosition() -> TextPosition {
        if let input = context?.pointee.input, let cur = input.pointee.cur, let base = input.pointee.base {
            var p = cur
            var scalars = 1  // the `<` itself
            while p > base {
                p -= 1
                let byte = p.pointee
                if byte == 0x3C {
                    return TextPosition(line: Int(input.pointee.line), column: max(1, Int(input.pointee.col) - scalars))
                }
                if byte == 0x0A { break }
                if byte & 0xC0 != 0x80 { scalars += 1 }
            }
        }
        return position(backTo: UInt8(ascii: "<"))
    }

    /// The line and column of the last `target` byte (or of `marker`, when given) before the
    /// parser's current position: the `<` of the start tag just parsed, the `&` of a reference.
    /// libxml2 counts columns in characters, as this does (SCHEMAS.md "Positions").
    func position(backTo target: UInt8, marker: [UInt8]? = nil) -> TextPosition {
        guard let input = context?.pointee.input?.pointee, let cur = input.cur, let base = input.base else {
            return TextPosition(line: 1, column: 1)
        }
        let line = Int(input.line)
        let column = Int(input.col)
        var p = cur
        var found: UnsafePointer<xmlChar>?
        while p > base {
            p -= 1
            if p.pointee == target {
                if let marker {
                    if cur - p >= marker.count, (0..<marker.count).allSatisfy({ p[$0] == marker[$0] }) {
                        found = p
                        break
                    }
                } else {
                    found = p
                    break
                }
            }
        }
        guard let start = found else { return TextPosition(line: line, column: column) }
        var newlines = 0
        var scalars = 0
        var q = start
        while q < cur {
            if q.pointee == 0x0A { newlines += 1 }
            if q.pointee & 0xC0 != 0x80 { scalars += 1 }
            q += 1
        }
        if newlines == 0 { return TextPosition(line: line, column: max(1, column - scalars)) }
        // The tag spans lines: count the characters from the line start before it.
        var lineStart = start
        while lineStart > base, (lineStart - 1).pointee != 0x0A { lineStart -= 1 }
        var before = 0
        q = lineStart
        while q < start {
            if q.pointee & 0xC0 != 0x80 { before += 1 }
            q += 1
        }
        return TextPosition(line: line - newlines, column: before + 1)
    }
}
