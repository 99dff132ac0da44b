import FerryCore
import Testing

/// A batch gives its records their own copy of the strings every record holds: the copy has the
/// same text in other storage, so no reference count is shared with the original.
@Suite struct SeparateCopyTests {
    /// The address of a string's UTF-8 storage (nil when it is not contiguous).
    private func storage(of text: String) -> UnsafePointer<UInt8>? {
        text.utf8.withContiguousStorageIfAvailable { $0.baseAddress } ?? nil
    }

    @Test(arguments: ["wineTastingNotes", "/work/bench/data/matrix/x4/notes-v2.json", "wörterbücher und bücher"])
    func aLongStringIsCopiedIntoStorageOfItsOwn(_ text: String) {
        let copy = text.separateCopy()
        #expect(copy == text)
        #expect(Array(copy.utf8) == Array(text.utf8))
        #expect(storage(of: copy) != nil)
        #expect(storage(of: copy) != storage(of: text))
    }

    @Test func aShortStringStaysTheSameText() {
        let text = "notes"
        #expect(text.separateCopy() == "notes")
        #expect(Array(text.separateCopy().utf8) == [0x6E, 0x6F, 0x74, 0x65, 0x73])
    }
}
