/// A small deterministic random generator for tests (SplitMix64): the same seed gives the same
/// numbers on every run and machine.
public struct SplitMix {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    public mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// `bytes` with one of the edits that break a document, at random: a byte dropped, one of
    /// `inserted` added, or a cut.
    public mutating func corrupted(_ bytes: [UInt8], inserting inserted: [UInt8]) -> [UInt8] {
        var bytes = bytes
        let at = next(max(bytes.count, 1))
        switch next(3) {
        case 0 where !bytes.isEmpty: bytes.remove(at: at)
        case 1: bytes.insert(inserted[next(inserted.count)], at: at)
        default: bytes.removeLast(bytes.count - at)
        }
        return bytes
    }
}
