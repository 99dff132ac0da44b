import FerryCore

/// Serves bytes a few at a time and counts what it has handed out, to prove readers stream.
final class TrickleSource: ByteSource {
    private let bytes: [UInt8]
    private let step: Int
    private(set) var served = 0
    private(set) var reads = 0

    init(_ bytes: [UInt8], step: Int) {
        self.bytes = bytes
        self.step = step
    }

    convenience init(_ text: String, step: Int) { self.init(Array(text.utf8), step: step) }

    var total: Int { bytes.count }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        reads += 1
        let count = min(step, buffer.count, bytes.count - served)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[served..<(served + count)]))
        }
        served += count
        return count
    }
}

/// Reads every record of a reader.
func drain(_ reader: any RecordReader) throws -> [Record] {
    var records: [Record] = []
    while let record = try reader.next() { records.append(record) }
    return records
}

/// The error `body` throws, as a FerryError, or nil.
func ferryError(_ body: () throws -> Void) -> FerryError? {
    do {
        try body()
        return nil
    } catch let error as FerryError {
        return error
    } catch {
        return FerryError(.internalError, "unexpected error type: \(error)")
    }
}
