import FerryTestSupport
import Foundation
import Testing

/// XML values as users' files hold them: empty list elements, and diagnostics at the field's own
/// element.
@Suite struct ValuesCLITests {
    /// A dataset of each domain at each version, as a sample and the version to write it at.
    static let datasets: [(sample: String, version: Int)] = [
        ("notes-v1.json", 1), ("notes-v1.json", 2), ("pet-story-v1.json", 1), ("pet-story-v1.json", 2),
        ("vocabulary-v1-node-firestore.json", 1), ("vocabulary-v1-node-firestore.json", 2),
    ]

    /// Writes `sample` at `version` as `data.xml` in a new sandbox.
    private func xmlDataset(_ sample: String, version: Int) throws -> Sandbox {
        let box = try Sandbox()
        try box.copySample(sample, to: "input.json")
        let run = try box.ferry(["migrate", "input.json", "--to-version", String(version), "-o", "data.xml"])
        #expect(run.status == 0, "\(run.stderr)")
        return box
    }

    /// Each list element's name in `xml` (an element whose first child is `<item>`), with the
    /// lines of its first occurrence (opening and closing tag, 0-based) and indentation.
    private static func listElements(_ lines: [String]) -> [(name: String, open: Int, close: Int, indent: String)] {
        var found: [(name: String, open: Int, close: Int, indent: String)] = []
        for i in 0..<(lines.count - 1) {
            let trimmed = lines[i].trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("<"), trimmed.hasSuffix(">"), !trimmed.hasPrefix("</"), !trimmed.contains(" "),
                  lines[i + 1].trimmingCharacters(in: .whitespaces).hasPrefix("<item")
            else { continue }
            let name = String(trimmed.dropFirst().dropLast())
            guard !found.contains(where: { $0.name == name }) else { continue }
            let indent = String(lines[i].prefix { $0 == " " })
            guard let close = lines[(i + 1)...].firstIndex(of: indent + "</\(name)>") else { continue }
            found.append((name, i, close, indent))
        }
        return found
    }

    /// `<smells/>` and `<smells></smells>` read as `[]`, exactly as the marked `<smells
    /// type="list"/>` the writer uses: for every list field of the three domains' XML.
    @Test(arguments: datasets.map { "\($0.sample) v\($0.version)" })
    func emptyListElementsAreEmptyLists(dataset: String) throws {
        let (sample, version) = Self.datasets.first { "\($0.sample) v\($0.version)" == dataset }!
        let box = try xmlDataset(sample, version: version)
        let lines = try box.text("data.xml").components(separatedBy: "\n")
        let lists = Self.listElements(lines)
        let expected: [String: Set<String>] = [
            "notes-v1.json v1": ["smells", "tastes", "ingredients"],
            "notes-v1.json v2": ["smells", "tastes", "ingredients"],
            "pet-story-v1.json v1": ["mediaContentIds", "taggedMemberIds"],
            "pet-story-v1.json v2": ["media", "taggedMemberIds"],
        ]
        #expect(Set(lists.map(\.name)) == expected[dataset] ?? [])
        for list in lists {
            var outputs: [String] = []
            for empty in ["<\(list.name) type=\"list\"/>", "<\(list.name)/>", "<\(list.name)></\(list.name)>"] {
                var edited = lines
                edited.replaceSubrange(list.open...list.close, with: [list.indent + empty])
                try box.write("edited.xml", edited.joined(separator: "\n"))
                let run = try box.ferry(["convert", "edited.xml", "--to", "json", "-o", "-"])
                #expect(run.status == 0, "\(dataset) \(empty): \(run.stderr)")
                #expect(run.errors.isEmpty, "\(dataset) \(empty)")
                #expect(run.stdout.contains("\"\(list.name)\": []"), "\(dataset) \(empty)")
                outputs.append(run.stdout)
            }
            #expect(Set(outputs).count == 1, "\(dataset) \(list.name)")
        }
    }

    /// A type error in XML points at the field's own element (its `<`), nested ones included,
    /// never at the record's element.
    @Test(arguments: [
        ("notes-v1.json", 2, "<alcoholByVolume>13.5</alcoholByVolume>", "<alcoholByVolume>abc</alcoholByVolume>",
         ": alcoholByVolume: expected a number, found \"abc\""),
        ("notes-v1.json", 2, "<value>0.4</value>", "<value>x</value>",
         "/tastes/1/value: tastes/1/value: expected a number, found \"x\""),
        ("notes-v1.json", 1, "<isFavorite>true</isFavorite>", "<isFavorite>yes</isFavorite>",
         ": isFavorite: expected a Boolean, found \"yes\""),
        ("pet-story-v1.json", 2, "<latitude>", "<latitude>north</latitude><x>",
         "/location/latitude: location/latitude: expected a number, found \"north\""),
        ("pet-story-v1.json", 1, "<createdAt>", "<createdAt>yesterday</createdAt><x>",
         ": createdAt \"yesterday\" "),
        ("vocabulary-v1-node-firestore.json", 1, "<studyState>", "<studyState>one</studyState><x>",
         "/studyState: studyState: expected an integer, found \"one\""),
        ("vocabulary-v1-node-firestore.json", 2, "<createdAt>", "<createdAt>later</createdAt><x>",
         ": createdAt \"later\" "),
    ])
    func xmlTypeErrorsPointAtTheFieldsElement(sample: String, version: Int, needle: String, replacement: String,
                                              message: String) throws {
        let box = try xmlDataset(sample, version: version)
        let xml = try box.text("data.xml")
        let range = try #require(xml.range(of: needle))
        var edited = xml.replacingCharacters(in: range, with: replacement)
        if replacement.hasSuffix("<x>") {
            // The original element's text and end tag follow: drop them with the stand-in `<x>`.
            let start = try #require(edited.range(of: "<x>"))
            let end = try #require(edited.range(of: "</" + needle.dropFirst(), range: start.upperBound..<edited.endIndex))
            edited.removeSubrange(start.lowerBound..<end.upperBound)
        }
        try box.write("bad.xml", edited)
        let run = try box.ferry(["validate", "bad.xml"])
        #expect(run.status == 1)
        let element = replacement.hasSuffix("<x>") ? String(replacement.dropLast(3)) : replacement
        let expected = "bad.xml:\(position(of: element, in: edited)):"
        #expect(run.errors.count == 1, "\(run.stderr)")
        let line = try #require(run.errors.first)
        #expect(line.hasPrefix(expected + " error: /"), "\(line) expected \(expected)")
        #expect(line.contains(message), "\(line) expected \(message)")
    }
}
