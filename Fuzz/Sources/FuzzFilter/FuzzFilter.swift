import Foundation
import FuzzSupport

/// Fields of a small notes-like collection, to run the schema check as `--where` does.
private let fields: [String: FilterFieldType] = [
    "id": .string, "title": .string, "rating": .number, "isFavorite": .bool, "createdAt": .instant,
    "day": .day, "tags": .list(of: .string), "tastes": .list(of: .object(["label": .string, "value": .number])),
    "finish": .object(["length": .enumeration(["short", "medium", "long"])]),
]
private let schema = FilterSchema(collections: ["notes": fields])

/// Records the compiled filters are evaluated on.
private let records: [Value] = [
    .object([
        "id": .string("n1"), "title": .string("Pinot"), "rating": .number("4.5"), "isFavorite": .bool(true),
        "createdAt": .string("2024-01-01T00:00:00Z"), "day": .string("2024-01-01"),
        "tags": .array([.string("red"), .string("oak")]),
        "tastes": .array([.object(["label": .string("acid"), "value": .number("0.7")])]),
        "finish": .object(["length": .string("long")]),
    ]),
    .object([:]),
    .array([.null, .number("1e999"), .string("")]),
]

/// libFuzzer entry point: parses the input as a filter (`FilterQuery(parsing:)`), compiles it with
/// and without the schema, and evaluates it on a few records. A `FilterError` is the expected refusal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFilter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: size > 0 ? data : nil, count: size), as: UTF8.self)
    if let query = try? FilterQuery(parsing: text) {
        _ = query.description
        let variables: [String: Value] = ["x": .number("3"), "s": .string("pinot")]
        for candidate in [schema, nil] as [FilterSchema?] {
            if let filter = try? CompiledFilter(query, source: text, variables: variables, schema: candidate) {
                for record in records {
                    _ = filter.evaluate(record, collection: "notes")
                }
            }
        }
    }
    _ = try? CompiledFilter.variable(fromArgument: text)
    return 0
}

/// The executable's entry point (SwiftPM aliases `main` to it): runs libFuzzer on `fuzzFilter`.
@_cdecl("FuzzFilter_main")
public func fuzzFilterMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, fuzzFilter)
}
