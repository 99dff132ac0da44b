import FerryCore

/// Lines cut from a JSON Lines input by `JSONLinesReader.nextBatch(limit:)`, parsed on any thread.
final class JSONLinesBatch: RecordBatch, TakenRecordSource, @unchecked Sendable {
    // @unchecked: `parse()` writes `parsed` once, on one thread; readers wait for it first.

    /// One line: its bytes in `bytes` (without the line break), its 1-based number, and whether
    /// it was longer than the limit (then it holds no bytes).
    struct Line {
        var start: Int
        var end: Int
        var number: Int
        var truncated: Bool
        /// True when the input ends where the line ends, with no line break after it.
        var endsInput = false
    }

    /// What one line held.
    enum Parsed {
        case blank
        /// A value, the `$collection` taken out of it, and a copy of the line for the record's locator.
        case value(Value, String?, [UInt8])
        /// A line the `RawRecordTaker` took (not parsed; its locator reads the line in `bytes`).
        case taken(TakenRecord)
        /// Boxed (`indirect`): a line's result is then the size of a value's, not of a diagnostic's.
        indirect case problem(Diagnostic)
        case failure(any Error)
        case tooLarge
    }

    let bytes: [UInt8]
    let lines: [Line]
    private let location: SourceLocation
    private let maximumDepth: Int
    /// The collection of a line without `$collection` (`ReadOptions.collection`), for the taker.
    private let defaultCollection: String?
    // One thread uses it at a time: its state is not checked for exclusive access at run time
    // (`@exclusivity(unchecked)`; each check cost about 65 instructions, several a record).
    @exclusivity(unchecked) private var parsed: [Parsed] = []

    var inputBytes: Int { bytes.count }

    init(bytes: [UInt8], lines: [Line], location: SourceLocation, maximumDepth: Int, defaultCollection: String?) {
        self.bytes = bytes
        self.lines = lines
        self.location = location
        self.maximumDepth = maximumDepth
        self.defaultCollection = defaultCollection
    }

    /// What line `index` held, once (the batch lets go of it, so the caller owns the value).
    func take(_ index: Int) -> Parsed {
        guard index < parsed.count else { return .blank }
        // Swapped out: neither copied (its strings and value counted) nor destroyed in the array.
        var result = Parsed.blank
        swap(&result, &parsed[index])
        return result
    }

    /// Parses every line as `JSONLinesReader.next()` does, first offering each line that is not
    /// blank and not too long to `taker`: a line it takes is not parsed.
    func parse(offering taker: (any RawRecordTaker)?) {
        // Made at the first line the taker leaves (a batch it takes whole never needs them).
        var stacks: JSONParseStacks? = nil
        var results: [Parsed] = []
        results.reserveCapacity(lines.count)
        bytes.withUnsafeBufferPointer { p in
            for line in lines {
                if line.truncated {
                    results.append(.tooLarge)
                    continue
                }
                let range = line.start..<line.end
                if JSONSyntax.skipWhitespace(in: p, from: range.lowerBound, to: range.upperBound) == range.upperBound {
                    results.append(.blank)
                    continue
                }
                if let taken = taker?.take(
                    .jsonLine(UnsafeBufferPointer(rebasing: p[range]), line: line.number, defaultCollection: defaultCollection))
                {
                    results.append(.taken(taken))
                    continue
                }
                let lineStacks = stacks ?? JSONParseStacks()
                stacks = lineStacks
                var parser = JSONParser(
                    bytes: p, range: range, basePosition: TextPosition(line: line.number, column: 1), location: location,
                    maximumDepth: maximumDepth, stacks: lineStacks, takesCollection: true)
                do {
                    let value = try parser.parseDocument()
                    results.append(.value(value, parser.collection, Array(p[range])))
                } catch let error as FerryError {
                    results.append(.problem(JSONCutShort.lineError(
                        error, bytes: p, range: range, number: line.number, endsInput: line.endsInput, maximumDepth: maximumDepth)))
                } catch {
                    results.append(.failure(error))
                }
            }
        }
        parsed = results
    }
}

extension JSONLinesBatch {
    /// The record of a line taken whole, as `JSONLinesReader` makes that of a parsed line (with a
    /// null value); its locator reads the line in `bytes`.
    func record(of item: TakenItem) -> Record {
        let line = item.start.line
        let locator: any FieldLocating = JSONLineLocator(buffer: bytes, range: item.span, line: line)
            ?? JSONFieldLocator(bytes: Array(bytes[item.span]), start: TextPosition(line: line, column: 1))
        return Record(
            collection: item.collection, value: .null,
            location: SourceLocation(
                file: location.file, member: location.member, line: line, column: 1, collection: item.collection,
                recordIndex: item.recordIndex),
            locator: locator)
    }
}
