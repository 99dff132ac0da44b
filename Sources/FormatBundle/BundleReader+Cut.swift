import FerryCore
import Glibc

/// A tar cut inside a member's data: the bytes before the cut are kept, a data member's records
/// up to the cut are read, and the cut is reported once, at the line and column where the
/// member's bytes end. What the member's content reader then says of its own end (a JSON
/// document, a JSON Lines line, an XML element or a CSV row left open) only repeats the cut and
/// is not reported (`BundleRecordReader`).
extension BundleReader {
    /// Thrown by the scan when the archive ends inside a member's data: how many bytes came
    /// before the cut, their digest (finished), and libarchive's `truncated-archive` error.
    struct MemberDataCut: Error {
        var size: Int64
        var digest: PendingDigest
        var error: FerryError
    }

    /// Reports the cut the scan met inside a member (`pendingCut`): for a data member, at the line
    /// and column where its bytes before the cut end, which `cutMember` keeps; for any other
    /// member (media, a tag file), at the member.
    func reportCut(log: DiagnosticLog) {
        guard let cut = pendingCut else { return }
        pendingCut = nil
        var diagnostic = cut.error.diagnostic
        diagnostic.location = location(cut.member)
        if dataPlan().contains(where: { $0.member == cut.member }), let (end, lastLine) = Self.endPosition(ofFile: cut.file) {
            diagnostic.location.position = end
            diagnostic.message += ": the member's data ends here; its records before the cut are read"
            cutMember = (cut.member, lastLine)
        }
        log.report(diagnostic)
    }

    /// The line and column just past the last byte of the file at `path` (lines end at LF, a
    /// CRLF's CR being the last column of its line; columns count Unicode scalars, as the content
    /// readers count them), and the line of that last byte (the one before when it is an LF: a
    /// reader may place what it says of the end there). Nil when the file cannot be read.
    static func endPosition(ofFile path: String) -> (end: TextPosition, lastLine: Int)? {
        let descriptor = Glibc.open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { Glibc.close(descriptor) }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
        defer { buffer.deallocate() }
        var position = TextPosition(line: 1, column: 1)
        while true {
            let n = Glibc.read(descriptor, buffer, 1 << 16)
            if n < 0 { return nil }
            if n == 0 { return (position, position.column == 1 ? max(position.line - 1, 1) : position.line) }
            for byte in UnsafeBufferPointer(start: buffer, count: n) {
                if byte == 0x0A {
                    position.line += 1
                    position.column = 1
                } else if byte & 0xC0 != 0x80 {
                    // Not a UTF-8 continuation byte: a scalar starts here.
                    position.column += 1
                }
            }
        }
    }

    /// True for what a content reader says of the end of the member the archive is cut inside
    /// (`lastLine`: the line of its last byte, `cutMember`; nil for any other member): an error
    /// of malformed input on that line or past it, or with no position. The cut is reported
    /// already.
    public static func echoesCut(_ diagnostic: Diagnostic, lastLine: Int?) -> Bool {
        guard let lastLine, diagnostic.exitStatus == .malformedInput else { return false }
        guard let line = diagnostic.location.line else { return true }
        return line >= lastLine
    }

    /// True when the plain tar file at `path` does not end with the end-of-archive marker: two
    /// 512-byte blocks of zeros, then only zero padding (POSIX ustar). libarchive accepts a tar
    /// that ends at a header boundary without them (some writers omit them), so a tar cut between
    /// two members would otherwise read as whole, its later members missing without a word.
    static func tarLacksEndMarker(_ path: String, size: Int64) -> Bool {
        guard size >= 1024 else { return size > 0 }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var tail = [UInt8](repeating: 0, count: 1024)
        let read = tail.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 1024, off_t(size - 1024)) }
        return read == 1024 && tail.contains { $0 != 0 }
    }

    /// A tar without its end-of-archive blocks whose manifest lists members it lacks was cut
    /// between two members: say so once (`truncated-archive`) instead of each absent member. A
    /// tar that lacks the blocks but holds everything listed was written that way, and is read.
    func reportCutBetweenMembers(log: DiagnosticLog) {
        guard !isCutShort, let manifest, let cut = tarEndsWithoutMarker else { return }
        let listed = manifest.collections.map(\.path) + manifest.files.map(\.path)
        guard listed.contains(where: { fileIndex[$0] == nil }) else { return }
        log.report(cut)
        isCutShort = true
    }
}
