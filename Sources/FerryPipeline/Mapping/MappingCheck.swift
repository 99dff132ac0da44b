import FerryCore
import FerrySchemas
import FormatJSON

/// Checks a mapping against the input's header and the target schema before any record is mapped,
/// so a mistyped name is one usage error, not one error per row (Docs/mappings.md "Checks").
extension FieldMapping {
    /// Every entry of the mapping that names something that does not exist: a target collection
    /// or field (top level, and members of `object` rules inside `list` rules) not in the target
    /// schema, and a source column not in `columns`.
    ///
    /// A column counts as present when the header names it, or names fields below it
    /// (`timestamp` for `timestamp._seconds`), as the reader unflattens dotted names.
    /// - Parameters:
    ///   - columns: the input's header names (CSV); nil when the input declares none before its
    ///     records (JSON), and columns are then not checked.
    ///   - input: the input's name, for messages.
    /// - Returns: one `usage` error per bad entry, at its position in the mapping file with its
    ///   JSON Pointer, naming the known names and the nearest one by edit distance.
    func problems(columns: [String]?, input: String) -> [Diagnostic] {
        var found: [Diagnostic] = []
        if let schema = DatasetSchema.schema(for: domain, version: schemaVersion) {
            if let target = schema.collection(named: collection) {
                for (name, rule) in fields {
                    let pointer = JSONPointer(tokens: ["fields", name])
                    if let field = target.recordType.field(named: name) {
                        checkMembers(rule, type: field.type, at: pointer, into: &found)
                    } else {
                        found.append(unknown("target field", name, of: "\(target.recordType.name) (\(domain.rawValue) v\(schemaVersion))",
                                             known: target.recordType.fieldNames, at: pointer))
                    }
                }
            } else {
                found.append(unknown("collection", collection, of: "\(domain.rawValue) v\(schemaVersion)",
                                     known: schema.collectionNames, at: JSONPointer(tokens: ["collection"])))
            }
        }
        if let columns {
            let present = Set(columns)
            let prefixes = Set(columns.flatMap(Self.dottedPrefixes))
            for (name, rule) in fields {
                for (column, pointer) in columnReferences(rule, at: JSONPointer(tokens: ["fields", name]))
                where !present.contains(column) && !prefixes.contains(column) {
                    found.append(unknown("source column", column, of: "the header of \(input)", known: columns, at: pointer))
                }
            }
        }
        // In the order the entries stand in the mapping file, where it is known.
        return found.enumerated().sorted { a, b in
            let (p, q) = (a.element.location.position, b.element.location.position)
            if let p, let q, p != q { return p < q }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// Member names of `object` rules checked against the nested record type of the field.
    private func checkMembers(_ rule: FieldRule, type: FieldType, at pointer: JSONPointer, into found: inout [Diagnostic]) {
        switch (rule, type) {
        case (.list(let items), .array(let element)):
            for (index, item) in items.enumerated() {
                checkMembers(item, type: element, at: pointer.appending("list").appending(String(index)), into: &found)
            }
        case (.object(let members), .object(let recordType)):
            for (name, member) in members {
                let memberPointer = pointer.appending("object").appending(name)
                if let field = recordType.field(named: name) {
                    checkMembers(member, type: field.type, at: memberPointer, into: &found)
                } else {
                    found.append(unknown("field", name, of: recordType.name, known: recordType.fieldNames, at: memberPointer))
                }
            }
        default:
            break
        }
    }

    private func unknown(_ what: String, _ name: String, of owner: String, known: [String], at pointer: JSONPointer) -> Diagnostic {
        let hint = EditDistance.suggestion(for: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
        let list = known.map { "'\($0)'" }.joined(separator: ", ")
        var location = SourceLocation(file: path, field: pointer)
        location.position = locator?.position(of: pointer)
        return .error(.usage, "\(what) '\(name)' is not in \(owner)\(hint) (known: \(list))", at: location)
    }

    /// `a`, `a.b` for `a.b.c`: the names a dotted header name unflattens below.
    private static func dottedPrefixes(_ name: String) -> [String] {
        var prefixes: [String] = []
        var index = name.startIndex
        while let dot = name[index...].firstIndex(of: ".") {
            prefixes.append(String(name[..<dot]))
            index = name.index(after: dot)
        }
        return prefixes
    }

    /// Each source column a rule reads, with the JSON Pointer of the entry that names it.
    func columnReferences(_ rule: FieldRule, at pointer: JSONPointer) -> [(String, JSONPointer)] {
        switch rule {
        case .column(let name, _):
            // `"Aroma"` is the rule itself; `{"from": "Aroma", ...}` names it in `from`.
            let from = pointer.appending("from")
            return [(name, locator.map { $0.position(of: from) == nil } ?? false ? pointer : from)]
        case .constant:
            return []
        case .join(let names, _, _):
            return names.enumerated().map { ($0.element, pointer.appending("join").appending(String($0.offset))) }
        case .derivedUUID(let names):
            return names.enumerated().map { ($0.element, pointer.appending("uuid").appending(String($0.offset))) }
        case .list(let items):
            return items.enumerated().flatMap { columnReferences($0.element, at: pointer.appending("list").appending(String($0.offset))) }
        case .object(let members):
            return members.flatMap { columnReferences($0.1, at: pointer.appending("object").appending($0.0)) }
        }
    }
}
