import FerryCore
import FerrySchemas
import Foundation
import Testing

@testable import FerryTypedPath

/// What the lane of a bundle does beyond a lone file's: it reads CSV rows of headers it was not
/// made for (each CSV data member has its own) as text whatever the run's other members are, and
/// with media present it leaves a record that may name a media file to the general path.
@Suite struct TypedLaneBundleTests {
    static let book = #"{"$collection":"wordBooks","id":"b1","title":"Book","createdAt":"2020-09-13T12:26:40Z"}"#

    static func lane(declining: Bool) throws -> TypedLane {
        let processor = try DatasetProcessor(domain: .vocabulary, sourceVersion: 2, targetVersion: 2,
            options: ProcessingOptions(), log: DiagnosticLog())
        return try #require(TypedLane(preparer: processor.preparer, output: .nothing, declinesMediaNames: declining))
    }

    /// `cells` offered as a row of `columns` (of collection `wordBooks`) in a batch of its own.
    static func takeRow(_ lane: TypedLane, columns: [String], _ cells: [String]) -> String? {
        let batch = lane.batch()
        let texts = cells.map { Array($0.utf8) }
        let pointers = texts.map { text in
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(text.count, 1))
            _ = buffer.initialize(from: text)
            return UnsafeBufferPointer(rebasing: UnsafeBufferPointer(buffer)[0..<text.count])
        }
        defer { for pointer in pointers { UnsafeMutableRawPointer(mutating: pointer.baseAddress!).deallocate() } }
        let raw = pointers.map { RawCSVCell(text: $0, isAbsent: $0.isEmpty, isQuoted: false) }
        let taken = raw.withUnsafeBufferPointer {
            batch.take(.csvRow(RawCSVRow(columns: columns, cells: $0, collection: "wordBooks", line: 2)))
        }
        return taken.flatMap { batch.preparation(of: $0.payload)?.id }
    }

    @Test func rowsOfAnyHeaderAreReadAsText() throws {
        let lane = try Self.lane(declining: false)
        #expect(Self.takeRow(lane, columns: ["id", "title", "createdAt"], ["b1", "Book", "2020-09-13T12:26:40Z"]) == "b1")
        #expect(Self.takeRow(lane, columns: ["createdAt", "id", "title"], ["2020-09-13T12:26:40Z", "b2", "Book"]) == "b2")
        // A row the general path reports on (no createdAt) is left to it.
        #expect(Self.takeRow(lane, columns: ["id", "title"], ["b3", "Book"]) == nil)
    }

    @Test func withMediaARecordThatMayNameOneIsLeft() throws {
        for declining in [false, true] {
            let lane = try Self.lane(declining: declining)
            #expect(TypedLaneTests.take(lane, Self.book) != nil)
            let naming = Self.book.replacingOccurrences(of: #""Book""#, with: #""media/x.png""#)
            #expect((TypedLaneTests.take(lane, naming) == nil) == declining)
            let escaped = Self.book.replacingOccurrences(of: #""Book""#, with: #""\u006Dedia/x.png""#)
            #expect((TypedLaneTests.take(lane, escaped) == nil) == declining)
            #expect(Self.takeRow(lane, columns: ["id", "title", "createdAt"], ["b1", "Book", "2020-09-13T12:26:40Z"]) == "b1")
            #expect((Self.takeRow(lane, columns: ["id", "title", "createdAt"], ["b1", "media/x.png", "2020-09-13T12:26:40Z"]) == nil)
                == declining)
        }
    }
}
