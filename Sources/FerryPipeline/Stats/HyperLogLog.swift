import Foundation

/// A HyperLogLog distinct-value estimate (Flajolet, Fusy, Gandouet, Meunier 2007, with the
/// small-range correction of Heule, Nunkesser, Hall 2013, "HyperLogLog in practice"): 2^14 one-byte
/// registers (16 KiB), a relative standard error of 1.04 / sqrt(2^14) = 0.81%, whatever the count.
///
/// Fed 64-bit `StableHash` values, so the estimate for a given input is the same on every run and
/// machine (the hash has a fixed seed); with 64 bits no large-range correction is needed.
public struct HyperLogLog: Sendable {
    /// Index bits: 2^14 registers.
    public static let precision = 14
    /// The estimate's relative standard error (1.04 / sqrt(registers)).
    public static let standardError = 1.04 / Double(1 << precision).squareRoot()

    private var registers = [UInt8](repeating: 0, count: 1 << precision)

    public init() {}

    /// Counts one value by its 64-bit hash.
    public mutating func add(hash: UInt64) {
        let index = Int(hash >> UInt64(64 - Self.precision))
        // The rank of the first 1 bit among the remaining 50 bits (51 when they are all 0).
        let rest = hash << UInt64(Self.precision)
        let rank = UInt8(min(rest.leadingZeroBitCount, 64 - Self.precision) + 1)
        if rank > registers[index] { registers[index] = rank }
    }

    /// The estimated number of distinct hashes added, rounded to a whole number.
    public var estimate: Int {
        let m = Double(registers.count)
        var sum = 0.0
        var zeros = 0
        for register in registers {
            sum += 1 / Double(UInt64(1) << UInt64(register))
            if register == 0 { zeros += 1 }
        }
        let alpha = 0.7213 / (1 + 1.079 / m)
        let raw = alpha * m * m / sum
        // Linear counting where it is the better estimate (few registers set).
        if raw <= 2.5 * m, zeros > 0 { return Int((m * log(m / Double(zeros))).rounded()) }
        return Int(raw.rounded())
    }
}
