import FerryCore

/// The stacks a `JSONParser` builds containers on, and its cache of short strings: reused from
/// one value to the next (a reader keeps one for its whole input), so parsing a record allocates
/// only the record's own arrays and its longer strings.
///
/// The stacks are raw memory: a member or element is moved in when parsed and moved out into its
/// container's array when the container closes, with no reference counting on the way.
final class JSONParseStacks {
    /// One open container: an object (its members from `start` on `members`) or an array (its
    /// elements from `start` on `elements`).
    struct Frame {
        var isObject: Bool
        var start: Int
    }

    // One thread uses it at a time: its state is not checked for exclusive access at run time
    // (`@exclusivity(unchecked)`; each check cost about 65 instructions, several a record).
    @exclusivity(unchecked) var frames = UnsafeStack<Frame>()
    /// Members of the open objects; the last one of an object being filled holds its key and a
    /// placeholder value until its value is parsed.
    @exclusivity(unchecked) var members = UnsafeStack<ValueObject.Member>()
    @exclusivity(unchecked) var elements = UnsafeStack<Value>()

    init() {}

    deinit {
        frames.release()
        members.release()
        elements.release()
    }
}

/// A stack in raw memory, of elements moved in and out. Its owner calls `release()` once.
struct UnsafeStack<Element> {
    private(set) var base: UnsafeMutablePointer<Element>?
    private var capacity = 0
    private(set) var count = 0

    @inline(__always)
    mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        if let base { (base + count).initialize(to: element) }
        count &+= 1
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = max(capacity * 2, 64)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = grown
        capacity = newCapacity
    }

    /// The element on top (the stack is not empty).
    @inline(__always)
    var top: UnsafeMutablePointer<Element>? { base.map { $0 + (count - 1) } }

    /// Moves the elements from `start` on into a new array of exactly their number.
    mutating func popArray(from start: Int) -> [Element] {
        let n = count - start
        guard n > 0, let base else { return [] }
        // `reserveCapacity` and `append` are specialized for the element type; the
        // `unsafeUninitializedCapacity` initializer allocates through generic code at several
        // times the cost.
        var array: [Element] = []
        array.reserveCapacity(n)
        for i in start..<count { array.append((base + i).move()) }
        count = start
        return array
    }

    /// Lowers the count by `n` without destroying anything: the caller moved or destroyed the
    /// top `n` elements itself.
    mutating func forget(_ n: Int) {
        count -= n
    }

    /// Removes (and destroys) the elements from `start` on.
    mutating func drop(from start: Int) {
        guard start < count, let base else { return }
        (base + start).deinitialize(count: count - start)
        count = start
    }

    /// Destroys the elements and frees the memory.
    mutating func release() {
        drop(from: 0)
        base?.deallocate()
        base = nil
        capacity = 0
    }
}
