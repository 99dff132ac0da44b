import FerryCore
import FerrySchemas

/// The records `--lenient` holds back until every id they name is settled (SCHEMAS.md: a
/// `taggedMemberIds` or `wordBookID` must name a record of the dataset, which may come later in
/// the input), so that what it writes passes `ferry validate`: a record whose reference dangles
/// at the end is dropped, as a record with any other error is.
///
/// Records leave in input order: once one is held, those after it wait behind it, and each
/// commit releases the run of records at the front whose ids are now read. Past
/// `memoryLimit` records held, the values of the next ones are parked in a `SpoolFile` (their
/// locators are dropped then: a later diagnostic about one names its record's line, not its
/// field's), so memory grows by the size of a record's location per record held, not by its
/// value. Only the collections a domain's references point into settle others, and those
/// make no references themselves, so releasing never has to look back at a record let go.
final class HeldRecords {
    private struct Entry {
        /// The record; its value is `.null` while it is parked in the spool.
        var record: Record
        /// Where its value lies in the spool, when it is parked there.
        var parked: (offset: Int64, count: Int)?
        /// The ids it names that were not read when it was last looked at.
        var unresolved: [DatasetProcessor.ReferencedID]
    }

    /// The records held in memory (values included) before the next are parked.
    static let memoryLimit = 4096

    private let processor: DatasetProcessor
    private var entries: [Entry] = []
    /// The first entry still held (those before it were released).
    private var head = 0
    private var inMemory = 0
    private var spool: SpoolFile?
    private var scratch: [UInt8] = []

    init(processor: DatasetProcessor) {
        self.processor = processor
    }

    /// The records that can be written now, in input order: those of `records` (the last commit's,
    /// with `processor.unresolvedReferences`) and those held before them, up to the first whose
    /// ids are not all read yet.
    /// - Throws: `FerryError(.outputUnwritable)` when the spool cannot be written or read.
    func pass(_ records: [Record]) throws -> [Record] {
        let unresolved = processor.unresolvedReferences
        // The usual record: nothing held, nothing unsettled.
        if head == entries.count, unresolved.allSatisfy(\.isEmpty) { return records }
        for (record, references) in zip(records, unresolved) { try hold(record, references) }
        return try release(final: false)
    }

    /// The records still held whose ids were all read, once the input is read; the others are
    /// dropped (their `dangling-reference` errors come from `DatasetProcessor.finish()`).
    /// - Throws: `FerryError(.outputUnwritable)` when the spool cannot be read.
    func drain() throws -> [Record] {
        try release(final: true)
    }

    private func hold(_ record: Record, _ references: [DatasetProcessor.ReferencedID]) throws {
        guard inMemory >= Self.memoryLimit else {
            entries.append(Entry(record: record, parked: nil, unresolved: references))
            inMemory += 1
            return
        }
        let file = try spool ?? SpoolFile(kind: "held-records")
        spool = file
        scratch.removeAll(keepingCapacity: true)
        ValueSpoolCoding.encode(record.value, into: &scratch)
        let offset = try file.append(scratch)
        var parked = record
        parked.value = .null
        parked.locator = nil
        entries.append(Entry(record: parked, parked: (offset, scratch.count), unresolved: references))
    }

    private func release(final: Bool) throws -> [Record] {
        var released: [Record] = []
        while head < entries.count {
            entries[head].unresolved.removeAll(where: processor.isRead)
            let entry = entries[head]
            if !entry.unresolved.isEmpty, !final { break }
            head += 1
            if entry.parked == nil { inMemory -= 1 }
            guard entry.unresolved.isEmpty else { continue }
            var record = entry.record
            if let parked = entry.parked, let spool {
                record.value = try ValueSpoolCoding.decode(spool.bytes(at: parked.offset, count: parked.count))
            }
            released.append(record)
        }
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
            spool = nil
        } else if head >= 1024, head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
        return released
    }
}
