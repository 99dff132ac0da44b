import FerryCore
import FerrySchemas
import Foundation
import Testing

@testable import FerryTypedPath

/// The lane takes records that name others (pet-story's stories, vocabulary's words) and hands
/// their references to the commit in the preparation.
@Suite struct TypedLaneReferenceTests {
    static let story = #"{"$collection":"stories","id":"s1","caption":"c","createdAt":"2024-01-01T08:00:00Z","media":[],"taggedMemberIds":["m1","m2"]}"#
    static let v2Word = #"{"$collection":"words","id":"w1","wordBookID":"b1","meaningText":"m","meaningImageURL":"","ganaText":"g","ganaImageURL":"","kanjiText":"k","kanjiImageURL":"","studyState":"success","timestamp":"2020-09-13T12:26:40Z"}"#

    static func lane(_ domain: Domain, from source: Int, to target: Int, rendering: Bool) throws -> TypedLane {
        let processor = try DatasetProcessor(domain: domain, sourceVersion: source, targetVersion: target,
            options: ProcessingOptions(), log: DiagnosticLog())
        let output: LaneOutput = rendering ? .lines(JSONLinesRendering(options: WriteOptions())!) : .nothing
        return try #require(TypedLane(preparer: processor.preparer, output: output))
    }

    @Test(arguments: [false, true])
    func aStoryIsTakenWithTheMembersItTags(rendering: Bool) throws {
        let lane = try Self.lane(.petStory, from: 2, to: 2, rendering: rendering)
        let (taken, rendered, preparation) = TypedLaneTests.takeRendering(lane, Self.story)
        #expect(taken?.collection == "stories")
        #expect(rendered == (rendering ? Self.story + "\n" : nil))
        let references = try #require(preparation?.references)
        #expect(references.map(\.id) == ["m1", "m2"])
        #expect(references.map(\.index) == [0, 1])
    }

    @Test func aWordIsTakenWithTheBookItNames() throws {
        let lane = try Self.lane(.vocabulary, from: 2, to: 2, rendering: true)
        let (taken, rendered, preparation) = TypedLaneTests.takeRendering(lane, Self.v2Word)
        #expect(taken?.collection == "words")
        #expect(rendered == Self.v2Word + "\n")
        #expect(preparation?.id == "w1")
        #expect(preparation?.references.map(\.id) == ["b1"])
        #expect(preparation?.references.map(\.index) == [nil])
    }

