import FerryCore

/// Records a program holds, converted as an input is (`ConversionRequest.records`): the library's
/// `Dataset.write` and `Records.write` hand the converter their records this way, so they are
/// checked and written as `ferry convert` writes a file's.
public struct RecordsInput: Sendable {
    /// The records in the order they are read.
    public var records: [Record]
    /// What the records declare of themselves: their domain and version (empty for plain records).
    public var header: DatasetHeader
    /// The collections in the order writers emit them (others follow as met).
    public var collections: [String]

    public init(_ records: [Record], header: DatasetHeader = DatasetHeader(), collections: [String] = []) {
        self.records = records
        self.header = header
        self.collections = collections
    }
}

/// Gives a `RecordsInput`'s records one at a time, as a format's reader gives a file's.
final class RecordsInputReader: RecordReader {
    let header: DatasetHeader
    private var records: [Record]
    private var index = 0

    init(_ input: RecordsInput) {
        header = input.header
        records = input.records
    }

    func next() throws -> Record? {
        guard index < records.count else {
            records = []
            return nil
        }
        defer { index += 1 }
        return records[index]
    }
}
