import FerryCore
import FormatXML
import Testing

/// The positions a record's locator gives for its fields: the `<` of the field's element, matched
/// by the whole pointer (keys, `<item>` indexes, `<field name>` keys), the first element in
/// document order when a key repeats, nil for a field with no element.
@Suite struct XMLFieldLocatorTests {
    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <dataset>
          <a>
            <r>
              <id>x</id>
              <tastes>
                <item><value>1</value></item>
                <item>
                  <value>2</value>
                </item>
              </tastes>
              <field name="a b">t</field>
              <id>dup</id>
            </r>
          </a>
        </dataset>

        """

    static let cases: [(pointer: String, position: TextPosition?)] = [
        ("/id", TextPosition(line: 5, column: 7)),
        ("/tastes", TextPosition(line: 6, column: 7)),
        ("/tastes/0", TextPosition(line: 7, column: 9)),
        ("/tastes/0/value", TextPosition(line: 7, column: 15)),
        ("/tastes/1", TextPosition(line: 8, column: 9)),
        ("/tastes/1/value", TextPosition(line: 9, column: 11)),
        ("/a b", TextPosition(line: 12, column: 7)),
        ("/tastes/01/value", nil),
        ("/tastes/2", nil),
        ("/value", nil),
        ("/tastes/item", nil),
        ("/missing", nil),
        ("", nil),
    ]

    @Test(arguments: cases)
    func position(pointer: String, position: TextPosition?) throws {
        let result = try readAll(Array(Self.document.utf8))
        #expect(result.error == nil)
        let record = try #require(result.records.first)
        #expect(record.location.position == TextPosition(line: 4, column: 5))
        let locator = try #require(record.locator)
        #expect(locator.position(of: JSONPointer(pointer)) == position)
        #expect(locator.line(of: JSONPointer(pointer)) == position?.line)
    }
}
