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
        return CSVBatch(bytes: bytes, base: cutter.batchStart, firstLine: cutter.firstLine, delimiter: delimiter, context: context)
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
        return outcomes.isEmpty ? nil : CSVBatch(outcomes: outcomes)
    }

    /// The records and problems of a parsed batch, exactly as `next()` gives and reports them.
    public func items(from batch: any RecordBatch) -> [RecordBatchItem] {
        guard let batch = batch as? CSVBatch else { return [] }
        let outcomes = batch.takeOutcomes()
        var items: [RecordBatchItem] = []
        items.reserveCapacity(outcomes.count)
        for outcome in outcomes {
            switch outcome {
            case .blank:
                continue
            case .problem(let diagnostic):
                dataIndex += 1
                items.append(.problem(diagnostic))
            case .record(var record):
                record.location.recordIndex = dataIndex
                dataIndex += 1
                items.append(.record(record))
            case .taken(var record, let payload):
                record.location.recordIndex = dataIndex
                dataIndex += 1
                items.append(.taken(record, payload))
            case .failure(let error):
                dataIndex += 1
                items.append(.failure(error))
                return items
            }
        }
        return items
    }
}
