import FerryPipeline
import Foundation
import FerrySchemas
import Testing

/// The published schemas bound an integer field by its range, as the reader and the rule check do.
@Suite struct SchemaDocumentRangeTests {
    static let schema = DatasetSchema(domain: .notes, version: 9, collections: [
        CollectionSchema(name: "books", recordType: RecordType("Book", [
            FieldSchema("chapters", .integer, range: 1...100),
            FieldSchema("pages", .integer, isRequired: false),
        ])),
    ])

    @Test func xsdBoundsARangedInteger() {
        let xsd = XSDPublisher.document(for: Self.schema)
        let chapters = xsd.components(separatedBy: "name=\"chapters\"").dropFirst().first?.components(separatedBy: "</xs:element>").first
        #expect(chapters?.contains("<xs:restriction base=\"xs:long\">") == true)
        #expect(chapters?.contains("<xs:minInclusive value=\"1\"/>") == true)
        #expect(chapters?.contains("<xs:maxInclusive value=\"100\"/>") == true)
        #expect(xsd.contains("<xs:element name=\"pages\" type=\"xs:long\" minOccurs=\"0\"/>"))
    }
}
