/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
/// 2014; the constants of Vigna's reference `splitmix64.c`): 64 bits of state, the same numbers for
/// a seed on every machine and run. `--sample` draws from it rather than from
/// `SystemRandomNumberGenerator`, so a seed names one sample for good.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// - Parameter seed: any 64 bits; equal seeds give equal sequences.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// SplitMix64's output function, a bijection of 64-bit words that spreads every input bit over
    /// every output bit (also the finaliser of `StableHash`).
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` by Lemire's multiply-shift ("Fast random integer generation in an
    /// interval", 2019) without the rejection step: the bias is below bound / 2^64, far under
    /// anything a sample of records can show.
    /// - Precondition: `bound` > 0.
    public mutating func next(below bound: UInt64) -> UInt64 {
        next().multipliedFullWidth(by: bound).high
    }
}

/// A 64-bit hash that is the same in every process (Swift's `Hasher` is seeded per process):
/// FNV-1a over the bytes, finished by `SplitMix64.mix` so that the low bits are as good as the high
/// ones. Seeds per-collection samplers and feeds `HyperLogLog`.
public enum StableHash {
    /// The hash of `bytes`, starting from `seed`.
    public static func of(_ bytes: some Sequence<UInt8>, seed: UInt64 = 0) -> UInt64 {
        SplitMix64.mix(fold(bytes, into: 0xCBF2_9CE4_8422_2325 ^ seed))
    }

    /// The hash of `tag` followed by `text`'s UTF-8 bytes (equal to `of` of the joined string),
    /// without making the joined string: a kind tag keeps `"1"` and `1` apart.
    public static func of(tag: UInt8, _ text: String) -> UInt64 {
        SplitMix64.mix(fold(text.utf8, into: fold(CollectionOfOne(tag), into: 0xCBF2_9CE4_8422_2325)))
    }

    /// FNV-1a over `bytes`, from `hash`.
    private static func fold(_ bytes: some Sequence<UInt8>, into hash: UInt64) -> UInt64 {
        var hash = hash
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// The hash of a string's UTF-8 bytes.
    public static func of(_ text: String, seed: UInt64 = 0) -> UInt64 { of(text.utf8, seed: seed) }
}
