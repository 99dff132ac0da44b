/// Ids as the table looks them up: their keys, their hashes, canonical UUIDs packed into 16 bytes.
extension IDTable {
    /// An id as the table looks it up, which needs no table: the id packed when it is a canonical
    /// lower-case UUID, and its hash. The typed path builds it on a worker thread
    /// (`TypedPreparation`), so the order-bound commit only probes.
    struct Key: Sendable {
        /// The 16 bytes of a canonical lower-case UUID (`packUUID`), nil for any other id.
        let uuid: (UInt64, UInt64)?
        let hash: UInt64

        init(_ id: String) {
            var id = id
            let (uuid, hash) = id.withUTF8 { utf8 -> ((UInt64, UInt64)?, UInt64) in
                if let packed = IDTable.packUUID(utf8) { return (packed, IDTable.hash(packed)) }
                return (nil, IDTable.hash(utf8))
            }
            self.uuid = uuid
            self.hash = hash
        }
    }

    /// The hash of a packed UUID: its words mixed (UUIDs of other versions than 4 are not all
    /// random), the top half folded into the bottom, which picks the slot.
    static func hash(_ packed: (UInt64, UInt64)) -> UInt64 {
        let mixed = (packed.0 ^ (packed.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return mixed ^ (mixed >> 32)
    }

    /// The hash of an id's UTF-8 bytes (wyhash's scheme), the top half folded into the bottom.
    /// Read in words, not byte by byte: an id of up to 16 bytes is two overlapping reads and two
    /// multiplications, where a byte-wise hash chained a multiplication per byte (the key of each
    /// id and reference, and each entry again every time the table grows).
    static func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = utf8.count
        var seed: UInt64 = 0xA076_1D64_78BD_642F
        var a: UInt64 = 0
        var b: UInt64 = 0
        if let base = utf8.baseAddress, count > 0 {
            // Every read is within the `count` bytes.
            let raw = UnsafeRawPointer(base)
            func eight(_ offset: Int) -> UInt64 {
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
            func four(_ offset: Int) -> UInt64 {
                UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            }
            if count <= 16 {
                if count >= 4 {
                    let step = (count >> 3) << 2
                    a = four(0) << 32 | four(step)
                    b = four(count - 4) << 32 | four(count - 4 - step)
                } else {
                    a = UInt64(base[0]) << 16 | UInt64(base[count >> 1]) << 8 | UInt64(base[count - 1])
                }
            } else {
                var offset = 0
                while count - offset > 16 {
                    seed = mix(eight(offset) ^ 0xE703_7ED1_A0B4_28DB, eight(offset + 8) ^ seed)
                    offset += 16
                }
                a = eight(count - 16)
                b = eight(count - 8)
            }
        }
        let h = mix(0xE703_7ED1_A0B4_28DB ^ UInt64(count), mix(a ^ 0xE703_7ED1_A0B4_28DB, b ^ seed))
        return h ^ (h >> 32)
    }

    /// The two halves of the full product, combined.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    /// The 16 bytes of a canonical lower-case UUID (`8-4-4-4-12` hex digits), or nil: the first
    /// 16 digits in the first word, the last 16 in the second.
    static func packUUID(_ utf8: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard utf8.count == 36, let base = utf8.baseAddress else { return nil }
        let dash = UInt8(ascii: "-")
        guard utf8[8] == dash, utf8[13] == dash, utf8[18] == dash, utf8[23] == dash else { return nil }
        // The 32 digits as four runs of 8 (every load is within the 36 bytes checked above).
        let raw = UnsafeRawPointer(base)
        func eight(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        func four(_ offset: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        guard let a = hexValue(eight(0)), let b = hexValue(four(9) | four(14) << 32),
            let c = hexValue(four(19) | four(24) << 32), let d = hexValue(eight(28))
        else { return nil }
        return (a << 32 | b, c << 32 | d)
    }

    /// The value of 8 lower-case hex digits, the first in the lowest byte of `digits`, or nil
    /// when a byte is not one; all 8 at once (bytes as lanes of the word).
    @inline(__always)
    static func hexValue(_ digits: UInt64) -> UInt64? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones &* 0x80
        guard digits & high == 0 else { return nil }
        // For bytes below 0x80, adding 0x80 - n sets a byte's high bit exactly when it is >= n
        // (no carry leaves the byte).
        func atLeast(_ n: UInt64) -> UInt64 { digits &+ ones &* (0x80 - n) }
        let digit = atLeast(0x30) & ~atLeast(0x3A)  // "0"..."9"
        let letter = atLeast(0x61) & ~atLeast(0x67)  // "a"..."f"
        guard (digit | letter) & high == high else { return nil }
        // "0"..."9": the low nibble; "a"..."f" (bit 6 set): the low nibble + 9.
        let nibbles = (digits & (ones &* 0x0F)) &+ ((digits >> 6) & ones) &* 9
        // Pairs, then fours, then all eight, the first digit most significant.
        var value = ((nibbles << 4) | (nibbles >> 8)) & 0x00FF_00FF_00FF_00FF
        value = ((value << 8) | (value >> 16)) & 0x0000_FFFF_0000_FFFF
        return ((value << 16) | (value >> 32)) & 0xFFFF_FFFF
    }
}
