import FerryCore

/// `--jobs` (issue 7): the reader cuts batches of raw rows that workers scan and decode, with
/// `CSVBatchCutter` finding where rows end; rows it cannot cut safely (an unterminated quote, a
/// row past `batchRowLimit`) and inputs in other encodings than UTF-8 are read here, row by row,
/// so the batches give exactly what `next()` gives.
extension CSVReader: BatchRecordReader {
    /// The most bytes of rows in one batch.
    static let batchBytes = 4 << 20
    /// Rows longer than this are read by `next()`'s path, not cut into batches.
    static let batchRowLimit = 1 << 20

    /// The rows that follow, at most `limit` of them (and about 4 MiB); nil at the end of the input.
    /// - Throws: the source's read errors.
    public func nextBatch(limit: Int) throws -> (any RecordBatch)? {
        guard !batchesFailed, let context = decoder?.context else { return nil }
        if heldRow || nextRowAlone || encoding != .utf8 {
            nextRowAlone = false
            return readAlone(limit: encoding == .utf8 ? 1 : max(limit, 1))
        }
        var cutter = CSVBatchCutter(
            delimiter: delimiter, rowLimit: min(maximumRecordBytes, CSVReader.batchRowLimit), offset: scanner.offset,
            line: scanner.line, pendingLF: scanner.pendingLF)
        var bail = false
        cutting: while true {
            switch cutter.cut(buffer, base: base, count: count, atEnd: atEnd, maximumRows: max(limit, 1),
                              maximumBytes: CSVReader.batchBytes) {
            case .cut:
                break cutting
            case .needMore:
                recordStart = cutter.batchStart - base
                try refill()
            case .bail:
                bail = true
                break cutting
            }
        }
        scanner.restart(at: cutter.offset, line: cutter.line)
        if cutter.rows == 0 {
            return bail ? readAlone(limit: 1) : nil
        }
        nextRowAlone = bail
        let bytes = Array(UnsafeBufferPointer(start: buffer + (cutter.batchStart - base), count: cutter.offset - cutter.batchStart))
        // Blank rows take no record index when the header has two or more columns (the decoder's rule).
        let indexed = cutter.rows - ((context.expectedFields ?? 0) >= 2 ? cutter.blankRows : 0)
        defer { dataIndex += indexed }
        return CSVBatch(bytes: bytes, base: cutter.batchStart, firstLine: cutter.firstLine, delimiter: delimiter, context: context,
                        firstIndex: dataIndex, predictedCount: indexed, endsInput: atEnd && cutter.offset == base + count,
                        endsAtCut: scanner.endsAtCut)
    }

    /// Up to `limit` rows read as `next()` reads them, as a batch with nothing left to parse.
    private func readAlone(limit: Int) -> (any RecordBatch)? {
        var outcomes: [CSVRowOutcome] = []
        while outcomes.count < limit {
            let outcome: CSVRowOutcome
            do {
                guard let next = try nextOutcome() else { break }
                outcome = next
            } catch {
                outcome = .failure(error)
            }
            outcomes.append(outcome)
            if case .failure = outcome {
                batchesFailed = true
                break
            }
        }
        guard !outcomes.isEmpty else { return nil }
        let batch = CSVBatch(outcomes: outcomes, firstIndex: dataIndex)
        dataIndex += batch.indexedCount
        return batch
    }

    /// The records and problems of a parsed batch, exactly as `next()` gives and reports them.
    /// The batch numbered its records itself; only after a batch that held another count of
    /// indexed rows than its cut predicted are the later ones renumbered here.
    public func items(from batch: any RecordBatch) -> [RecordBatchItem] {
        guard let batch = batch as? CSVBatch else { return [] }
        var items = batch.takeItems()
        if indexShift != 0 { Self.renumber(&items, by: indexShift) }
        indexShift += batch.indexedCount - batch.predictedCount
        if recordsNameCollections {
            for k in items.indices {
                switch items[k] {
                case .record(var record):
                    numberInCollection(&record)
                    items[k] = .record(record)
                case .taken(var item):
                    item.recordIndex = nextIndex(in: item.collection)
                    items[k] = .taken(item)
                case .problem, .failure:
                    continue
                }
            }
        }
        return items
    }

    /// Moves the record index of every record in `items` by `shift`.
    private static func renumber(_ items: inout [RecordBatchItem], by shift: Int) {
        for k in items.indices {
            switch items[k] {
            case .record(var record):
                record.location.recordIndex = record.location.recordIndex.map { $0 + shift }
                items[k] = .record(record)
            case .taken(var item):
                item.recordIndex += shift
                items[k] = .taken(item)
            case .problem, .failure:
                continue
            }
        }
    }
}
