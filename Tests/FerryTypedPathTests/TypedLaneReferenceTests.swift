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

    @Test func aLineWithAFirestoreLayoutIsLeft() throws {
        let lane = try Self.lane(.vocabulary, from: 2, to: 2, rendering: false)
        let book = #"{"$collection":"wordBooks","id":"b0","title":"Book","createdAt":"2020-09-13T12:26:40Z","__collections__":{"words":{}}}"#
        #expect(TypedLaneTests.take(lane, book) == nil)
        #expect(TypedLaneTests.take(lane, book.replacingOccurrences(of: #","__collections__":{"words":{}}"#, with: "")) != nil)
    }
}
