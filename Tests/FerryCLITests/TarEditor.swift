/// A minimal reader and editor of ustar archives, for tampering with bundles in tests the way a
/// damaged download or a careless edit would (a flipped byte, a member taken out).
struct TarEditor {
    /// One member: its path, where its 512-byte header starts and its data size.
    struct Member: Equatable {
        var path: String
        var headerOffset: Int
        var size: Int
        var dataOffset: Int { headerOffset + 512 }
        /// The header and the data blocks, padded to 512 bytes.
        var blockRange: Range<Int> { headerOffset..<(dataOffset + (size + 511) / 512 * 512) }
    }

    var bytes: [UInt8]

    /// The archive's members in order (pax and GNU long-name headers are skipped as members).
    var members: [Member] {
        var result: [Member] = []
        var offset = 0
        while offset + 512 <= bytes.count {
            let header = bytes[offset..<(offset + 512)]
            if header.allSatisfy({ $0 == 0 }) { break }
            let name = Self.string(header, 0, 100)
            let prefix = Self.string(header, 345, 155)
            let size = Int(Self.string(header, 124, 12).trimmingCharacters(in: " "), radix: 8) ?? 0
            let type = header[offset + 156]
            if type != UInt8(ascii: "x") && type != UInt8(ascii: "g") && type != UInt8(ascii: "L") {
                result.append(Member(path: prefix.isEmpty ? name : prefix + "/" + name, headerOffset: offset, size: size))
            }
            offset += 512 + (size + 511) / 512 * 512
        }
        return result
    }

    func member(_ path: String) -> Member? { members.first { $0.path == path } }

    /// Inverts the bits of the byte `index` bytes into `path`'s data.
    mutating func flipByte(of path: String, at index: Int) -> Bool {
        guard let member = member(path), index < member.size else { return false }
        bytes[member.dataOffset + index] ^= 0xFF
        return true
    }

    /// Takes `path` out of the archive (its header and data blocks).
    mutating func remove(_ path: String) -> Bool {
        guard let member = member(path) else { return false }
        bytes.removeSubrange(member.blockRange)
        return true
    }

    /// The data of `path`.
    func data(of path: String) -> [UInt8]? {
        guard let member = member(path) else { return nil }
        return Array(bytes[member.dataOffset..<(member.dataOffset + member.size)])
    }

    /// A header field of `path` as text (`mode` at 100, `uid` 108, `gid` 116, `mtime` 136, all octal).
    func headerField(of path: String, offset: Int, length: Int) -> String? {
        guard let member = member(path) else { return nil }
        return Self.string(bytes[member.headerOffset..<(member.headerOffset + 512)], offset, length)
    }

    private static func string(_ header: ArraySlice<UInt8>, _ start: Int, _ length: Int) -> String {
        let field = header[(header.startIndex + start)..<(header.startIndex + start + length)]
        return String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let first = s.first, set.contains(first) { s = s.dropFirst() }
        while let last = s.last, set.contains(last) { s = s.dropLast() }
        return String(s)
    }
}
