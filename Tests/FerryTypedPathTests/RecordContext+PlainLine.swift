import FerryCore
import FerrySchemas

@testable import FerryTypedPath

extension RecordContext {
    /// The context the typed lane reads JSON lines in, with the default options: no record, no
    /// place (what `TypedLane` builds once for a run).
    static let plainLine = RecordContext(
        record: Record(collection: nil, value: .null, location: SourceLocation(), locator: NoPlaceLocator()), options: DecodingOptions())
}
