import FerryCore
import FerryFilter
import Foundation
import Testing

@Suite struct ParserTests {
    private func parsed(_ source: String) throws -> String {
        try FilterQuery(parsing: source).description
    }

    @Test func precedenceNotOverAndOverOr() throws {
        #expect(try parsed("a == 1 OR b == 2 AND c == 3") == "(a == 1 OR (b == 2 AND c == 3))")
        #expect(try parsed("a == 1 AND b == 2 OR c == 3") == "((a == 1 AND b == 2) OR c == 3)")
        #expect(try parsed("NOT a == 1 AND b == 2") == "(NOT a == 1 AND b == 2)")
        #expect(try parsed("!a == 1 || b == 2 && !c == 3") == "(NOT a == 1 OR (b == 2 AND NOT c == 3))")
        #expect(try parsed("NOT (a == 1 OR b == 2)") == "NOT (a == 1 OR b == 2)")
        #expect(try parsed("a == 1 AND b == 2 AND c == 3") == "((a == 1 AND b == 2) AND c == 3)")
        #expect(try parsed("(a == 1 OR b == 2) AND c == 3") == "((a == 1 OR b == 2) AND c == 3)")
        #expect(try parsed("a == 1 and b == 2 Or not c == 3") == "((a == 1 AND b == 2) OR NOT c == 3)")
        #expect(try parsed("TRUEPREDICATE OR FALSEPREDICATE") == "(TRUEPREDICATE OR FALSEPREDICATE)")
    }

    @Test(arguments: [
        ("rating == 4", "rating == 4"),
        ("rating = 4", "rating == 4"),
        ("rating != 4", "rating != 4"),
        ("rating <> 4", "rating != 4"),
        ("rating < 4", "rating < 4"),
        ("rating <= 4", "rating <= 4"),
        ("rating =< 4", "rating <= 4"),
        ("rating > 4", "rating > 4"),
        ("rating >= 4.5", "rating >= 4.5"),
        ("rating => -1e3", "rating >= -1e3"),
        ("rating BETWEEN {1, 3}", "rating BETWEEN {1, 3}"),
        ("category IN {'red', \"white\"}", "category IN {\"red\", \"white\"}"),
        ("\"oak\" IN tags", "\"oak\" IN tags"),
        ("title BEGINSWITH 'Pi'", "title BEGINSWITH \"Pi\""),
        ("title endswith[c] 'noir'", "title ENDSWITH[c] \"noir\""),
        ("title CONTAINS[cd] 'café'", "title CONTAINS[cd] \"café\""),
        ("title CONTAINS[d] 'e'", "title CONTAINS[d] \"e\""),
        ("title LIKE 'P*t?'", "title LIKE \"P*t?\""),
        ("title MATCHES '[A-Z].*'", "title MATCHES \"[A-Z].*\""),
        ("title ==[c] 'x'", "title ==[c] \"x\""),
        ("ANY smells.label == 'oak'", "ANY smells.label == \"oak\""),
        ("SOME smells.label == 'oak'", "ANY smells.label == \"oak\""),
        ("ALL tastes.value > 0.5", "ALL tastes.value > 0.5"),
        ("NONE tastes.label == 'bitter'", "NONE tastes.label == \"bitter\""),
        ("tastes.@count > 2", "tastes.@count > 2"),
        ("tastes.value.@avg >= 0.5", "tastes.value.@avg >= 0.5"),
        ("rating >= $MIN", "rating >= $MIN"),
        ("isFavorite == YES", "isFavorite == TRUE"),
        ("isFavorite == no", "isFavorite == FALSE"),
        ("grape == nil", "grape == NIL"),
        ("grape != NULL", "grape != NIL"),
        ("#in == 1", "#in == 1"),
        ("look.tint == 'ruby'", "look.tint == \"ruby\""),
        ("4 <= rating", "4 <= rating"),
        ("stories: createdAt > \"2024-01-01\"", "stories: createdAt > \"2024-01-01\""),
        ("t == \"a\\\"b\\\\c\\nd\\te\\u00e9\\ud83c\\udf77\"", "t == \"a\\\"b\\\\c\\nd\\teé🍷\""),
    ])
    func operators(source: String, expected: String) throws {
        #expect(try parsed(source) == expected)
    }

