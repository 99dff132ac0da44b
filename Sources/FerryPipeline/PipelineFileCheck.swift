import FerryCore
import FerryFilter
import FerrySchemas

/// The checks of a pipeline file before anything runs (Docs/pipelines.md): every member is one a
/// pipeline has, and every option holds a value its inputs can take. A misspelt or misplaced member
/// (`"timeZone"` beside `"inputs"` rather than in `"options"`) was ignored, and a bad option was
/// reported once for each input; both are now one usage error at the member's pointer.
enum PipelineFileCheck {
    /// The members of each object of a pipeline file, by where the object stands.
    static let rootMembers = ["inputs", "steps", "output", "options"]
    static let inputMembers = ["path", "map"]
    static let stepMembers = ["map", "filter", "migrate", "validate"]
    static let migrateMembers = ["toVersion"]
    static let outputMembers = ["path", "format"]
    static let optionMembers = ["strict", "lenient", "jobs", "timeZone", "dateStrategy", "domain", "schemaVersion",
                                "collection", "delimiter", "nullToken", "dataFormat"]
    /// Members any object may hold for editors and people (JSON Schema's keywords for them).
    static let annotations: Set<String> = ["$schema", "$comment"]

    /// Throws the usage error of the first member no pipeline has, in document order.
    /// - Throws: `FerryError(.usage)` at the member's JSON Pointer in `path`.
    static func members(of value: Value, path: String) throws {
        try check(value, allowed: rootMembers, at: .root, path: path) { key in
            optionMembers.contains(key) ? "; \(key) is an option: put it in \"options\"" : ""
        }
        guard case .object(let root) = value else { return }
        if case .array(let inputs)? = root["inputs"] {
            for (index, input) in inputs.enumerated() {
                try check(input, allowed: inputMembers, at: JSONPointer(tokens: ["inputs", String(index)]), path: path)
            }
        }
        if case .array(let steps)? = root["steps"] {
            for (index, step) in steps.enumerated() {
                let at = JSONPointer(tokens: ["steps", String(index)])
                try check(step, allowed: stepMembers, at: at, path: path)
                if let migrate = step.objectValue?["migrate"] {
                    try check(migrate, allowed: migrateMembers, at: at.appending("migrate"), path: path)
                }
                if let validate = step.objectValue?["validate"] {
                    try check(validate, allowed: [], at: at.appending("validate"), path: path)
                }
                // The filter's syntax, once: its keys are checked against each input's domain.
                if case .string(let filter)? = step.objectValue?["filter"] {
                    do {
                        _ = try FilterQuery(parsing: filter)
                    } catch {
                        throw FerryError(.usage, "column \(error.column): \(error.message)",
                                         at: SourceLocation(file: path, field: at.appending("filter")))
                    }
                }
            }
        }
        if let output = root["output"] { try check(output, allowed: outputMembers, at: JSONPointer(tokens: ["output"]), path: path) }
        if let options = root["options"] { try check(options, allowed: optionMembers, at: JSONPointer(tokens: ["options"]), path: path) }
    }

    /// The usage error of an option value no input can take: checked once, at the pipeline file,
    /// rather than reported against each input.
    /// - Throws: `FerryError(.usage)` at `/options/NAME`.
    static func options(_ options: PipelineDefinition.Options?, path: String) throws {
        guard let options else { return }
        func refuse(_ name: String, _ message: String) -> FerryError {
            FerryError(.usage, message, at: SourceLocation(file: path, field: JSONPointer(tokens: ["options", name])))
        }
        if options.strict == true && options.lenient == true {
            throw FerryError(.usage, "strict and lenient exclude each other", at: SourceLocation(file: path, field: JSONPointer(tokens: ["options"])))
        }
        if let zone = options.timeZone {
            do { _ = try IANATimeZone.resolve(zone) } catch let error as FerryError { throw refuse("timeZone", error.diagnostic.message) }
        }
        if let name = options.dateStrategy, DateStrategy(rawValue: name) == nil {
            throw refuse("dateStrategy", "unknown strategy '\(name)'; strategies: \(DateStrategy.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let name = options.domain, Domain(rawValue: name) == nil {
            throw refuse("domain", "unknown domain '\(name)'; domains: \(Domain.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let jobs = options.jobs, !(1...1024).contains(jobs) { throw refuse("jobs", "jobs is 1 to 1024, not \(jobs)") }
        if let delimiter = options.delimiter, ![",", ";", "|", "tab", "\\t", "\t"].contains(delimiter) {
            throw refuse("delimiter", "delimiter takes ',', ';', '|' or 'tab', not '\(delimiter)'")
        }
    }

    /// Throws for the first member of `value` (when an object) not in `allowed` or `annotations`.
    private static func check(_ value: Value, allowed: [String], at pointer: JSONPointer, path: String,
                              hint: (String) -> String = { _ in "" }) throws {
        guard case .object(let object) = value else { return }
        var seen: Set<String> = []
        for key in object.keys {
            if !allowed.contains(key) && !annotations.contains(key) {
                let expected = allowed.isEmpty ? "it has no members" : "expected " + list(allowed)
                throw FerryError(.usage, "unknown member '\(key)'; \(expected)\(hint(key))",
                                 at: SourceLocation(file: path, field: pointer.appending(key)))
            }
            // JSON leaves a repeated member to the reader; the decoder would take one silently.
            guard seen.insert(key).inserted else {
                throw FerryError(.usage, "member '\(key)' given twice; give it once", at: SourceLocation(file: path, field: pointer.appending(key)))
            }
        }
    }

    /// `a, b and c`.
    private static func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
