import FerryTestSupport
import Foundation
import Testing

/// `--jobs N` on JSON documents: the elements of each collection array are parsed and prepared
/// on worker threads, so every output byte, diagnostic (with its line, column and pointer) and
/// exit status must be that of `--jobs 1`: for every domain and version, in an envelope and as a
/// top-level array, clean and with each kind of error (a duplicate id, a type error, a syntax
/// error mid-array, brackets that do not pair, a truncated file).
@Suite struct JSONDocumentJobsCLITests {
    /// Records of each domain's main collection: several batches of 128.
    static let records = 400

    enum Shape: String, CaseIterable, Sendable {
        case envelope
        /// The main collection's array alone, named by `--domain`, `--schema-version` and `--collection`.
        case topLevelArray
    }

    enum Damage: String, CaseIterable, Sendable {
        case none
        /// The 201st id of the file made the 200th's.
        case duplicateID
        /// A string field of a record in the middle made `true`.
        case typeError
        /// `nope, ` before the 300th id: not a key.
        case syntaxError
        /// A `[` before the 250th id's value, which never closes.
        case unpairedBracket
        /// The first 60% of the bytes.
        case truncated

        /// The exit status of `validate` (DESIGN.md "Errors").
        var validateStatus: Int32 {
            switch self {
            case .none: 0
            case .duplicateID, .typeError: 1
            case .syntaxError, .unpairedBracket, .truncated: 3
            }
        }

        /// The code `validate` reports first.
        var code: String? {
            switch self {
            case .none: nil
            case .duplicateID: "duplicate-id"
            case .typeError: "type-error"
            case .syntaxError, .unpairedBracket, .truncated: "malformed-json"
            }
        }
    }

    struct Cell: CustomTestStringConvertible, Sendable {
        var domain: String
        var version: Int
        var shape: Shape
        var damage: Damage
        var testDescription: String { "\(domain) V\(version) \(shape.rawValue) \(damage.rawValue)" }
    }

    static let cells: [Cell] = GeneratedDocuments.domains.flatMap { domain in
        [1, 2].flatMap { version in
            Shape.allCases.flatMap { shape in Damage.allCases.map { Cell(domain: domain, version: version, shape: shape, damage: $0) } }
        }
    }

    @Test(arguments: cells) func outputsAndDiagnosticsAreThoseOfOneJob(_ cell: Cell) throws {
        guard case let (box, _, file)? = try Sandbox.generated(cell.domain, version: cell.version, records: Self.records) else { return }
        var text = try box.text(file)
        var options: [String] = []
        if cell.shape == .topLevelArray {
            let (collection, array) = try #require(Self.mainCollection(of: text))
            text = array
            options = ["--domain", cell.domain, "--schema-version", String(cell.version), "--collection", collection]
        }
        text = try #require(Self.damaged(text, cell.damage), "the document has too few ids or fields to damage")
        try box.write("in.json", text)

        let commands: [[String]] = [
            ["validate", "in.json"],
            cell.version == 1 ? ["migrate", "in.json", "--to-version", "2", "--lenient", "-o", "OUT"]
                : ["convert", "in.json", "--lenient", "-o", "OUT"],
        ]
        var referencesDangle = false
        for command in commands {
            let (one, two) = try box.ferryByJobs(command, options: options)
            #expect(two.output == one.output, "\(command)")
            #expect(two.stdout == one.stdout, "\(command)")
            #expect(two.stderr == one.stderr, "\(command)")
            #expect(two.status == one.status, "\(command)")
            if command[0] == "validate" {
                if cell.shape == .topLevelArray, cell.damage == .none, one.status == 1 {
                    // A collection alone names records of collections left out (stories their members).
                    let errors = one.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
                    #expect(!errors.isEmpty && errors.allSatisfy { $0.hasSuffix("[dangling-reference]") }, "\(one.stderr)")
                    referencesDangle = true
                } else {
                    #expect(one.status == cell.damage.validateStatus, "\(one.stderr)")
                }
                if let code = cell.damage.code { #expect(one.stderr.contains("[\(code)]"), "\(one.stderr)") }
            } else if referencesDangle {
                // --lenient leaves out the records whose references dangle: what it wrote validates.
                let check = try box.ferry(["validate", "out-1.jsonl"])
                #expect(check.status == 0, "\(check.stderr)")
            } else if cell.damage == .none {
                #expect(one.output.split(separator: "\n").count > Self.records, "\(one.stderr)")
            }
        }
    }

    /// `text` with `damage` done to it; nil when it has too few ids or fields for it.
    static func damaged(_ text: String, _ damage: Damage) -> String? {
        let ids = matches(#""id"\s*:\s*"([^"]*)""#, in: text)
        switch damage {
        case .none:
            return text
        case .duplicateID:
            guard ids.count > 201 else { return nil }
            let first = (text as NSString).substring(with: ids[200].range(at: 1))
            return (text as NSString).replacingCharacters(in: ids[201].range(at: 1), with: first)
        case .typeError:
            for field in ["createdAt", "meaningText"] {
                let values = matches(#""\#(field)"\s*:\s*("[^"]*")"#, in: text)
                guard values.count > 250 else { continue }
                return (text as NSString).replacingCharacters(in: values[250].range(at: 1), with: "true")
            }
            return nil
        case .syntaxError:
            guard ids.count > 300 else { return nil }
            return (text as NSString).replacingCharacters(in: NSRange(location: ids[300].range.location, length: 0), with: "nope, ")
        case .unpairedBracket:
            guard ids.count > 250 else { return nil }
            return (text as NSString).replacingCharacters(in: NSRange(location: ids[250].range(at: 1).location - 1, length: 0), with: "[")
        case .truncated:
            let bytes = Array(text.utf8)
            return String(decoding: bytes.prefix(bytes.count * 6 / 10), as: UTF8.self)
        }
    }

    /// The largest array member of the envelope: its name and its text.
    static func mainCollection(of text: String) -> (String, String)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let name = object.compactMap({ key, value in (value as? [Any]).map { (key, $0.count) } }).max(by: { $0.1 < $1.1 })?.0,
              let member = matches(#""\#(name)"\s*:\s*\["#, in: text).first
        else { return nil }
        let bytes = Array(text.utf8)
        // The member's `[` as a byte offset (the patterns match ASCII only before it).
        let prefix = (text as NSString).substring(to: member.range.location + member.range.length - 1)
        let start = prefix.utf8.count
        var depth = 0
        var inString = false
        var escaped = false
        for index in start..<bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
            } else if byte == 0x22 {
                inString = true
            } else if byte == 0x5B || byte == 0x7B {
                depth += 1
            } else if byte == 0x5D || byte == 0x7D {
                depth -= 1
                if depth == 0 { return (name, String(decoding: bytes[start...index], as: UTF8.self) + "\n") }
            }
        }
        return nil
    }

    static func matches(_ pattern: String, in text: String) -> [NSTextCheckingResult] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        return expression.matches(in: text, range: NSRange(location: 0, length: (text as NSString).length))
    }
}
