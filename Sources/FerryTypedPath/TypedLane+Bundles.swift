import FerryCore
import Foundation

/// Whether a raw record may name a media file of a bundle (`TypedLane`'s `declinesMediaNames`):
/// such a record goes the general path, which counts the media it names as referenced and puts
/// external-storage media back into it.
enum MediaNameScan {
    /// True when `bytes` (a JSON text) may hold a string naming a media file: every media path
    /// starts with `media/` (`DatasetSource.media`), and a `\u` escape could spell it.
    static func mayNameMedia(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        contains(bytes, media) || contains(bytes, unicodeEscape)
    }

    /// True when a cell of `row` may name a media file (a cell's text is the value, unescaped).
    static func mayNameMedia(_ row: RawCSVRow) -> Bool {
        row.cells.contains { contains($0.text, media) }
    }

    private static let media = Array("media".utf8)
    private static let unicodeEscape = Array("\\u".utf8)

    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        needle.withUnsafeBufferPointer { UTF8Text.contains(bytes, $0) }
    }
}

/// The readings of CSV headers a lane was not made for (a bundle's CSV data members: each has
/// its own header), by collection and header, shared by the worker threads.
final class CSVHeaderReadings: @unchecked Sendable {
    // @unchecked: `readings` is only touched under `lock`.
    private let lock = NSLock()
    private var readings: [String: [(columns: [String], reading: CSVModelReading)]] = [:]

    /// The reading of `columns` for `collection`, made by `make` the first time.
    func reading(_ collection: String, _ columns: [String], make: () -> CSVModelReading) -> CSVModelReading {
        lock.lock()
        defer { lock.unlock() }
        if let found = readings[collection]?.first(where: { $0.columns == columns }) { return found.reading }
        let reading = make()
        readings[collection, default: []].append((columns, reading))
        return reading
    }
}
