import FerryCore
import Testing

@testable import FormatJSON

/// `JSONLineLocator` (a taken line's locator, over its batch's buffer) finds what
/// `JSONFieldLocator` finds over a copy of the line, wherever the line stands in the buffer.
@Suite struct JSONLineLocatorTests {
    static let lines = [
        #"{"$collection":"wineNotes","id":"w1","title":"Syrah","tastes":[{"label":"a","value":0.5},{"label":"맛","value":1}],"look":"x"}"#,
        #"  { "id" : "é\"\\u0041" , "nested": {"deep": [1, [2, {"id": 3}]]}, "id": "second" }"#,
        #"{"a\u0062":1,"":{"":2},"~/":[true,false,null]}"#,
        "[1,2,3]",
    ]

    static let pointers: [JSONPointer] = [
        "", "/id", "/title", "/tastes", "/tastes/0", "/tastes/1/label", "/tastes/2", "/look", "/nested/deep/1/1/id",
        "/ab", "/", "//", "/~0~1", "/~0~1/2", "/1", "/missing", "/tastes/x",
    ]

    @Test func findsWhatTheCopysLocatorFinds() throws {
        for (number, line) in Self.lines.enumerated() {
            let bytes = Array(line.utf8)
            let copy = JSONFieldLocator(bytes: bytes, start: TextPosition(line: number + 7, column: 1))
            for prefix in [[], Array("{\"before\":1}".utf8)] {
                let buffer = prefix + bytes + Array("{\"after\":2}\n".utf8)
                let locator = try #require(
                    JSONLineLocator(buffer: buffer, range: prefix.count..<(prefix.count + bytes.count), line: number + 7))
                #expect(locator.singleLine == number + 7)
                #expect(copy.singleLine == number + 7)
                for pointer in Self.pointers {
                    #expect(locator.position(of: pointer) == copy.position(of: pointer), "\(line) \(pointer)")
                }
            }
        }
        // Real positions, not only agreement: columns count scalars.
        let first = try #require(JSONLineLocator(buffer: Array(Self.lines[0].utf8), range: 0..<Self.lines[0].utf8.count, line: 3))
        #expect(first.position(of: "/id") == TextPosition(line: 3, column: 33))
        #expect(first.position(of: "/tastes/1/label") == TextPosition(line: 3, column: 99))
        #expect(first.position(of: "/missing") == nil)
    }

    @Test func refusesARangeOutsideItsBuffer() {
        #expect(JSONLineLocator(buffer: [1, 2, 3], range: 1..<4, line: 1) == nil)
        #expect(JSONLineLocator(buffer: [1, 2, 3], range: 0..<3, line: 1)?.singleLine == 1)
    }
}
