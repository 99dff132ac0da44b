import FerryCore

extension PreparedRecord {
    /// The collection and value of every record `DatasetProcessor.commit(_:)` can return for this
    /// one, in order: what it returns when the cross-record checks drop none of them. `--jobs`
    /// renders output from these on worker threads, before the commit (issue 7).
    public var candidateOutputs: [(collection: String?, value: Value)] {
        documents.compactMap { document in document.result.map { (collection: $0.collection, value: $0.value) } }
    }
}
