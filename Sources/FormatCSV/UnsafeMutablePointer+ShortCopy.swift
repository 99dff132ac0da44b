extension UnsafeMutablePointer where Pointee == UInt8 {
    /// Copies `count` bytes from `source` (not overlapping this memory) with a few unaligned word
    /// loads and stores: two overlapping ones for under eight bytes, and for more, words and then
    /// the last eight bytes once more. CSV cells are short: a call to `memcpy` costs more than
    /// their copy.
    @inline(__always)
    func copyShort(from source: UnsafePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(self)
        if count >= 8 {
            var k = 0
            while count &- k > 8 {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: k, as: UInt64.self), toByteOffset: k, as: UInt64.self)
                k &+= 8
            }
            let last = count &- 8
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: last, as: UInt64.self), toByteOffset: last, as: UInt64.self)
        } else if count >= 4 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
        } else if count >= 2 {
            let head = from.loadUnaligned(as: UInt16.self)
            let tail = from.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
            to.storeBytes(of: head, as: UInt16.self)
            to.storeBytes(of: tail, toByteOffset: count &- 2, as: UInt16.self)
        } else if count == 1 {
            self[0] = source[0]
        }
    }
}
