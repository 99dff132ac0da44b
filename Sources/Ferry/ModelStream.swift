import FerryCore
import FerryPipeline
import FerrySchemas

/// The models of one input, one at a time (`Dataset.stream`): for inputs too large to hold.
///
/// ```swift
/// for try await case let note as NotesV2.WineTastingNote in Dataset.stream(url, as: NotesSchemaV2.self) {
///     print(note.title)
/// }
/// ```
///
/// The first `next()` reads and checks the whole input, as `ferry validate` would (so an invalid
/// input throws before any model is given), parking each record's value in an unlinked temporary
/// file (`SpoolFile`); each later call decodes one. Memory holds a record's collection and place
/// in that file, not its value.
public struct ModelStream<Schema: VersionedSchema>: AsyncSequence, Sendable {
    public typealias Element = any CollectionModel
    public typealias Failure = FerryError

    let input: String
    let format: String?
    let options: ProcessingOptions
    let registry: FormatRegistry

    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: self)
    }

    /// Reads the stream's input; not meant to be shared between tasks.
    public final class Iterator: AsyncIteratorProtocol {
        public typealias Element = any CollectionModel
        public typealias Failure = FerryError

        /// Where one parked record lies in the spool.
        private struct Parked {
            var collection: String?
            /// Its index in its collection.
            var index: Int
            var offset: Int64
            var count: Int
        }

        private let stream: ModelStream
        private var spool: SpoolFile?
        private var parked: [Parked] = []
        private var next = 0
        private var opened = false
        private var done = false
        /// The warnings and notes of reading, once the first `next()` has run.
        public private(set) var diagnostics: [Diagnostic] = []

        init(stream: ModelStream) { self.stream = stream }

        /// The next model, nil at the end.
        /// - Throws: `FerryError` with every diagnostic when the input is invalid (first call).
        public func next() async throws(FerryError) -> (any CollectionModel)? {
            guard !done else { return nil }
            do {
                if !opened { try open() }
                guard next < parked.count, let spool else {
                    done = true
                    parked = []
                    self.spool = nil
                    return nil
                }
                let entry = parked[next]
                next += 1
                let value = try ValueSpoolCoding.decode(spool.bytes(at: entry.offset, count: entry.count))
                let record = Record(collection: entry.collection, value: value,
                                    location: SourceLocation(collection: entry.collection, recordIndex: entry.index))
                return try Dataset<Schema>.model(of: record)
            } catch {
                done = true
                throw .wrapping(error)
            }
        }

        private func open() throws {
            opened = true
            let spool = try SpoolFile(kind: "library-stream")
            var scratch: [UInt8] = []
            var parked: [Parked] = []
            var counts: [String: Int] = [:]
            diagnostics = try FileConversion.read(
                stream.input, format: stream.format, domain: Schema.domain, version: Schema.versionIdentifier.major,
                options: stream.options, registry: stream.registry
            ) { record in
                scratch.removeAll(keepingCapacity: true)
                ValueSpoolCoding.encode(record.value, into: &scratch)
                let offset = try spool.append(scratch)
                let index = counts[record.collection ?? "", default: 0]
                counts[record.collection ?? ""] = index + 1
                parked.append(Parked(collection: record.collection, index: index, offset: offset, count: scratch.count))
            }
            self.spool = spool
            self.parked = parked
        }
    }
}
