import FerryCore

/// The text of a BagIt bag's tag files (RFC 8493), as a bundle writes them and as a bundle reader
/// parses them, whoever made the bag (Ferry, bagit-python, another tool).
///
/// A bag is a folder (or an archive of one) holding `bagit.txt`, a payload folder `data/`, one
/// payload manifest or more (`manifest-<algorithm>.txt`) and optional tag files: `bag-info.txt`,
/// tag manifests (`tagmanifest-<algorithm>.txt`). Every tag file is UTF-8 text.
public enum BagIt {
    /// The payload folder, with its separator: every payload path starts with it.
    public static let payloadPrefix = "data/"

    /// The BagIt version written (RFC 8493 is 1.0).
    public static let version = "1.0"

    /// The digest algorithms a reader checks, by the name manifests use, in the order checked
    /// (RFC 8493 section 2.4: `sha256` and `sha512` are the ones an implementation must support;
    /// `sha1` and `md5` are allowed, for older bags such as bagit-python's before its 2017 change,
    /// whose default was md5).
    public enum Algorithm: String, Sendable, CaseIterable {
        case sha256
        case sha512
        case sha1
        case md5

        /// The number of hexadecimal digits of a digest.
        public var hexLength: Int {
            switch self {
            case .sha256: 64
            case .sha512: 128
            case .sha1: 40
            case .md5: 32
            }
        }

        /// True for a digest that is broken for collisions (MD5, SHA-1): it still detects a file
        /// changed by accident, not one changed on purpose to keep its digest.
        public var isWeak: Bool { self == .sha1 || self == .md5 }

        /// The name messages use (`SHA-256`).
        public var displayName: String {
            switch self {
            case .sha256: "SHA-256"
            case .sha512: "SHA-512"
            case .sha1: "SHA-1"
            case .md5: "MD5"
            }
        }
    }

    /// `bagit.txt` (RFC 8493 section 2.1.1): exactly these two lines, no byte-order mark.
    public static func declaration() -> [UInt8] {
        Array("BagIt-Version: \(version)\nTag-File-Character-Encoding: UTF-8\n".utf8)
    }

    /// `bag-info.txt` (RFC 8493 section 2.2.2): its labels in byte order, as bagit-python writes them.
    /// - Parameters:
    ///   - baggingDate: `YYYY-MM-DD`, the day of the bundle's `createdAt` (so `SOURCE_DATE_EPOCH`
    ///     when set), never the clock.
    ///   - payloadBytes: the sum of the payload files' sizes, in bytes.
    ///   - payloadFiles: how many payload files there are.
    ///   - agent: the writing program (`ferry 0.1.0`).
    public static func bagInfo(baggingDate: String, payloadBytes: Int64, payloadFiles: Int, agent: String) -> [UInt8] {
        Array(("Bag-Software-Agent: \(oneLine(agent))\n" + "Bagging-Date: \(baggingDate)\n"
            + "Payload-Oxum: \(payloadBytes).\(payloadFiles)\n").utf8)
    }

    /// A manifest (payload or tag, RFC 8493 sections 2.1.3 and 2.2.1): one `<digest>  <path>` line
    /// a file, in the order given, paths encoded with `encodePath`. Two spaces, as `sha256sum`
    /// writes them, so `sha256sum -c` reads it too.
    public static func manifest(_ entries: [(path: String, digest: String)]) -> [UInt8] {
        var out: [UInt8] = []
        for entry in entries {
            out.append(contentsOf: entry.digest.utf8)
            out.append(contentsOf: "  ".utf8)
            out.append(contentsOf: encodePath(entry.path).utf8)
            out.append(0x0A)
        }
        return out
    }

