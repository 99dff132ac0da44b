import FerryCore
import FerrySchemas
import FormatJSON
import Testing

@testable import FerryTypedPath

/// A JSON record whose keys stand in another order than the model's (sorted by `jq -S`,
/// `JSONEncoder`'s `.sortedKeys`, a Firestore export) is taken by the lane as the same record in
/// canonical order is, with the same output bytes: JSON Lines lines and document elements of every
/// model of every domain, on routes that keep the version and on the migration.
@Suite struct CanonicalOrderTests {
    static let domains: [Domain] = [.notes, .petStory, .vocabulary]

    @Test(arguments: domains, [(1, 1), (2, 2), (1, 2)])
    func recordsInAnyKeyOrderAreTakenAsInCanonicalOrder(domain: Domain, versions: (Int, Int)) throws {
        let lane = try #require(try TypedLaneNestedTests.lane(domain, from: versions.0, to: versions.1))
        var visitor = KeyOrderVisitor(lane: lane)
        domain.forEachModel(&visitor)
        #expect(visitor.mismatches.isEmpty, "\(visitor.mismatches.prefix(3).joined(separator: "\n\n"))")
        // Plain records are taken but for a few with a warning (finer precision than milliseconds);
        // a migration refuses more of the generator's records (values its steps do not map).
        if versions.0 == versions.1 {
            #expect(visitor.taken * 10 >= visitor.offered * 8, "\(visitor.taken) of \(visitor.offered) taken")
        } else {
            #expect(visitor.taken >= 5, "\(visitor.taken) of \(visitor.offered) taken")
        }
        #expect(visitor.reordered * 10 >= visitor.offered * 8, "\(visitor.reordered) shuffled of \(visitor.offered)")
    }

    /// What a fresh batch of `lane` makes of `record`: whether it took it, and what it rendered.
    static func take(_ lane: TypedLane, _ record: [UInt8], line: Bool, collection: String) -> (taken: Bool, rendered: String) {
        let batch = lane.batch()
        let taken = record.withUnsafeBufferPointer { bytes in
            line
                ? batch.take(.jsonLine(bytes, line: 2, defaultCollection: collection))
                : batch.take(.jsonElement(bytes, start: TextPosition(line: 4, column: 3), collection: collection, maximumDepth: 512))
        }
        return (taken != nil, batch.withRendered { String(decoding: $0, as: UTF8.self) })
    }

    /// Records the lane must leave whole to the general path, which reports them, even in another
    /// order: a key the type does not name, a key twice, an escaped key.
    @Test(arguments: [
        #"{"title":"T","id":"w1","colour":"red","category":"red","createdAt":"2024-05-01T09:30:00Z"}"#,
        #"{"title":"T","id":"w1","category":"red","title":"U","createdAt":"2024-05-01T09:30:00Z"}"#,
        #"{"title":"T","\u0069d":"w1","category":"red","createdAt":"2024-05-01T09:30:00Z"}"#,
        #"{"title":"T","id":"w1","category":"red","createdAt":"2024-05-01T09:30:00Z""#,
        #"{"title":"T","id":"w1","category":"red","createdAt":"2024-05-01T09:30:00Z"} x"#,
        #"{"title":"T","id":"w1","category":"red","createdAt":"2024-05-01T09:30:00Z","tastes":[{"label":"a","x":1}]}"#,
        #"{"title":"T","id":"w1","category":"red","createdAt":"2024-05-01T09:30:00Z","grape":{"id":"x"}}"#,
    ])
    func recordsWithAProblemAreLeftWhole(record: String) throws {
        let lane = try #require(try TypedLaneNestedTests.lane(.notes, from: 1, to: 1))
        for line in [true, false] {
            let (taken, rendered) = Self.take(lane, Array(record.utf8), line: line, collection: "wineNotes")
            #expect(!taken)
            #expect(rendered == "")
        }
    }