    /// A V1 story migrates on the lane (its V2 model checks across fields and is read back in
    /// full): read as V1, its step run, the V2 line rendered, with the members it tags; a story
    /// whose step reports (a media file not exported) is left to the general path.
    @Test func aV1StoryMigratesWithTheMembersItTags() throws {
        let lane = try Self.lane(.petStory, from: 1, to: 2, rendering: true)
        let v1 = #"{"$collection":"stories","id":"s1","caption":"c","createdAt":"2024-01-01T08:00:00Z","mediaContentIds":[],"lat":1.5,"lng":2.5,"taggedMemberIds":["m1","m2"]}"#
        let (taken, rendered, preparation) = TypedLaneTests.takeRendering(lane, v1)
        #expect(taken?.collection == "stories")
        #expect(rendered == #"{"$collection":"stories","id":"s1","caption":"c","createdAt":"2024-01-01T08:00:00Z","media":[],"location":{"latitude":1.5,"longitude":2.5},"taggedMemberIds":["m1","m2"]}"# + "\n")
        #expect(preparation?.id == "s1")
        #expect(preparation?.references.map(\.id) == ["m1", "m2"])
        #expect(preparation?.references.map(\.index) == [0, 1])
        let withMedia = v1.replacingOccurrences(of: #""mediaContentIds":[]"#, with: #""mediaContentIds":["x"]"#)
        #expect(TypedLaneTests.take(lane, withMedia) == nil)
    }

    /// Lines of profiles, members and stories in turn, taken in one batch, give what the same lines
    /// give taken one collection at a time (a new batch whenever the collection changes): the same
    /// records taken and left, ids, references, output bytes, and diagnostics once committed (a
    /// duplicate member id, a story tagging a member never read). The batch tries its previous
    /// line's route first; a change of collection must find the other route.
    @Test func oneBatchTakesLinesOfSeveralCollectionsInTurn() throws {
        let profile = #"{"$collection":"profiles","id":"p1","name":"Home","createdAt":"2023-01-10T10:00:00Z","lastUpdatedAt":"2024-06-01T12:00:00Z"}"#
        let member1 = #"{"$collection":"members","id":"m1","name":"Pet 1","since":"2010-04-03","birthDate":"2010-01-01","species":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}"#
        let member2 = member1.replacingOccurrences(of: #""id":"m1","name":"Pet 1""#, with: #""id":"m2","name":"Pet 2""#)
        let story1 = #"{"$collection":"stories","id":"s1","caption":"nap","createdAt":"2024-01-01T08:00:00Z","media":[],"taggedMemberIds":["m1"]}"#
        let story2 = #"{"$collection":"stories","id":"s2","caption":"walk","createdAt":"2024-01-02T08:00:00Z","media":[],"taggedMemberIds":["m2","m9","m1"]}"#
        let unknown = #"{"$collection":"walks","id":"w1"}"#
        let lines = [profile, member1, story1, member2, story2, unknown, member1, story1, profile]

        /// What the lines become, each batch's rendered bytes, and the diagnostics of committing
        /// the taken ones in order; `split`: a new batch when the collection changes.
        func run(split: Bool) throws -> (taken: [String], rendered: [String], diagnostics: [Diagnostic]) {
            let log = DiagnosticLog()
            let processor = try DatasetProcessor(domain: .petStory, sourceVersion: 2, targetVersion: 2,
                options: ProcessingOptions(), log: log)
            let lane = try #require(TypedLane(preparer: processor.preparer,
                output: .lines(JSONLinesRendering(options: WriteOptions())!)))
            var batches: [TypedLaneBatch] = []
            var collection: String? = nil
            var taken: [String] = []
            for (index, text) in lines.enumerated() {
                let named = String(text.split(separator: "\"")[3])
                if batches.isEmpty || (split && named != collection) { batches.append(lane.batch()) }
                collection = named
                var line = text
                let batch = batches[batches.count - 1]
                let record = line.withUTF8 { batch.take(.jsonLine($0, line: index + 2, defaultCollection: nil)) }
                guard let record, let preparation = batch.preparation(of: record.payload) else {
                    taken.append("left")
                    continue
                }
                let references = preparation.references.map { "\($0.rule):\($0.id):\($0.index.map(String.init) ?? "-")" }
                taken.append("\(record.collection ?? "-") \(preparation.id ?? "-") \(preparation.singleLine) [\(references.joined(separator: ","))]")
                let location = SourceLocation(line: index + 2, column: 1, collection: record.collection)
                _ = processor.commit(typed: preparation,
                    record: Record(collection: record.collection, value: .null, location: location))
            }
            processor.finish()
            let rendered = batches.map { $0.withRendered { String(decoding: $0, as: UTF8.self) } }
            return (taken, rendered, log.diagnostics)
        }

        let together = try run(split: false)
        let apart = try run(split: true)
        #expect(together.taken == [
            "profiles p1 2 []", "members m1 3 []", "stories s1 4 [0:m1:0]", "members m2 5 []",
            "stories s2 6 [0:m2:0,0:m9:1,0:m1:2]", "left", "members m1 8 []", "stories s1 9 [0:m1:0]", "profiles p1 10 []",
        ])
        #expect(apart.taken == together.taken)
        let expected = [profile, member1, story1, member2, story2, member1, story1, profile].map { $0 + "\n" }
        #expect(together.rendered == [expected.joined()])
        // One batch a run of one collection; the unknown collection's renders nothing.
        #expect(apart.rendered == Array(expected[0..<5]) + [""] + Array(expected[5...]))
        #expect(together.diagnostics.map(\.code) == [.duplicateID, .duplicateID, .duplicateID, .danglingReference])
        #expect(apart.diagnostics == together.diagnostics)
    }

    @Test func aLineWithAFirestoreLayoutIsLeft() throws {
        let lane = try Self.lane(.vocabulary, from: 2, to: 2, rendering: false)
        let book = #"{"$collection":"wordBooks","id":"b0","title":"Book","createdAt":"2020-09-13T12:26:40Z","__collections__":{"words":{}}}"#
        #expect(TypedLaneTests.take(lane, book) == nil)
        #expect(TypedLaneTests.take(lane, book.replacingOccurrences(of: #","__collections__":{"words":{}}"#, with: "")) != nil)
    }
}
