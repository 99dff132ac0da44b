#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import FerryCore

/// Records kept in an unlinked temporary file between the CSV writer's two passes (DESIGN.md
/// "Data flow": a writer that needs a second pass spools to a file, never to memory).
///
/// Each record is a varint length and a compact binary encoding of its `Value`. The file is
/// unlinked as soon as it is created, so nothing is left behind, even after a crash.
final class CSVSpool {
    private let descriptor: Int32
    private let sink: FileDescriptorSink
    private var encoded: [UInt8] = []
    private var readBuffer: [UInt8] = []
    private var readStart = 0
    private var source: FileDescriptorSource?

    /// - Throws: `FerryError(.outputUnwritable)` when no temporary file can be made.
    init() throws {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/ferry-csv-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let path = buffer.baseAddress else { return -1 }
            return mkstemp(path)
        }
        guard fd >= 0 else {
            throw FerryError(.outputUnwritable, "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { buffer in
            if let path = buffer.baseAddress { _ = unlink(path) }
        }
        descriptor = fd
        sink = FileDescriptorSink(descriptor: fd, name: "temporary CSV spool")
    }

    deinit { close(descriptor) }

    /// Appends one record.
    func append(_ value: Value) throws {
        encoded.removeAll(keepingCapacity: true)
        CSVSpool.encode(value, into: &encoded)
        var header: [UInt8] = []
        CSVSpool.putVarint(UInt64(encoded.count), into: &header)
        try sink.write(header)
        try sink.write(encoded)
    }

    /// Flushes and moves back to the first record.
    /// Appends one record's bytes as they are (the writer's own encoding).
    func appendRaw(_ bytes: [UInt8]) throws {
        var header: [UInt8] = []
        CSVSpool.putVarint(UInt64(bytes.count), into: &header)
        try sink.write(header)
        try sink.write(bytes)
    }

    /// Calls `body` with the next record's bytes as `appendRaw` took them; false at the end.
    func nextRaw(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Bool {
        guard let length = try readVarint() else { return false }
        try fill(Int(length))
        try readBuffer.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[readStart..<(readStart + Int(length))]))
        }
        readStart += Int(length)
        return true
    }

    /// Reads a varint at `i` of `bytes` (the caller knows it is there).
    static func readVarint(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 || shift >= 63 { return result }
            shift += 7
        }
        return result
    }

    func rewind() throws {
        try sink.flush()
        lseek(descriptor, 0, SEEK_SET)
        source = FileDescriptorSource(descriptor: descriptor, name: "temporary CSV spool", closesOnDeinit: false)
        readBuffer.removeAll()
        readStart = 0
    }

    /// The next record after `rewind()`, or nil at the end.
    func next() throws -> Value? {
        guard let length = try readVarint() else { return nil }
        try fill(Int(length))
        var index = readStart
        let value = try readBuffer.withUnsafeBufferPointer { try CSVSpool.decode($0, &index) }
        readStart += Int(length)
        return value
    }

    private func fill(_ needed: Int) throws {
        guard readBuffer.count - readStart < needed, let source else { return }
        readBuffer.removeSubrange(0..<readStart)
        readStart = 0
        var chunk = [UInt8](repeating: 0, count: max(64 * 1024, needed))
        while readBuffer.count < needed {
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { throw FerryError(.internalError, "the CSV spool file ended early") }
            readBuffer.append(contentsOf: chunk[0..<n])
        }
    }

    private func readVarint() throws -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            if readStart == readBuffer.count {
                do { try fill(1) } catch { if shift == 0 { return nil } else { throw error } }
            }
            let b = readBuffer[readStart]
            readStart += 1
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw FerryError(.internalError, "bad length in the CSV spool file") }
        }
    }

    // MARK: - Encoding

    static func putVarint(_ value: UInt64, into out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    private static func putString(_ s: String, into out: inout [UInt8]) {
        putVarint(UInt64(s.utf8.count), into: &out)
        out.append(contentsOf: s.utf8)
    }

    private static func encode(_ value: Value, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(0)
        case .bool(let b): out.append(b ? 2 : 1)
        case .integer(let i):
            out.append(3)
            putVarint(UInt64(bitPattern: i), into: &out)
        case .double(let d):
            out.append(4)
            putVarint(d.bitPattern, into: &out)
        case .number(let text):
            out.append(5)
            putString(text, into: &out)
        case .string(let text):
            out.append(6)
            putString(text, into: &out)
        case .array(let elements):
            out.append(7)
            putVarint(UInt64(elements.count), into: &out)
            for element in elements { encode(element, into: &out) }
        case .object(let object):
            out.append(8)
            putVarint(UInt64(object.count), into: &out)
            for member in object.members {
                putString(member.key, into: &out)
                encode(member.value, into: &out)
            }
        }
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) throws -> Value {
        func byte() throws -> UInt8 {
            guard i < bytes.count else { throw FerryError(.internalError, "truncated CSV spool record") }
            defer { i += 1 }
            return bytes[i]
        }
        func varint() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let b = try byte()
                result |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { return result }
                shift += 7
                if shift > 63 { throw FerryError(.internalError, "bad varint in the CSV spool") }
            }
        }
        func string() throws -> String {
            let n = Int(try varint())
            guard n <= bytes.count - i else { throw FerryError(.internalError, "truncated CSV spool record") }
            defer { i += n }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<(i + n)]), as: UTF8.self)
        }
        switch try byte() {
        case 0: return .null
        case 1: return .bool(false)
        case 2: return .bool(true)
        case 3: return .integer(Int64(bitPattern: try varint()))
        case 4: return .double(Double(bitPattern: try varint()))
        case 5: return .number(try string())
        case 6: return .string(try string())
        case 7:
            let n = Int(try varint())
            var elements: [Value] = []
            for _ in 0..<n { elements.append(try decode(bytes, &i)) }
            return .array(elements)
        case 8:
            let n = Int(try varint())
            var object = ValueObject()
            for _ in 0..<n {
                let key = try string()
                object.append(key, try decode(bytes, &i))
            }
            return .object(object)
        default:
            throw FerryError(.internalError, "bad tag in the CSV spool")
        }
    }
}
