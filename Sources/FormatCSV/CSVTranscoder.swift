import FerryCore

/// A `ByteSource` that reads another source in a non-UTF-8 encoding and serves UTF-8, chunk by
/// chunk, with memory bounded by the chunk size.
///
/// Errors: an unpaired UTF-16 surrogate or a trailing odd byte throws `FerryError(.invalidEncoding)`
/// naming the line, the column and the byte offset in the input (SCHEMAS.md "Values: Strings").
final class CSVTranscoder: ByteSource {
    private let source: any ByteSource
    private let encoding: CSVEncoding
    private var littleEndian: Bool
    /// Raw bytes read but not yet transcoded (`prefix` first, then chunks from `source`).
    private var raw: [UInt8]
    private var rawStart = 0
    private var sourceDone = false
    /// UTF-8 produced but not yet served.
    private var output: [UInt8] = []
    private var outputStart = 0
    /// Byte offset in the raw input of `raw[rawStart]`.
    private var rawOffset: Int
    /// A high surrogate waiting for its low half, with the raw offset where it stood.
    private var pendingHigh: (unit: UInt16, offset: Int)?
    private var line = 1
    private var column = 1
    private let location: SourceLocation

    /// - Parameters:
    ///   - prefix: bytes already read from `source` (after any BOM).
    ///   - prefixOffset: the raw byte offset of `prefix[0]` (the BOM's length).
    ///   - littleEndian: the UTF-16 byte order; ignored for single-byte encodings.
    init(source: any ByteSource, encoding: CSVEncoding, littleEndian: Bool, prefix: [UInt8], prefixOffset: Int,
         location: SourceLocation) {
        self.source = source
        self.encoding = encoding
        self.littleEndian = littleEndian
        self.raw = prefix
        self.rawOffset = prefixOffset
        self.location = location
    }

    var endsAtCut: Bool { source.endsAtCut }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while outputStart == output.count {
            output.removeAll(keepingCapacity: true)
            outputStart = 0
            try transcodeAvailable()
            if outputStart < output.count { break }
            // Nothing decodable left (none, or half a UTF-16 unit, or a lone high surrogate).
            if sourceDone { return try finishInput() }
            try refillRaw()
        }
        let count = min(buffer.count, output.count - outputStart)
        output.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[outputStart..<(outputStart + count)]))
        }
        outputStart += count
        return count
    }

    private func refillRaw() throws {
        if rawStart > 0 {
            raw.removeSubrange(0..<rawStart)
            rawOffset += rawStart
            rawStart = 0
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
        if n == 0 {
            sourceDone = true
        } else {
            raw.append(contentsOf: chunk[0..<n])
        }
    }

    private func finishInput() throws -> Int {
        if rawStart < raw.count {
            throw error("the input ends inside a UTF-16 code unit (an odd number of bytes)", offset: rawOffset + rawStart)
        }
        if let high = pendingHigh {
            throw error("unpaired UTF-16 surrogate 0x\(String(high.unit, radix: 16, uppercase: true))", offset: high.offset)
        }
        return 0
    }

    private func transcodeAvailable() throws {
        switch encoding {
        case .latin1, .windows1252:
            while rawStart < raw.count {
                let byte = raw[rawStart]
                rawStart += 1
                let scalar: UInt32 = encoding == .windows1252 && byte >= 0x80 && byte <= 0x9F
                    ? CSVTranscoder.windows1252High[Int(byte - 0x80)] : UInt32(byte)
                emit(scalar)
            }
        case .utf16, .utf16LE, .utf16BE, .utf8:
            while raw.count - rawStart >= 2 {
                let a = UInt16(raw[rawStart]), b = UInt16(raw[rawStart + 1])
                let unit = littleEndian ? (a | b << 8) : (a << 8 | b)
                let offset = rawOffset + rawStart
                rawStart += 2
                if let high = pendingHigh {
                    guard unit >= 0xDC00 && unit <= 0xDFFF else {
                        throw error("unpaired UTF-16 surrogate 0x\(String(high.unit, radix: 16, uppercase: true))",
                                    offset: high.offset)
                    }
                    pendingHigh = nil
                    emit(0x10000 + (UInt32(high.unit - 0xD800) << 10) + UInt32(unit - 0xDC00))
                } else if unit >= 0xD800 && unit <= 0xDBFF {
                    pendingHigh = (unit, offset)
                } else if unit >= 0xDC00 && unit <= 0xDFFF {
                    throw error("unpaired UTF-16 surrogate 0x\(String(unit, radix: 16, uppercase: true))", offset: offset)
                } else {
                    emit(UInt32(unit))
                }
            }
        }
    }

    private func emit(_ scalar: UInt32) {
        if scalar == 0x0A {
            line += 1
            column = 1
        } else {
            column += 1
        }
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    private func error(_ message: String, offset: Int) -> FerryError {
        var at = location
        at.line = line
        at.column = column
        return FerryError(.invalidEncoding, "\(message) at byte offset \(offset) (\(encoding.rawValue) input)", at: at)
    }

    /// Code points of bytes 0x80...0x9F in Windows-1252 (WHATWG index-windows-1252).
    static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
