import FerryCore
import Testing

@Suite struct JSONPointerTests {
    @Test func escapesPerRFC6901() {
        let pointer = JSONPointer(tokens: ["a/b", "m~n", "0"])
        #expect(pointer.description == "/a~1b/m~0n/0")
        #expect(JSONPointer("/a~1b/m~0n/0") == pointer)
        #expect(JSONPointer("").tokens == [])
    }

    @Test func flattenedNameIsOneBased() {
        #expect(JSONPointer("/tastes/0/value").flattenedName == "tastes.1.value")
    }

    @Test func resolvesInsideValues() {
        let value: Value = ["tastes": [["label": "oak", "value": 0.5]]]
        #expect(value[JSONPointer("/tastes/0/label")] == .string("oak"))
        #expect(value[JSONPointer("/tastes/1")] == nil)
    }
}
