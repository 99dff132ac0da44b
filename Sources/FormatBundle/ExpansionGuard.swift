import FerryCore

/// A source that decompresses what it reads (`CompressedFileSource`, or a source replaying one's
/// first bytes): how many compressed bytes it has consumed, so a tar that arrives already
/// decompressed (standard input sniffed as gzip) still has its expansion checked.
public protocol DecompressingSource: ByteSource {
    /// The compressed bytes consumed so far; nil when the source does not decompress.
    var compressedBytesRead: Int64? { get }
    /// Why the decompressed stream ended before its compressed end (cut short, corrupt), once it
    /// has; nil before, and for decompressors that throw their errors as they come (libarchive's).
    var stop: DecompressionStop? { get }
    /// Makes a cut or corrupt stream end quietly (`read` returns 0 after the bytes before it, and
    /// `stop` says why) instead of throwing: an archive reader above it then reads the bytes
    /// before the cut as those of an archive cut there, and says why it ended from `stop`.
    func endQuietlyAtStop()
}

/// Counts what an archive expands to against what it takes on disk, refusing decompression bombs
/// (a zip or a `.tar.gz` of a gigabyte of zeros in a megabyte) and archives larger in total than
/// the limit. One guard serves one archive scan, tar and zip alike.
///
/// Two checks, both `too-large`:
/// - total: the members' content in bytes, declared and as read, at most `maximumTotal`;
/// - ratio: once more than `allowance` bytes are reached, at most `ratio` bytes of content per
///   byte of input (the whole compressed file when its size is known, else the bytes consumed
///   so far). Deflate reaches about 1032:1 at most on one layer, so a ratio of 250 catches a
///   stream of zeros while leaving real JSON (10 to 30:1) and media (about 1:1) far below.
struct ExpansionGuard {
    let maximumTotal: Int64
    let ratio: Int64
    let allowance: Int64
    /// Content bytes the members admitted so far declared in their headers.
    private(set) var declared: Int64 = 0
    /// Content bytes read so far.
    private(set) var expanded: Int64 = 0

    init(maximumTotal: Int64, ratio: Int64, allowance: Int64) {
        self.maximumTotal = maximumTotal
        self.ratio = ratio
        self.allowance = allowance
    }

    /// Adds a member's declared size before its content is read.
    /// - Parameters:
    ///   - size: the size its header declares.
    ///   - compressedInput: the size of the whole input when it is compressed (a zip, a
    ///     `.tar.gz` file); nil for a plain tar, whose declared sizes past its end mean a
    ///     truncated archive rather than a bomb, or when the size is unknown (standard input).
    /// - Returns: the message of a `too-large` refusal, or nil when the member may be read.
    mutating func admit(declaredSize size: Int64, compressedInput: Int64?) -> String? {
        let total = declared.addingReportingOverflow(size)
        if total.overflow || total.partialValue > maximumTotal {
            return "the members declare more than \(maximumTotal) bytes in all, the limit; "
                + "this one and the rest are not read"
        }
        if let compressedInput, let problem = ratioProblem(total.partialValue, input: compressedInput, what: "declare") {
            return problem
        }
        declared = total.partialValue
        return nil
    }

    /// Counts `count` bytes of content just read.
    /// - Parameter inputBytes: the input's size when known, else the bytes consumed so far.
    /// - Throws: `FerryError(.tooLarge)` past the total or the ratio.
    mutating func count(_ count: Int, inputBytes: Int64) throws {
        expanded += Int64(count)
        if expanded > maximumTotal {
            throw FerryError(.tooLarge, "the members hold more than \(maximumTotal) bytes in all, the limit; "
                + "not read further")
        }
        if let problem = ratioProblem(expanded, input: inputBytes, what: "expand to") {
            throw FerryError(.tooLarge, problem)
        }
    }

    private func ratioProblem(_ content: Int64, input: Int64, what: String) -> String? {
        guard content > allowance else { return nil }
        let product = max(input, 1).multipliedReportingOverflow(by: ratio)
        guard !product.overflow, content > product.partialValue else { return nil }
        return "the members \(what) \(content) bytes from \(input) bytes of archive, more than \(ratio) times "
            + "its size: a decompression bomb; not read further"
    }
}
