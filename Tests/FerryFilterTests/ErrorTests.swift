import FerryCore
import FerryFilter
import Foundation
import Testing

@Suite struct ErrorTests {
    /// The error compiling `source` throws.
    private func error(
        _ source: String, schema: FilterSchema? = nil, variables: [String: Value] = [:]
    ) -> FilterError? {
        do {
            _ = try CompiledFilter(source, variables: variables, schema: schema)
            return nil
        } catch {
            return error
        }
    }

    @Test func unknownKeySuggestsTheClosest() throws {
        let e = try #require(error("ratng > 4", schema: NotesSchema.schema))
        #expect(
            e.message
                == "unknown key 'ratng'; did you mean 'rating'? keys: rating, grape, tastes, think, title, category, id, look, createdAt, finish, smells, isFavorite, alcoholByVolume"
        )
        #expect(e.column == 1)
        #expect(e.length == 5)
        #expect(e.caretLine(for: "ratng > 4") == "ratng > 4\n^~~~~")
        let d = e.diagnostic()
        #expect(d.description == "--where:1:1: error: \(e.message) [usage]")
        #expect(d.exitStatus == .usage)
    }

    @Test func unknownKeyInACollectionAndNested() throws {
        let e = try #require(error("wineTastingNotes: look.tnt == 'ruby'", schema: NotesSchema.schema))
        #expect(e.message == "unknown key 'tnt' in 'look'; did you mean 'tint'? keys: tint, note")
        #expect(e.range == FilterSourceRange(column: 24, length: 3))
        // `finish` exists in whiskey notes only.
        let f = try #require(error("wineTastingNotes: finish.length == 'long'", schema: NotesSchema.schema))
        #expect(
            f.message
                == "unknown key 'finish'; keys: id, rating, think, title, grape, look, smells, tastes, category, isFavorite, createdAt, alcoholByVolume"
        )
        let g = try #require(error("storys: id == 'x'", schema: NotesSchema.schema))
        #expect(g.message == "unknown collection 'storys'; collections: wineTastingNotes, whiskeyTastingNotes")
        #expect(g.range == FilterSourceRange(column: 1, length: 6))
    }

    @Test(arguments: [
        ("rating CONTAINS \"x\"", "CONTAINS needs a string; 'rating' is a number", 8, 8),
        ("rating LIKE[c] \"x\"", "LIKE needs a string; 'rating' is a number", 8, 4),
        ("isFavorite < TRUE", "'<' does not apply to 'isFavorite' (a boolean); use == or !=", 12, 1),
        ("ANY rating > 1", "ANY needs a list; 'rating' is a number", 1, 10),
        ("NONE look.tint == 'x'", "NONE needs a list; 'look.tint' is a string", 1, 14),
        ("rating.@count > 1", "@count needs a list; 'rating' is a number", 8, 6),
        ("rating == \"4\"", "'rating' is a number; compare it with a number, not a string", 11, 3),
        ("title == 4", "'title' is a string; compare it with a string, not a number", 10, 1),
        ("isFavorite == 'yes'", "'isFavorite' is a boolean; compare it with TRUE or FALSE, not a string", 15, 5),
        ("rating BETWEEN {1, 'x'}", "'rating' is a number; compare it with a number, not a string", 20, 3),
        ("createdAt > \"yesterday\"",
         "\"yesterday\" is not a date; 'createdAt' is an instant: write an RFC 3339 instant (2024-01-01T00:00:00Z) or a day (2024-01-01)",
         13, 11),
        ("createdAt > \"2024-01-01T10:00:00\"",
         "\"2024-01-01T10:00:00\" is not a date; 'createdAt' is an instant: write an RFC 3339 instant (2024-01-01T00:00:00Z) or a day (2024-01-01)",
         13, 21),
        ("createdAt > 5", "'createdAt' is an instant; compare it with a date string such as \"2024-01-01\", not a number", 13, 1),
        ("smells.label == \"oak\"",
         "'smells.label' is a list of strings; use ANY, ALL or NONE to compare its items, or CONTAINS to look for one", 1, 12),
        ("look == 'ruby'", "'look' is an object; compare one of its keys: note, tint", 1, 4),
        ("rating.x > 1", "'rating' is a number; it has no key 'x'", 8, 1),
        ("4 < title", "'title' is a string; compare it with a string, not a number", 1, 1),
        ("rating > title", "cannot compare 'rating' (a number) with 'title' (a string)", 10, 5),
        ("whiskeyTastingNotes: finish.length == 'lnog'",
         "unknown value 'lnog' of 'finish.length'; did you mean 'long'? values: long, short, medium", 39, 6),
        ("rating > NIL", "'>' with NIL is never true; use == NIL or != NIL", 10, 3),
    ])
    func typeMismatches(source: String, message: String, column: Int, length: Int) throws {
        let e = try #require(error(source, schema: NotesSchema.schema))
        #expect(e.message == message)
        #expect(e.column == column)
        #expect(e.length == length)
    }

    @Test func fittingFilterPassesTheCheckAndSelects() throws {
        let source = "rating >= 4 AND title CONTAINS[c] \"pinot\""
        let query = try FilterQuery(parsing: source)
        try NotesSchema.schema.check(query)
        try query.expression.check(against: NotesSchema.schema, collection: "wineTastingNotes")
        let filter = try CompiledFilter(source, schema: NotesSchema.schema)
        let ids = NotesSchema.records.filter { filter.evaluate($0, collection: "wineTastingNotes") }
            .compactMap { $0.objectValue?["id"]?.stringValue }
        #expect(ids == ["n1", "n4"])
        // Other fitting filters.
        for fitting in [
            "ANY smells.label ==[c] 'oak'", "tastes.@count > 2", "NONE tastes.value > 0.5", "look.tint == 'ruby'",
            "'oak' IN smells.label", "smells.label CONTAINS 'oak'", "createdAt > '2024-01-01'", "isFavorite == YES",
            "grape != nil", "id IN {'a', 'b'}", "title MATCHES '[A-Z].*'", "whiskeyTastingNotes: finish.length ==[c] 'LONG'",
        ] {
            #expect(throws: Never.self, "\(fitting)") { try CompiledFilter(fitting, schema: NotesSchema.schema) }
        }
    }

    @Test(arguments: [
        ("title == \"pinot", "unterminated string: no closing \"", 10, 6),
        ("title == 'pinot\\'", "unterminated string: no closing '", 10, 8),
        ("title == \"a\\qb\"", "unknown escape '\\q' in string", 12, 2),
        ("title == \"\\u12\"", "\\u needs four hexadecimal digits", 11, 4),
        ("rating ~ 4",
         "unknown operator '~'; expected one of ==, !=, <, <=, >, >=, BETWEEN, IN, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES", 8, 1),
        ("rating ~= 4",
         "unknown operator '~='; expected one of ==, !=, <, <=, >, >=, BETWEEN, IN, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES", 8, 2),
        ("title IS \"x\"",
         "unknown operator 'IS'; expected one of ==, !=, <, <=, >, >=, BETWEEN, IN, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES", 7, 2),
        ("title ==", "expected a value after '==', found end of input", 9, 1),
        ("title", "expected an operator after 'title', found end of input", 6, 1),
        ("", "empty filter: expected a comparison such as rating >= 4", 1, 1),
        ("(rating > 4", "unbalanced parentheses: '(' at column 1 is never closed", 1, 1),
        ("((rating > 4) AND x == 1", "unbalanced parentheses: '(' at column 1 is never closed", 1, 1),
        ("rating > 4)", "unbalanced parentheses: ')' has no matching '('", 11, 1),
        ("rating > 4 x == 1", "expected AND, OR or the end of the filter, found 'x'", 12, 1),
        ("id IN {'a', 'b'", "unbalanced braces: '{' at column 7 is never closed", 7, 1),
        ("rating BETWEEN {1}", "BETWEEN needs two values {low, high}, found 1", 16, 3),
        ("rating BETWEEN 1", "BETWEEN needs two values {low, high}", 16, 1),
        ("title ==[x] 'a'", "unknown modifier 'x'; supported: [c], [d], [cd]", 10, 1),
        ("title MATCHES \"a(\"", "invalid regular expression \"a(\" (ICU syntax)", 15, 4),
        ("rating >= $MIN", "unset variable '$MIN'; give it with --var MIN=VALUE", 11, 4),
        ("tastes[0].label == 'x'", "indexing with [ ] is not supported; use ANY, ALL or NONE over the list", 7, 1),
        ("SUBQUERY(tastes, $t, $t.value > 1).@count > 0",
         "SUBQUERY is not supported (see Docs/filters.md); write a key with # to use it as a name", 1, 8),
        ("tastes.@size > 1", "unknown collection operator '@size'; supported: @count, @sum, @avg, @min, @max", 8, 5),
        ("ANY 4 == 4", "ANY must be followed by a key path naming a list", 1, 5),
        ("rating == 4 AND", "expected a key path or a value, found end of input", 16, 1),
        ("rating > 4 # 1", "expected a key after '#'", 12, 1),
        ("rating > 12abc", "malformed number", 10, 5),
        ("title == 'x' ; y", "unexpected character ';'", 14, 1),
    ])
    func syntaxErrors(source: String, message: String, column: Int, length: Int) throws {
        let e = try #require(error(source))
        #expect(e.message == message)
        #expect(e.column == column)
        #expect(e.length == length)
    }

    @Test func caretLines() throws {
        let e = try #require(error("rating CONTAINS \"x\"", schema: NotesSchema.schema))
        #expect(e.caretLine(for: "rating CONTAINS \"x\"") == "rating CONTAINS \"x\"\n       ^~~~~~~~")
        let end = try #require(error("title =="))
        #expect(end.caretLine(for: "title ==") == "title ==\n        ^")
        // Columns count Unicode scalars; a tab is shown as \t and the caret moves by its two characters.
        let wide = try #require(error("\ttitre == 'é' ~ x"))
        #expect(wide.caretLine(for: "\ttitre == 'é' ~ x") == "\\ttitre == 'é' ~ x\n               ^")
        // A control or line break in the text is escaped, and the caret moves by its escaped width.
        let bell = try #require(error("ratng\r\u{7} > 4\nferry: error: forged"))
        #expect(bell.column == 7)
        #expect(bell.caretLine(for: "ratng\r\u{7} > 4\nferry: error: forged")
            == #"ratng\r\u0007 > 4\nferry: error: forged"# + "\n       ^")
    }

    @Test func variablesHoldingObjectsAreRefused() throws {
        let e = try #require(error("x == $V", variables: ["V": ["a": 1]]))
        #expect(e.message == "variable '$V' holds an object; only strings, numbers, booleans, NIL and lists of them can be used")
        #expect(e.range == FilterSourceRange(column: 6, length: 2))
    }
}
