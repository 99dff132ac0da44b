import FerryCore

/// Reads the records of a bundle's data members one after another (manifest order), each through
/// its content format's reader, stamping `file` and `member` on records and diagnostics.
final class BundleRecordReader: RecordReader {
    struct Step {
        var member: String
        var collection: String?
        var reader: any FormatReader
        /// The member format's `FormatDescriptor.scalarsAreText`, stamped on its records.
        var scalarsAreText: Bool
    }

    private let bundle: BundleReader
    private var steps: [Step]
    private var nextStep = 0
    private let options: ReadOptions
    private let log: DiagnosticLog
    private var current: (reader: any RecordReader, step: Step)?
    private var innerHeader = DatasetHeader()
    private let memberStarted: ((String, any RecordReader) -> Void)?

    init(
        bundle: BundleReader, steps: [Step], options: ReadOptions, log: DiagnosticLog,
        memberStarted: ((String, any RecordReader) -> Void)? = nil
    ) {
        self.bundle = bundle
        self.steps = steps
        self.options = options
        self.log = log
        self.memberStarted = memberStarted
    }

    /// The manifest's header; for a Documents folder, the data file's own.
    var header: DatasetHeader {
        let declared = bundle.header
        if declared.domain != nil || declared.schemaVersion != nil { return declared }
        return current?.reader.header ?? innerHeader
    }

    private func stamp(_ location: inout SourceLocation, member: String) {
        location.file = bundle.path
        location.member = member
    }

    func next() throws -> Record? {
        while true {
            if let (reader, step) = current {
                let record: Record?
                do {
                    record = try reader.next()
                } catch let error as FerryError {
                    var diagnostic = error.diagnostic
                    stamp(&diagnostic.location, member: step.member)
                    throw FerryError(diagnostic, cause: error.cause)
                }
                if var record {
                    stamp(&record.location, member: step.member)
                    record.scalarsAreText = step.scalarsAreText
                    if record.collection == nil {
                        record.collection = step.collection
                        if record.location.collection == nil { record.location.collection = step.collection }
                    }
                    return record
                }
                innerHeader = reader.header
                current = nil
            }
            guard nextStep < steps.count else { return nil }
            let step = steps[nextStep]
            nextStep += 1
            guard bundle.checkPresent(step.member, collection: step.collection, log: log) else { continue }
            var memberOptions = options
            memberOptions.fileName = bundle.path
            memberOptions.member = step.member
            if let collection = step.collection { memberOptions.collection = collection }
            let outer = log
            let path = bundle.path
            let member = step.member
            let memberLog = DiagnosticLog(onReport: { diagnostic in
                var diagnostic = diagnostic
                diagnostic.location.file = path
                diagnostic.location.member = member
                outer.report(diagnostic)
            })
            do {
                let source = try bundle.open(step.member)
                let reader = try step.reader.makeReader(source, options: memberOptions, log: memberLog)
                current = (reader, step)
                memberStarted?(step.member, reader)
            } catch let error as FerryError {
                var diagnostic = error.diagnostic
                stamp(&diagnostic.location, member: step.member)
                throw FerryError(diagnostic, cause: error.cause)
            }
        }
    }
}
