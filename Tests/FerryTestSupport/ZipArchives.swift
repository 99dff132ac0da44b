import Foundation

/// Zip archives made at test time with python3's `zipfile`, `tarfile` and `zlib` (never committed:
/// the hostile suites are rebuilt from the shared corpus, and bombs are a gigabyte when unpacked).
public enum ZipArchives {
    /// python3's path, or nil when absent (tests then skip with a message).
    public static var python: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = String(folder) + "/python3"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Rewrites the tar at `tar` as a zip at `zip`, member by member and in the same order: each
    /// name as it is (`../x`, `/x`, `..\\x`, empty, duplicates), files with their content and mode
    /// (setuid included), folders, symbolic links (mode 0o120777, the target as content, as
    /// Info-ZIP stores them; a trailing `/` dropped, as tar readers drop it, since a zip name
    /// ending in `/` is a folder), fifos and devices by their mode.
    /// - Returns: the names of the hard links, which have no zip form and are left out, and of
    ///   the fifos, which zip readers take for regular files (Info-ZIP stores a pipe it read from
    ///   with the fifo type, and libarchive undoes that).
    /// - Throws: when python3 fails (a tar `tarfile` cannot read).
    @discardableResult
    public static func fromTar(_ tar: URL, to zip: URL) throws -> (hardLinks: [String], fifos: [String]) {
        let lines = try run(fromTarScript, [tar.path, zip.path]).split(separator: "\n")
        let names = { (kind: String) in lines.filter { $0.hasPrefix(kind + " ") }.map { String($0.dropFirst(kind.count + 1)) } }
        return (names("hardlink"), names("fifo"))
    }

    /// What a bomb's member says and holds.
    public enum BombKind: String, Sendable {
        /// A zip whose member is `size` zero bytes, deflated, its size declared truthfully.
        case zip
        /// A zip whose member declares 1000 bytes but inflates to `size` zero bytes.
        case zipUnderstated = "zip-understated"
        /// A `.tar.gz` whose one member is `size` zero bytes.
        case tarGzip = "tar.gz"
    }

    /// Writes a decompression bomb: one member `data/zeros.json` of `size` zero bytes
    /// (a multiple of 1 MiB), about a thousandth of that on disk. The deflate stream is built from
    /// one compressed mebibyte repeated after full flushes, so making a gigabyte takes a second.
    public static func bomb(_ kind: BombKind, size: Int64, to path: URL) throws {
        _ = try run(bombScript, [kind.rawValue, String(size), path.path])
    }

    /// Each member of the zip at `zip` as "name mtime-as-UTC size crc" lines, read by `zipfile`
    /// (which takes the DOS date and time fields as they are) after `testzip()` checked every CRC.
    public static func listing(_ zip: URL) throws -> [String] {
        try run(listingScript, [zip.path]).split(separator: "\n").map(String.init)
    }

    private static func run(_ script: String, _ arguments: [String]) throws -> String {
        guard let python else { throw CocoaError(.executableNotLoadable) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "python3", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: String(decoding: error, as: UTF8.self)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let fromTarScript = #"""
import stat, sys, tarfile, warnings, zipfile
warnings.simplefilter("ignore")
src, dst = sys.argv[1], sys.argv[2]
kinds = []
with tarfile.open(src) as tar, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
    for m in tar.getmembers():
        info = zipfile.ZipInfo(m.name, date_time=(2024, 5, 1, 9, 30, 0))
        info.create_system = 3
        data = b""
        if m.islnk():
            kinds.append("hardlink " + m.name)
            continue
        if m.isdir():
            kind = stat.S_IFDIR
            if not info.filename.endswith("/"):
                info.filename += "/"
        elif m.issym():
            kind = stat.S_IFLNK
            info.filename = info.filename.rstrip("/")
            data = m.linkname.encode("utf-8", "surrogateescape")
        elif m.isfifo():
            kind = stat.S_IFIFO
            kinds.append("fifo " + m.name)
        elif m.ischr():
            kind = stat.S_IFCHR
        elif m.isblk():
            kind = stat.S_IFBLK
        else:
            kind = stat.S_IFREG
            f = tar.extractfile(m)
            data = f.read() if f else b""
        info.external_attr = (kind | m.mode) << 16
        out.writestr(info, data)
print("\n".join(kinds))
"""#

    private static let bombScript = #"""
import struct, sys, tarfile, zlib
kind, size, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
MIB = 1 << 20
zero = bytes(MIB)
def deflate(prefix, count, suffix, wbits):
    # After a full flush no match reaches back: each zero mebibyte compresses to the same bytes.
    c = zlib.compressobj(9, zlib.DEFLATED, wbits)
    head = c.compress(prefix) + c.flush(zlib.Z_FULL_FLUSH)
    c2 = zlib.compressobj(9, zlib.DEFLATED, -15)
    one = c2.compress(zero) + c2.flush(zlib.Z_FULL_FLUSH)
    tail_c = zlib.compressobj(9, zlib.DEFLATED, -15)
    tail = tail_c.compress(suffix) + tail_c.flush(zlib.Z_FINISH)
    return head, one, tail
def crc_of(prefix, count, suffix):
    crc = zlib.crc32(prefix)
    for _ in range(count):
        crc = zlib.crc32(zero, crc)
    return zlib.crc32(suffix, crc)
count = size // MIB
name = b"data/zeros.json"
with open(dst, "wb") as out:
    if kind == "tar.gz":
        info = tarfile.TarInfo("data/zeros.json")
        info.size = size
        header = info.tobuf(tarfile.USTAR_FORMAT)
        end = bytes(1024)
        body_len = len(header) + size + len(end)
        end += bytes((-body_len) % 10240)
        head, one, tail = deflate(header, count, end, -15)
        crc = crc_of(header, count, end)
        out.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03")
        out.write(head)
        for _ in range(count):
            out.write(one)
        out.write(tail)
        out.write(struct.pack("<II", crc, (len(header) + size + len(end)) & 0xFFFFFFFF))
    else:
        head, one, tail = deflate(b"", count, b"", -15)
        crc = crc_of(b"", count, b"")
        compressed = len(head) + count * len(one) + len(tail)
        declared = size if kind == "zip" else 1000
        local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, compressed, declared, len(name), 0)
        out.write(local + name + head)
        for _ in range(count):
            out.write(one)
        out.write(tail)
        directory_at = len(local) + len(name) + compressed
        central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x314, 20, 0, 8, 0, 0x21, crc, compressed, declared,
                              len(name), 0, 0, 0, 0, 0o100644 << 16, 0) + name
        out.write(central)
        out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), directory_at, 0))
"""#

    private static let listingScript = #"""
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    if bad is not None:
        sys.exit("bad CRC: " + bad)
    for i in z.infolist():
        print("%s %04d-%02d-%02dT%02d:%02d:%02d %d %08x %o" % ((i.filename,) + i.date_time + (i.file_size, i.CRC, i.external_attr >> 16)))
"""#
}
