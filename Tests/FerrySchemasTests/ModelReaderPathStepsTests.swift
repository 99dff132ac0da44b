@testable import FerrySchemas
import Testing

/// `PathSteps`: a `ModelReader`'s way down from the record, four steps in place and the rest in an
/// array, gives back exactly the steps pushed, in order, at every depth: a field by its schema, a
/// member the type has no field for by its key, an element by its index.
@Suite struct ModelReaderPathStepsTests {
    static let type = RecordType("T", (0..<8).map { FieldSchema("f\($0)", .string) })

    /// The steps as text: a field or key as its name, an index in brackets.
    static func spelled(_ steps: PathSteps) -> [String] {
        steps.all.map { step in
            switch step {
            case .field(let field): return field.pointee.name
            case .key(let k): return "key:" + steps.keys[k]
            case .index(let index): return "[\(index)]"
            }
        }
    }

    @Test(arguments: 0...7)
    func pushedAndLeftAtEveryDepth(depth: Int) {
        let fields = Self.type.table.fields.baseAddress!
        var steps = PathSteps()
        var expected: [String] = []
        for level in 0..<depth {
            switch level % 3 {
            case 0:
                steps.append(.field(fields + level))
                expected.append("f\(level)")
            case 1:
                steps.append(.index(level))
                expected.append("[\(level)]")
            default:
                steps.keys.append("k\(level)")
                steps.append(.key(steps.keys.count - 1))
                expected.append("key:k\(level)")
            }
        }
        #expect(steps.isEmpty == (depth == 0))
        #expect(Self.spelled(steps) == expected)
        // Leaving a step and entering another puts the new one where the old one stood.
        if depth > 0 {
            steps.removeLast()
            steps.append(.field(fields + 7))
            expected[depth - 1] = "f7"
            #expect(Self.spelled(steps) == expected)
        }
        for _ in 0..<depth { steps.removeLast() }
        #expect(steps.isEmpty)
        #expect(Self.spelled(steps) == [])
    }
}
