import FerryCore
import FerryFilter
import FerrySchemas
import Foundation

/// The `--where` / `filter` step: keeps the records a filter in NSPredicate format matches (Docs/filters.md),
/// before or after migration as the pipeline's step order says. The expression is parsed and checked
/// against the schema of the records it will see before any record is processed.
struct FilterStage {
    let filter: CompiledFilter
    let beforeMigration: Bool

    /// Nil when the request has no filter.
    /// - Throws: `FerryError(.usage)` with the expression and a caret under the offending part, for a
    ///   syntax error, an unset variable, an unknown key (with the keys that would fit) or an
    ///   operator that does not fit the field's type; for a time zone that is not an IANA name
    ///   (`IANATimeZone`).
    static func make(request: ConversionRequest, plan: DatasetPlan) throws -> FilterStage? {
        guard let source = request.filter else { return nil }
        let timeZone = try IANATimeZone.resolve(request.processing.timeZone)
        do {
            var variables: [String: Value] = [:]
            for (name, text) in request.variables {
                variables[name] = try CompiledFilter.variable(fromArgument: name + "=" + text).value
            }
            let version = request.filterBeforeMigration ? plan.sourceVersion : plan.targetVersion
            let schema = plan.domain.flatMap { domain in version.flatMap { DatasetSchema.schema(for: domain, version: $0) } }
            let filter = try CompiledFilter(
                source, variables: variables, schema: schema.map(FilterSchema.init(datasetSchema:)),
                timeZone: timeZone)
            return FilterStage(filter: filter, beforeMigration: request.filterBeforeMigration)
        } catch {
            var diagnostic = error.diagnostic(file: "--where")
            diagnostic.excerpt = error.caretLine(for: source)
            throw FerryError(diagnostic)
        }
    }

    /// True unless the filter applies before migration and the record does not match.
    func keepsBeforeMigration(_ record: Record) -> Bool { !beforeMigration || filter.evaluate(record) }

    /// True unless the filter applies after migration and the record does not match.
    func keepsAfterMigration(_ record: Record) -> Bool { beforeMigration || filter.evaluate(record) }
}

extension FilterSchema {
    /// The filter's view of a dataset schema: each collection's fields with the types the filter
    /// language compares (numbers, strings, instants, days, lists, objects, enumerations).
    public init(datasetSchema schema: DatasetSchema) {
        var collections: [String: [String: FilterFieldType]] = [:]
        for collection in schema.collections {
            collections[collection.name] = Self.fields(of: collection.recordType)
        }
        self.init(collections: collections)
    }

    private static func fields(of type: RecordType) -> [String: FilterFieldType] {
        var fields: [String: FilterFieldType] = [:]
        for field in type.fields { fields[field.name] = filterType(field.type) }
        return fields
    }

    private static func filterType(_ type: FieldType) -> FilterFieldType {
        switch type {
        case .string, .nonEmptyString, .url, .data: return .string
        case .integer, .double: return .number
        case .bool: return .bool
        case .instant, .instantOrDay: return .instant
        case .day: return .day
        case .timestamp: return .object(["_seconds": .number, "_nanoseconds": .number])
        case .enumeration(let names): return .enumeration(names)
        case .object(let record): return .object(fields(of: record))
        case .array(let element): return .list(of: filterType(element))
        }
    }
}
