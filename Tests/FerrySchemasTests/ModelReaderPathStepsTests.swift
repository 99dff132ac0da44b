@testable import FerrySchemas
import Testing

/// `ModelReader.PathSteps`: the way down from the record, four steps in place and the rest in an
/// array, gives back exactly the steps pushed, in order, at every depth.
@Suite struct ModelReaderPathStepsTests {
    typealias Steps = ModelReader<ValueCursor>.PathSteps

    /// The steps as text: a key as itself, an index in brackets.
    static func spelled(_ steps: Steps) -> [String] {
        steps.all.map { step in
            switch step {
            case .key(let key): return key
            case .index(let index): return "[\(index)]"
            }
        }
    }

    @Test(arguments: 0...7)
    func pushedAndLeftAtEveryDepth(depth: Int) {
        var steps = Steps()
        var expected: [String] = []
        for level in 0..<depth {
            if level.isMultiple(of: 2) {
                steps.append(.key("k\(level)"))
                expected.append("k\(level)")
            } else {
                steps.append(.index(level))
                expected.append("[\(level)]")
            }
        }
        #expect(steps.isEmpty == (depth == 0))
        #expect(Self.spelled(steps) == expected)
        // Leaving a step and entering another puts the new one where the old one stood.
        if depth > 0 {
            steps.removeLast()
            steps.append(.key("again"))
            expected[depth - 1] = "again"
            #expect(Self.spelled(steps) == expected)
        }
        for _ in 0..<depth { steps.removeLast() }
        #expect(steps.isEmpty)
        #expect(Self.spelled(steps) == [])
    }
}