    /// A path as a manifest lists it: `%` as `%25`, CR as `%0D`, LF as `%0A` (RFC 8493 section
    /// 2.1.3: those characters and only those).
    public static func encodePath(_ path: String) -> String {
        guard path.utf8.contains(where: { $0 == 0x25 || $0 == 0x0D || $0 == 0x0A }) else { return path }
        var out = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The path a manifest line names: `%25`, `%0D` and `%0A` decoded (hex digits in either
    /// case), every other `%` sequence kept, so a name that merely holds `%2F` (as bagit-python
    /// lists it, never encoding `%`) reads the same either way.
    public static func decodePath(_ text: String) -> String {
        guard text.utf8.contains(0x25) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x25, i + 2 < bytes.count {
                let code = (bytes[i + 1], bytes[i + 2] | 0x20)
                let decoded: UInt8? = switch code {
                case (0x32, 0x35): 0x25  // %25
                case (0x30, 0x64): 0x0D  // %0D
                case (0x30, 0x61): 0x0A  // %0A
                default: nil
                }
                if let decoded {
                    out.append(decoded)
                    i += 3
                    continue
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One line of a manifest: the path as listed (undecoded), its digest in lower case, the line number.
    public struct ManifestEntry: Sendable, Hashable {
        public var listedPath: String
        public var digest: String
        public var line: Int
    }

    /// Parses a manifest: lines of a digest, linear whitespace, then a path to the end of the line.
    /// Lines end with LF, CR LF or CR; blank lines are skipped.
    /// - Parameters:
    ///   - bytes: the manifest's content.
    ///   - member: the manifest's name, for locations.
    ///   - location: the bag (file) for locations.
    /// - Throws: `FerryError(.invalidEncoding)` for text that is not UTF-8, `.invalidValue` naming
    ///   the line for a line without a path or whose digest is not hexadecimal.
    public static func parseManifest(_ bytes: [UInt8], algorithm: Algorithm, at location: SourceLocation) throws -> [ManifestEntry] {
        var entries: [ManifestEntry] = []
        for (number, line) in try lines(bytes, at: location) {
            guard !line.allSatisfy({ $0 == " " || $0 == "\t" }) else { continue }
            let digest = line.prefix { $0 != " " && $0 != "\t" }
            let path = line[digest.endIndex...].drop { $0 == " " || $0 == "\t" }
            var where_ = location
            where_.line = number
            guard !path.isEmpty else {
                throw FerryError(.invalidValue, "manifest line has no path", at: where_)
            }
            guard digest.count == algorithm.hexLength, digest.utf8.allSatisfy(isHexDigit) else {
                throw FerryError(.invalidValue, "'\(DiagnosticText.escaped(String(digest.prefix(140))))' is not a "
                    + "\(algorithm.rawValue) digest (\(algorithm.hexLength) hexadecimal digits)", at: where_)
            }
            entries.append(ManifestEntry(listedPath: String(path), digest: digest.lowercased(), line: number))
        }
        return entries
    }

    /// Parses a tag file of labelled values (`bagit.txt`, `bag-info.txt`; RFC 8493 section 2.2.2):
    /// `Label: value` lines, a line starting with whitespace continuing the value before it.
    /// - Returns: label, value (trimmed) and line number, in order; labels may repeat.
    /// - Throws: `FerryError(.invalidEncoding)` for text that is not UTF-8 or that starts with a
    ///   byte-order mark, `.invalidValue` naming the line for a line without `:`.
    public static func parseTags(_ bytes: [UInt8], at location: SourceLocation) throws -> [(label: String, value: String, line: Int)] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw FerryError(.invalidEncoding, "the tag file starts with a byte-order mark, which BagIt forbids", at: location)
        }
        var tags: [(label: String, value: String, line: Int)] = []
        for (number, line) in try lines(bytes, at: location) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            if line.first == " " || line.first == "\t", !tags.isEmpty {
                tags[tags.count - 1].value += " " + trimmed(line)
                continue
            }
            guard let colon = line.firstIndex(of: ":") else {
                var where_ = location
                where_.line = number
                throw FerryError(.invalidValue, "tag line has no ':'", at: where_)
            }
            tags.append((trimmed(line[..<colon]), trimmed(line[line.index(after: colon)...]), number))
        }
        return tags
    }

    /// A tag value kept to one line: CR and LF dropped, as bagit-python does.
    private static func oneLine(_ text: String) -> String {
        text.filter { $0 != "\r" && $0 != "\n" && $0 != "\r\n" }
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// The lines of UTF-8 text with their 1-based numbers, split at LF, CR LF or CR.
    private static func lines(_ bytes: [UInt8], at location: SourceLocation) throws -> [(Int, Substring)] {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FerryError(.invalidEncoding, "the tag file is not UTF-8", at: location)
        }
        // Split at LF, CR and CR LF (one break) on the UTF-8 bytes: a split by characters walks
        // grapheme clusters, the most of reading a manifest of 50,000 files.
        var result: [(Int, Substring)] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
                utf8.formIndex(after: &index)
                continue
            }
            result.append((result.count + 1, text[start..<index]))
            utf8.formIndex(after: &index)
            if byte == UInt8(ascii: "\r"), index != utf8.endIndex, utf8[index] == UInt8(ascii: "\n") { utf8.formIndex(after: &index) }
            start = index
        }
        result.append((result.count + 1, text[start..<utf8.endIndex]))
        if result.last?.1.isEmpty == true { result.removeLast() }
        return result
    }
}

extension BagIt {
    /// True for the names of tag files a bag reader reads at a bag's root: `bagit.txt`,
    /// `bag-info.txt`, `manifest-<algorithm>.txt`, `tagmanifest-<algorithm>.txt`.
    public static func isTagFileName(_ name: String) -> Bool {
        name == "bagit.txt" || name == "bag-info.txt"
            || ((name.hasPrefix("manifest-") || name.hasPrefix("tagmanifest-")) && name.hasSuffix(".txt"))
    }
}
