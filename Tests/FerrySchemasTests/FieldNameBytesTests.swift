@testable import FerrySchemas
import Testing

/// `FieldNameBytes`: a name of every length up to 16 matches its own bytes, and no bytes that
/// differ from them in any one position; longer names are not short (compared as strings).
@Suite struct FieldNameBytesTests {
    @Test(arguments: 1...16)
    func aNameMatchesItsBytesAndNoOneByteChange(length: Int) {
        let name = String("abcdefghijklmnopq".prefix(length))
        let bytes = FieldNameBytes(name)
        #expect(bytes.count == length)
        #expect(bytes.isShort)
        var utf8 = Array(name.utf8)
        utf8.withUnsafeBufferPointer { #expect(bytes.matches($0.baseAddress!)) }
        for position in 0..<length {
            let original = utf8[position]
            utf8[position] = UInt8(ascii: "Z")
            utf8.withUnsafeBufferPointer { #expect(!bytes.matches($0.baseAddress!), "\(name) changed at \(position)") }
            utf8[position] = original
        }
    }

    @Test func aLongerNameIsNotShort() {
        #expect(!FieldNameBytes("abcdefghijklmnopq").isShort)
        #expect(FieldNameBytes("abcdefghijklmnopq").count == 17)
    }

    /// A field keeps its name's bytes when the name changes.
    @Test func aRenamedFieldKeepsItsBytes() {
        var field = FieldSchema("alcohol", .double)
        field.name = "alcoholByVolume"
        #expect(field.nameBytes == FieldNameBytes("alcoholByVolume"))
    }
}
