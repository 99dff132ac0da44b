import Testing
import FerryCore
@testable import FormatCSV

@Suite struct CSVFlatteningTests {
    static let note: Value = [
        "id": "n1",
        "look": ["tint": "ruby", "note": "bright"],
        "smells": ["cherry", "oak"],
        "tastes": [["label": "sweet", "value": 0.5], ["label": "dry"]],
        "empty": [],
        "isFavorite": true,
    ]

    @Test func flattenUsesMillerNames() {
        let pairs = CSVFlattening.flatten(CSVFlatteningTests.note)
        #expect(pairs.map(\.0) == ["id", "look.tint", "look.note", "smells.1", "smells.2", "tastes.1.label",
                                   "tastes.1.value", "tastes.2.label", "isFavorite"])
        #expect(pairs.map(\.1) == ["n1", "ruby", "bright", "cherry", "oak", "sweet", 0.5, "dry", true])
        #expect(CSVFlattening.flatten("x").map(\.0) == [""])
    }

    @Test func unflattenInvertsFlatten() {
        let pairs = CSVFlattening.flatten(CSVFlatteningTests.note).map { ($0.0, Optional($0.1)) }
        var expected = CSVFlatteningTests.note.objectValue ?? [:]
        expected["empty"] = nil
        #expect(CSVFlattening.unflatten(pairs) == expected)
    }

    @Test func listsNeedExactlyOneToN() {
        let layout = CSVFlattening.Layout(names: ["t.1", "t.3", "u.2", "u.1", "v.01"])
        #expect(layout.build(["a", "b", "c", "d", "e"]) == ["t": ["1": "a", "3": "b"], "u": ["d", "c"], "v": ["01": "e"]])
        #expect(layout.pointers == ["/t/1", "/t/3", "/u/1", "/u/0", "/v/01"])
    }

    @Test func absentSlotsAndTrailingDrops() {
        let layout = CSVFlattening.Layout(names: ["s.1", "s.2", "s.3", "t.1.a", "t.2.a"])
        #expect(layout.build([nil, "b", nil, nil, nil]) == ["s": [nil, "b"]])
        #expect(layout.build(["a", nil, nil, "x", nil]) == ["s": ["a"], "t": [["a": "x"]]])
    }

    @Test func conflictsAndOddNamesStayFlat() {
        let layout = CSVFlattening.Layout(names: ["Owner", "Owner.1", "a..b", ".c", "d.", "x.y", "x.y.z"])
        #expect(layout.build(["o", "p", "q", "r", "s", "t", "u"])
                == ["Owner": "o", "Owner.1": "p", "a..b": "q", ".c": "r", "d.": "s", "x": ["y": "t"], "x.y.z": "u"])
        let flat = CSVFlattening.Layout(names: ["look.tint"], unflattens: false)
        #expect(flat.build(["red"]) == ["look.tint": "red"])
    }

    @Test func firstSeenOrderIsKept() {
        let layout = CSVFlattening.Layout(names: ["b", "a.y", "c", "a.x"])
        let value = layout.build(["1", "2", "3", "4"])
        #expect(value.keys == ["b", "a", "c"])
        #expect(value["a"]?.objectValue?.keys == ["y", "x"])
    }
}