    @Test func aLinesCollectionIsReadWhereverItStandsAndWrittenFirst() throws {
        let lane = try #require(try TypedLaneNestedTests.lane(.notes, from: 1, to: 1))
        let record = #"{"alcohol":13.5,"category":"red","createdAt":"2024-05-01T09:30:00Z","$collection":"wineNotes","grape":"Pinot Noir","id":"w-001","isFavorite":true,"look":"ruby","rating":4.5,"smells":["cherry","oak"],"tastes":[{"value":0.7,"label":"acidity"}],"think":"Silky.","title":"Pinot"}"#
        let (taken, rendered) = Self.take(lane, Array(record.utf8), line: true, collection: "coffeeNotes")
        #expect(taken)
        #expect(rendered == """
            {"$collection":"wineNotes","id":"w-001","title":"Pinot","category":"red","createdAt":"2024-05-01T09:30:00Z","alcohol":13.5,"look":"ruby","smells":["cherry","oak"],"tastes":[{"label":"acidity","value":0.7}],"grape":"Pinot Noir","think":"Silky.","rating":4.5,"isFavorite":true}

            """)
    }

    /// A Firestore Timestamp with its nanoseconds first, bare and in the typed wrapper, is put
    /// in the order the cursor reads from the bytes.
    @Test func timestampsAreTakenWithTheirMembersInEitherOrder() throws {
        let lane = try #require(try TypedLaneNestedTests.lane(.vocabulary, from: 1, to: 1))
        let bare = #"{"wordBookID":"b1","id":"w1","studyState":1,"timestamp":{"_nanoseconds":5,"_seconds":1600000000}}"#
        let wrapped = #"{"timestamp":{"value":{"_nanoseconds":5,"_seconds":1600000000},"__datatype__":"timestamp"},"id":"w1","wordBookID":"b1","studyState":1}"#
        let expected = """
            {"$collection":"words","id":"w1","wordBookID":"b1","meaningText":"","meaningImageURL":"","ganaText":"","ganaImageURL":"","kanjiText":"","kanjiImageURL":"","studyState":1,"timestamp":{"_seconds":1600000000,"_nanoseconds":5}}

            """
        for record in [bare, wrapped] {
            let (taken, rendered) = Self.take(lane, Array(record.utf8), line: false, collection: "words")
            #expect(taken)
            #expect(rendered == expected)
        }
    }
}

/// Offers each generated plain record of every model the lane has a route for, in canonical
/// order and with every object's members shuffled, as a line and as a document element.
struct KeyOrderVisitor: CollectionModelVisitor {
    let lane: TypedLane
    var offered = 0
    var taken = 0
    var reordered = 0
    var mismatches: [String] = []

    mutating func visit<Model: FieldCodableCollection>(_ type: Model.Type) {
        // The models of the routes' source version only.
        guard let route = lane.routes[Model.collection], route.route.sourceModel == Model.self else { return }
        var generator = RecordGenerator(random: SeededGenerator(state: UInt64(offered + 17)), brokenPercent: 0)
        var shuffler = SeededGenerator(state: UInt64(offered + 101))
        for _ in 0..<60 {
            let value = generator.object(Model.recordType)
            let shuffled = Self.shuffled(value, &shuffler)
            guard let canonical = try? JSONText.encode(value, pretty: false),
                  let other = try? JSONText.encode(shuffled, pretty: true)
            else { continue }
            offered += 1
            if shuffled != value { reordered += 1 }
            for line in [true, false] {
                let text = line ? Array(#"{"$collection":""#.utf8) + Array(Model.collection.utf8) + Array(#"","#.utf8) + canonical.dropFirst() : canonical
                let a = CanonicalOrderTests.take(lane, text, line: line, collection: Model.collection)
                let b = CanonicalOrderTests.take(lane, other, line: line, collection: Model.collection)
                if line, a.taken { taken += 1 }
                if a.taken != b.taken || a.rendered != b.rendered {
                    mismatches.append("""
                        \(Model.self) (\(line ? "line" : "element")): canonical taken \(a.taken), shuffled taken \(b.taken)
                        \(String(decoding: text, as: UTF8.self))
                        \(String(decoding: other, as: UTF8.self))
                        \(a.rendered)
                        \(b.rendered)
                        """)
                }
            }
        }
    }

    /// `value` with the members of every object in it shuffled.
    static func shuffled(_ value: Value, _ random: inout SeededGenerator) -> Value {
        switch value {
        case .object(let object):
            var members = object.members.map { ($0.key, shuffled($0.value, &random)) }
            members.shuffle(using: &random)
            return .object(ValueObject(members))
        case .array(let elements):
            return .array(elements.map { shuffled($0, &random) })
        default:
            return value
        }
    }
}
