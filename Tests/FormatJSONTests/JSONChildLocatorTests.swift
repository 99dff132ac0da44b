import FerryCore
import Testing

@testable import FormatJSON

/// `JSONFieldLocator.childLocators(of:)`: one locator per member or element, each finding below
/// its child what the record's locator finds below the child's pointer.
@Suite struct JSONChildLocatorTests {
    static let document = """
        {"__collections__": {
          "b1": {"title": "本", "__collections__": {"words": {
            "w1": {"meaningText": "a", "studyState": 1},
            "w1": {"meaningText": "second w1"},
            "w2" :
              {"kanjiText": "食べる", "studyState": [0, {"x": "é\\"}"}]}
          }}},
          "list": [ {"a": 1},
            2, "three\\u0021",
            [4, [5]] ],
          "empty": {}, "none": []
        }}
        """

    @Test func membersAndElementsAtTheirPositions() throws {
        let record = JSONFieldLocator(bytes: Array(Self.document.utf8), start: TextPosition(line: 4, column: 9))
        let words = try #require(record.childLocators(of: "/__collections__/b1/__collections__/words"))
        #expect(words.keys.sorted() == ["w1", "w2"])
        // The first of duplicate keys, as position(of:) resolves a pointer.
        #expect(words["w1"]?.position(of: "") == TextPosition(line: 6, column: 11))
        #expect(words["w1"]?.position(of: "/studyState") == TextPosition(line: 6, column: 46))
        #expect(words["w2"]?.position(of: "") == TextPosition(line: 9, column: 7))
        #expect(words["w2"]?.position(of: "/studyState/1/x") == TextPosition(line: 9, column: 52))
        #expect(words["w2"]?.position(of: "/missing") == nil)
        let list = try #require(record.childLocators(of: "/__collections__/list"))
        #expect(list.keys.sorted() == ["0", "1", "2", "3"])
        #expect(list["0"]?.position(of: "/a") == TextPosition(line: 11, column: 19))
        #expect(list["2"]?.position(of: "") == TextPosition(line: 12, column: 8))
        #expect(list["3"]?.position(of: "/1/0") == TextPosition(line: 13, column: 10))
        #expect(list["3"]?.childLocators(of: "/1")?["0"]?.position(of: "") == TextPosition(line: 13, column: 10))
        #expect(record.childLocators(of: "/__collections__/empty")?.isEmpty == true)
        #expect(record.childLocators(of: "/__collections__/none")?.isEmpty == true)
        #expect(record.childLocators(of: "/__collections__/b1/title") == nil)
        #expect(record.childLocators(of: "/missing") == nil)
    }

    /// Every child agrees with the record's locator at every pointer below it, at any depth.
    @Test func childrenAgreeWithTheRecordsLocator() throws {
        let record = JSONFieldLocator(bytes: Array(Self.document.utf8), start: TextPosition(line: 1, column: 1))
        let pointers: [JSONPointer] = ["", "/title", "/meaningText", "/studyState", "/studyState/1/x", "/a", "/0", "/1/0", "/x"]
        func check(_ locator: any FieldLocating, at prefix: JSONPointer, depth: Int) {
            for pointer in pointers {
                #expect(locator.position(of: pointer) == record.position(of: prefix.appending(pointer)), "\(prefix)\(pointer)")
            }
            guard depth < 6, let children = locator.childLocators(of: "") else { return }
            for (token, child) in children { check(child, at: prefix.appending(token), depth: depth + 1) }
        }
        check(record, at: "", depth: 0)
    }

    /// A JSON Lines line's locator gives children over its batch's buffer, as a copy's would.
    @Test func lineLocatorChildren() throws {
        let line = #"{"words": {"w1": {"x": 1}, "w2": {"x": [2, 3]}}}"#
        let buffer = Array("{\"before\":1}\n".utf8) + Array(line.utf8) + Array("\n".utf8)
        let locator = try #require(JSONLineLocator(buffer: buffer, range: 13..<(13 + line.utf8.count), line: 2))
        let children = try #require(locator.childLocators(of: "/words"))
        #expect(children["w1"]?.position(of: "/x") == TextPosition(line: 2, column: 24))
        #expect(children["w2"]?.position(of: "/x/1") == TextPosition(line: 2, column: 44))
        #expect(children["w2"]?.singleLine == 2)
    }
}
