import FerryCore
import FormatBundle
import Foundation

/// Reads `CodeFrame`s back from the inputs that diagnostics point into: a plain file (compressed
/// ones decompressed as they were read), or a member of a bundle (tar, zip or folder), one pass
/// over each source however many frames it holds. Only the lines of the frames are kept, each cut
/// to a window of columns, so a single-line document of gigabytes costs a window per diagnostic,
/// not the line.
public struct CodeFrameReader {
    /// Lines shown either side of the diagnostic's line.
    public static let contextLines = 2
    /// Unicode scalars shown of each line.
    public static let windowWidth = 120
    /// Columns shown before the diagnostic's column when the line is cut on the left.
    public static let lead = 40
    /// Columns kept after the diagnostic's column before the window moves right: room for the
    /// value it points at.
    public static let trail = 30

    public init() {}

    /// The frame of each location, in order: nil for a location without a line, in standard input
    /// (it cannot be read twice), or in a source that can no longer be read or lacks the line.
    /// Reading problems are not reported: a frame is an aid, the diagnostic says what is wrong.
    public func frames(for locations: [SourceLocation]) -> [CodeFrame?] {
        var frames = [CodeFrame?](repeating: nil, count: locations.count)
        var groups: [SourceKey: [Int]] = [:]
        var order: [SourceKey] = []
        for (index, location) in locations.enumerated() {
            guard let file = location.file, file != "-", let line = location.line, line >= 1 else { continue }
            let key = SourceKey(file: file, member: location.member)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(index)
        }
        for key in order {
            let indices = groups[key] ?? []
            var scan = WindowScan()
            for index in indices {
                let location = locations[index]
                let start = Self.windowStart(column: location.column)
                for line in max(1, location.line! - Self.contextLines)...(location.line! + Self.contextLines) {
                    scan.want(line: line, start: start)
                }
            }
            guard (try? read(key, into: &scan)) != nil else { continue }
            for index in indices {
                let location = locations[index]
                frames[index] = scan.frame(line: location.line!, column: location.column, start: Self.windowStart(column: location.column))
            }
        }
        return frames
    }

    /// The first column shown for a diagnostic at `column`: 1 while the column fits the window
    /// with `trail` columns after it, else `lead` columns before it.
    static func windowStart(column: Int?) -> Int {
        guard let column, column > windowWidth - trail else { return 1 }
        return column - lead
    }

    private struct SourceKey: Hashable {
        var file: String
        var member: String?
    }

    /// Streams one source through `scan`.
    private func read(_ key: SourceKey, into scan: inout WindowScan) throws {
        var bundle: BundleReader?
        let source: any ByteSource
        if let member = key.member {
            let reader = try BundleReader(path: key.file, log: DiagnosticLog())
            bundle = reader
            source = try reader.open(member)
        } else if Self.compressedExtensions.contains(URL(fileURLWithPath: key.file).pathExtension.lowercased()) {
            source = try CompressedFileSource(path: key.file)
        } else {
            source = try FileDescriptorSource(path: key.file)
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        while !scan.isDone {
            let count = try source.read(into: buffer)
            if count == 0 { break }
            scan.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        scan.finish()
        withExtendedLifetime(bundle) {}
    }

    private static let compressedExtensions: Set<String> = ["gz", "tgz", "zst", "xz", "bz2", "lz4"]
}

/// The lines and column windows wanted from one source, and what was captured of them.
struct WindowScan {
    /// One wanted line: its windows (sorted starts) and the bytes captured for each.
    private struct WantedLine {
        var starts: [Int] = []
        var bytes: [[UInt8]] = []
        /// The line's length in scalars once its end was seen.
        var length: Int?
    }

    private var lines: [Int: WantedLine] = [:]
    private var lastLine = 0
    private var line = 1
    private var column = 0
    private var sawByte = false
    private var previous: UInt8 = 0
    /// The first window of the current line that may still take bytes.
    private var low = 0
    private var current: WantedLine?

    mutating func want(line: Int, start: Int) {
        var wanted = lines[line] ?? WantedLine()
        if !wanted.starts.contains(start) {
            let at = wanted.starts.firstIndex { $0 > start } ?? wanted.starts.count
            wanted.starts.insert(start, at: at)
            wanted.bytes.insert([], at: at)
        }
        lines[line] = wanted
        lastLine = max(lastLine, line)
        if line == 1 { current = wanted }
    }

    /// True once every wanted line was read.
    var isDone: Bool { line > lastLine }

    mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        var index = 0
        let count = chunk.count
        while index < count, line <= lastLine {
            guard current != nil else {
                // A line no frame shows: skip to its end.
                guard let newline = chunk[index...].firstIndex(of: 0x0A) else { return }
                index = newline + 1
                startLine()
                continue
            }
            let byte = chunk[index]
            index += 1
            if byte == 0x0A {
                endLine()
                startLine()
                continue
            }
            sawByte = true
            previous = byte
            if byte & 0xC0 != 0x80 { column += 1 }
            capture(byte)
        }
    }

    /// Appends `byte` (of the scalar at `column`) to every window holding that column.
    private mutating func capture(_ byte: UInt8) {
        let width = CodeFrameReader.windowWidth
        while low < current!.starts.count, column >= current!.starts[low] + width { low += 1 }
        var window = low
        while window < current!.starts.count, current!.starts[window] <= column {
            current!.bytes[window].append(byte)
            window += 1
        }
    }

    /// Records the end of the current line (a CR before its LF dropped).
    private mutating func endLine() {
        guard var wanted = current else { return }
        var length = column
        if previous == 0x0D {
            for window in wanted.starts.indices where wanted.starts[window] <= column && column < wanted.starts[window] + CodeFrameReader.windowWidth {
                wanted.bytes[window].removeLast()
            }
            length -= 1
        }
        wanted.length = length
        lines[line] = wanted
    }

    private mutating func startLine() {
        line += 1
        column = 0
        low = 0
        sawByte = false
        previous = 0
        current = lines[line]
    }

    /// Ends the last line when the source does not end with a line break.
    mutating func finish() {
        if sawByte { endLine() }
        current = nil
    }

    /// The frame of a diagnostic at `line` and `column` whose window starts at `start`; nil when
    /// the source lacks the line.
    func frame(line: Int, column: Int?, start: Int) -> CodeFrame? {
        guard let focus = lines[line], focus.length != nil else { return nil }
        var shown: [CodeFrame.Line] = []
        for number in max(1, line - CodeFrameReader.contextLines)...(line + CodeFrameReader.contextLines) {
            guard let wanted = lines[number], let length = wanted.length,
                  let window = wanted.starts.firstIndex(of: start) else { continue }
            shown.append(CodeFrame.Line(
                number: number, text: String(decoding: wanted.bytes[window], as: UTF8.self),
                clippedBefore: start > 1 && length > 0, clippedAfter: length >= start + CodeFrameReader.windowWidth))
        }
        return CodeFrame(lines: shown, line: line, column: column, firstColumn: start)
    }
}
