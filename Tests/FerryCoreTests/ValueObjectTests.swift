import FerryCore
import Testing

@Suite struct ValueObjectTests {
    @Test func subscriptFindsReplacesAppendsAndRemovesEveryMemberOfAName() {
        var object = ValueObject([(key: "a", value: 1), (key: "b", value: 2), (key: "a", value: 3), (key: "c", value: 4)])
        #expect(object["a"] == 1)
        #expect(object["z"] == nil)
        object["a"] = 5  // replaces the first only
        #expect(object.keys == ["a", "b", "a", "c"])
        #expect(object.members.map(\.value) == [5, 2, 3, 4])
        object["d"] = 6  // appends
        #expect(object.keys == ["a", "b", "a", "c", "d"])
        object["a"] = nil  // removes both, keeps the order of the rest
        #expect(object.keys == ["b", "c", "d"])
        object["z"] = nil
        #expect(object.keys == ["b", "c", "d"])
        object["d"] = nil
        object["b"] = nil
        #expect(object.keys == ["c"])
        #expect(object.members.map(\.value) == [4])
    }
}
