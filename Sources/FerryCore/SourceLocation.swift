/// A line and column in a text input. Both are 1-based; columns count Unicode scalars, as libxml2
/// does (SCHEMAS.md "Values: Positions").
public struct TextPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }

    public static func < (lhs: TextPosition, rhs: TextPosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// Where a record, a field or a problem stands: the file, the archive member inside it, the line
/// and column for text formats, the collection and record index, and the field as a JSON Pointer
/// from the dataset root (`/wineTastingNotes/3/tastes/0/value`).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The input's path as the user gave it (`notes.json`), `-` for standard input.
    public var file: String?
    /// The member inside an archive or folder bundle (`data/stories.json`).
    public var member: String?
    /// 1-based line.
    public var line: Int?
    /// 1-based column in Unicode scalars.
    public var column: Int?
    /// The collection the record belongs to (`wineNotes`).
    public var collection: String?
    /// The record's 0-based index in its collection.
    public var recordIndex: Int?
    /// The field, as a pointer from the dataset root.
    public var field: JSONPointer?
    /// The id of the record the problem is in, when it has one (its `id` field, or the document id
    /// a Firestore export keys it by); text diagnostics end their message with `(id "ID")`.
    public var recordID: String?

    @inlinable
    public init(
        file: String? = nil, member: String? = nil, line: Int? = nil, column: Int? = nil,
        collection: String? = nil, recordIndex: Int? = nil, field: JSONPointer? = nil, recordID: String? = nil
    ) {
        self.file = file
        self.member = member
        self.line = line
        self.column = column
        self.collection = collection
        self.recordIndex = recordIndex
        self.field = field
        self.recordID = recordID
    }

    /// The line and column, when both are known.
    public var position: TextPosition? {
        get {
            guard let line, let column else { return nil }
            return TextPosition(line: line, column: column)
        }
        set {
            line = newValue?.line
            column = newValue?.column
        }
    }

    /// The compiler-style prefix: `FILE[:MEMBER][:LINE[:COL]]` (DESIGN.md "Errors"), the file and
    /// member names escaped (`DiagnosticText.escaped`) so that a name holding a line break cannot
    /// split its diagnostics.
    public var description: String {
        var parts: [String] = []
        if let file { parts.append(DiagnosticText.escaped(file)) }
        if let member { parts.append(DiagnosticText.escaped(member)) }
        if let line {
            parts.append(String(line))
            if let column { parts.append(String(column)) }
        }
        return parts.joined(separator: ":")
    }
}
