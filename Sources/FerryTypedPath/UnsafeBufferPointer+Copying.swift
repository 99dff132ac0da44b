extension UnsafeBufferPointer {
    /// `elements` copied into memory of their own, for plans read on every record: an element is
    /// read through the pointer with no reference counting and no closure (a closure per array
    /// would cost a generic metadata look-up in specialized code). The owner frees the copy with
    /// `freeCopy()`.
    static func copying(_ elements: [Element]) -> UnsafeBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = buffer.initialize(from: elements)
        return UnsafeBufferPointer(buffer)
    }

    /// Frees a copy made by `copying(_:)`; the pointer is not used after.
    func freeCopy() {
        UnsafeMutableBufferPointer(mutating: self).deinitialize().deallocate()
    }
}
