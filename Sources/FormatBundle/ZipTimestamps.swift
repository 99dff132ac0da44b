import FerryCore

#if canImport(Glibc)
import Glibc
#endif

/// Rewrites the MS-DOS date and time fields of a zip written by libarchive so they hold the
/// member's mtime in UTC.
///
/// Why: the zip format stores that time as local time without a zone (APPNOTE.TXT 4.4.6), and
/// libarchive fills it through `localtime_r`, so the same bundle would differ in four bytes per
/// header between machines in different time zones. Ferry never reads `TZ` (DESIGN.md), and a
/// bundle must be the same bytes wherever it is written. The exact instant stays in the
/// extended-timestamp extra field (`UT`, UTC seconds), which readers prefer, libarchive and
/// Info-ZIP included. The fields sit in the local headers (offset 10) and the central directory
/// headers (offset 12), outside any CRC, so they can be rewritten in place.
enum ZipTimestamps {
    static let localHeaderSignature: UInt32 = 0x0403_4B50
    static let centralHeaderSignature: UInt32 = 0x0201_4B50

    /// The DOS (time, date) of `epochSeconds` in UTC: 2-second resolution, years 1980 to 2107
    /// (earlier instants become 1980-01-01 00:00:00, later ones 2107-12-31 23:59:58).
    static func dosTimeAndDate(epochSeconds: Int64) -> (time: UInt16, date: UInt16) {
        var seconds = time_t(epochSeconds)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return (0, 0x21) }
        let year = Int(parts.tm_year) + 1900
        if year < 1980 { return (0, 0x21) }
        if year > 2107 { return (0xBF7D, 0xFF9F) }
        let time = UInt16(parts.tm_hour) << 11 | UInt16(parts.tm_min) << 5 | UInt16(parts.tm_sec / 2)
        let date = UInt16(year - 1980) << 9 | UInt16(parts.tm_mon + 1) << 5 | UInt16(parts.tm_mday)
        return (time, date)
    }

    /// Rewrites the fields in the finished zip open as `descriptor`.
    /// - Parameters:
    ///   - localHeaders: the offset of every local file header.
    ///   - centralDirectory: the offset where the central directory starts; its headers are
    ///     walked from there.
    ///   - modificationTime: the mtime of every member, seconds since 1970.
    ///   - name: the output's path, for errors.
    /// - Throws: `FerryError(.outputUnwritable)` when the file cannot be read or written,
    ///   `.internalError` when a header is not where it was expected.
    static func rewrite(
        descriptor: Int32, localHeaders: [Int64], centralDirectory: Int64, modificationTime: Int64, name: String
    ) throws {
        let (time, date) = dosTimeAndDate(epochSeconds: modificationTime)
        let fields = [UInt8(time & 0xFF), UInt8(time >> 8), UInt8(date & 0xFF), UInt8(date >> 8)]
        for offset in localHeaders {
            let header = try read(descriptor, at: offset, count: 4, name: name)
            guard littleEndian32(header, 0) == localHeaderSignature else { throw misplaced(offset, name) }
            try write(fields, to: descriptor, at: offset + 10, name: name)
        }
        var end = stat()
        guard fstat(descriptor, &end) == 0 else { throw failure("cannot stat the zip", name) }
        var directory = try read(descriptor, at: centralDirectory, count: Int(Int64(end.st_size) - centralDirectory), name: name)
        var index = 0
        while index + 46 <= directory.count, littleEndian32(directory, index) == centralHeaderSignature {
            directory.replaceSubrange((index + 12)..<(index + 16), with: fields)
            let nameLength = Int(littleEndian16(directory, index + 28))
            let extraLength = Int(littleEndian16(directory, index + 30))
            let commentLength = Int(littleEndian16(directory, index + 32))
            index += 46 + nameLength + extraLength + commentLength
        }
        guard index > 0 || localHeaders.isEmpty else { throw misplaced(centralDirectory, name) }
        try write(Array(directory[0..<index]), to: descriptor, at: centralDirectory, name: name)
    }

    private static func littleEndian16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func littleEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        guard at + 4 <= bytes.count else { return 0 }
        return UInt32(littleEndian16(bytes, at)) | UInt32(littleEndian16(bytes, at + 2)) << 16
    }

    private static func misplaced(_ offset: Int64, _ name: String) -> FerryError {
        FerryError(.internalError, "no zip header at byte offset \(offset) of the archive written",
                   at: SourceLocation(file: name))
    }

    private static func failure(_ what: String, _ name: String) -> FerryError {
        FerryError(.outputUnwritable, "\(what): \(String(cString: strerror(errno)))", at: SourceLocation(file: name))
    }

    private static func read(_ descriptor: Int32, at offset: Int64, count: Int, name: String) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(count, 0))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw failure("cannot read back the zip", name) }
            done += n
        }
        return bytes
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32, at offset: Int64, name: String) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw failure("cannot write the zip", name) }
            done += n
        }
    }
}
