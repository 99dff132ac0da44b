/// What one `ferry diff OLD NEW` asks for (Docs/diff.md).
public struct DiffRequest: Sendable {
    /// The older dataset's path (`-` for standard input).
    public var old: String
    /// The newer dataset's path (`-` for standard input, when OLD is not).
    public var new: String
    /// How both inputs are read and processed: `--from`, `--domain`, `--schema-version`,
    /// `--schema-free`, reader and processing options (its action, inputs and outputs are unused).
    public var reading: ConversionRequest
    /// `--where`: only records it keeps are compared, on both sides, at the compared version.
    public var filter: String?
    /// `--ignore`.
    public var ignore: DiffIgnore
    /// True for `--as json-patch`: compare the canonical JSON documents as `ferry convert --to
    /// json` writes them (media held in fields inline as base64; media files are no part of
    /// them and not compared); false compares bundle layouts (media fields as files, by SHA-256).
    public var canonicalJSON: Bool

    /// A diff of `old` against `new`, read as `reading` says.
    public init(old: String, new: String, reading: ConversionRequest, filter: String? = nil,
                ignore: DiffIgnore = DiffIgnore([]), canonicalJSON: Bool = false)
    {
        self.old = old
        self.new = new
        self.reading = reading
        self.filter = filter
        self.ignore = ignore
        self.canonicalJSON = canonicalJSON
    }
}