    @Test func sourceRangesOfTokens() throws {
        let query = try FilterQuery(parsing: "wineTastingNotes: ANY smells.label ==[c] \"oak\"")
        #expect(query.collection == "wineTastingNotes")
        #expect(query.collectionRange == FilterSourceRange(column: 1, length: 16))
        guard case .comparison(let c) = query.expression, case .keyPath(let path) = c.left,
            case .literal(let literal, let literalRange) = c.right
        else {
            Issue.record("unexpected tree \(query.expression)")
            return
        }
        #expect(c.quantifierRange == FilterSourceRange(column: 19, length: 3))
        #expect(path.componentRanges == [FilterSourceRange(column: 23, length: 6), FilterSourceRange(column: 30, length: 5)])
        #expect(c.operatorRange == FilterSourceRange(column: 36, length: 2))
        #expect(c.options == .caseInsensitive)
        #expect(literal == .string("oak"))
        #expect(literalRange == FilterSourceRange(column: 42, length: 5))
        #expect(query.expression.range == FilterSourceRange(column: 19, length: 28))
    }

    @Test func codableJSONOfATree() throws {
        let expression = try FilterExpression(parsing: "NOT rating >= 4")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(expression), as: UTF8.self)
        #expect(
            json
                == #"{"not":{"_0":{"comparison":{"_0":{"left":{"keyPath":{"_0":{"componentRanges":[{"column":5,"length":6}],"components":[{"key":{"_0":"rating"}}]}}},"op":">=","operatorRange":{"column":12,"length":2},"options":0,"right":{"literal":{"_0":{"number":{"_0":"4"}},"range":{"column":15,"length":1}}}}}},"range":{"column":1,"length":3}}}"#
        )
    }

    @Test func codableRoundTrip() throws {
        let source =
            "stories: (ANY smells.label ==[cd] 'Chêne' OR tastes.@count BETWEEN {1, 3}) AND NOT title MATCHES '^P.*' AND id IN {'a', 'b'} AND x == $V AND y == nil AND TRUEPREDICATE"
        let query = try FilterQuery(parsing: source)
        let data = try JSONEncoder().encode(query)
        let decoded = try JSONDecoder().decode(FilterQuery.self, from: data)
        #expect(decoded == query)
        #expect(decoded.description == query.description)
    }

    @Test func builtTreeMatchesParsedDescription() {
        let tree = FilterExpression.or(
            .comparison(FilterComparison(left: .keyPath(FilterKeyPath(dotted: "look.tint")), op: .equal, right: .literal(.string("ruby"), range: nil))),
            .not(.constant(false, range: nil), range: nil))
        #expect(tree.description == "(look.tint == \"ruby\" OR NOT FALSEPREDICATE)")
    }

    @Test func variableArguments() throws {
        #expect(try CompiledFilter.variable(fromArgument: "MIN=4") == ("MIN", .number("4")))
        #expect(try CompiledFilter.variable(fromArgument: "NAME=pinot noir") == ("NAME", .string("pinot noir")))
        #expect(try CompiledFilter.variable(fromArgument: "D=2024-01-01") == ("D", .string("2024-01-01")))
        #expect(try CompiledFilter.variable(fromArgument: "Q=\"a b\"") == ("Q", .string("a b")))
        #expect(try CompiledFilter.variable(fromArgument: "F=yes") == ("F", .bool(true)))
        #expect(try CompiledFilter.variable(fromArgument: "N=NIL") == ("N", .null))
        #expect(throws: FilterError("expected NAME=VALUE, found 'MIN'", column: 1, length: 3)) {
            try CompiledFilter.variable(fromArgument: "MIN")
        }
    }
}
