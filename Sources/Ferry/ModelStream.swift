import FerryCore
import FerrySchemas
import Foundation

/// The models of one input, one at a time (`Dataset.stream`): for inputs too large to hold.
///
/// ```swift
/// for try await case let note as NotesV2.WineTastingNote in Dataset.stream(url, as: NotesSchemaV2.self) {
///     print(note.title)
/// }
/// ```
///
/// The first `next()` checks and converts the whole input to a JSON Lines file on disk, as
/// `ferry convert` would (so an invalid input throws before any model is given); each later call
/// reads one line. The file is removed when the iterator goes away.
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

        private let stream: ModelStream
        private var scratch: ScratchFolder?
        private var reader: (any RecordReader)?
        private var counts: [String: Int] = [:]
        private var done = false
        /// The warnings and notes of reading, once the first `next()` has run.
        public private(set) var diagnostics: [Diagnostic] = []

        init(stream: ModelStream) { self.stream = stream }

        /// The next model, nil at the end.
        /// - Throws: `FerryError` with every diagnostic when the input is invalid (first call).
        public func next() async throws(FerryError) -> (any CollectionModel)? {
            guard !done else { return nil }
            do {
                if reader == nil { try open() }
                guard let record = try reader?.next() else {
                    done = true
                    reader = nil
                    scratch = nil
                    return nil
                }
                let index = counts[record.collection ?? "", default: 0]
                counts[record.collection ?? ""] = index + 1
                let located = Record(collection: record.collection, value: record.value,
                                     location: SourceLocation(collection: record.collection, recordIndex: index))
                return try Dataset<Schema>.model(of: located)
            } catch {
                done = true
                throw .wrapping(error)
            }
        }

        private func open() throws {
            let scratch = try ScratchFolder()
            self.scratch = scratch
            let copy = scratch.file("dataset.jsonl")
            diagnostics = try FileConversion.run(
                input: stream.input, output: copy, inputFormat: stream.format, outputFormat: "jsonl",
                domain: Schema.domain, version: Schema.versionIdentifier.major, options: stream.options,
                registry: stream.registry)
            guard let format = stream.registry.format(named: "jsonl")?.reader else {
                throw FerryError(.unknownFormat, "the format registry has no jsonl reader")
            }
            reader = try format.makeReader(FileDescriptorSource(path: copy), options: ReadOptions(fileName: copy),
                                           log: DiagnosticLog())
        }
    }
}
