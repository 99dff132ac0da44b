import FerryCore

/// Whole small JSON documents in memory (manifests, configuration, tests), with the same parser
/// and encoder as the streaming readers and writers.
public enum JSONText {
    /// Encodes `value` as a complete document ending in a newline: pretty like
    /// `JSON.stringify(value, null, 2)`, or compact with no whitespace (Docs/json.md "Output").
    /// - Throws: `FerryError(.invalidValue)` for NaN or infinity; `FerryError(.tooDeep)` for
    ///   nesting deeper than 512 levels.
    public static func encode(_ value: Value, pretty: Bool) throws -> [UInt8] {
        var serializer = JSONSerializer(pretty: pretty, capacity: 1024)
        try serializer.appendValue(value)
        serializer.bytes.append(JSONSyntax.newline)
        return serializer.bytes.array
    }

    /// Parses one complete document (RFC 8259): a UTF-8 byte order mark is skipped, whitespace
    /// may surround the value, nothing else may follow it. Numbers come back as `.number(text)`.
    /// - Parameter options: `fileName` and `member` for error locations, `maximumDepth`.
    /// - Throws: `FerryError` with `malformed-json`, `invalid-encoding` or `too-deep` and the line
    ///   and column of the problem.
    public static func parse(_ bytes: [UInt8], options: ReadOptions = ReadOptions()) throws -> Value {
        try bytes.withUnsafeBufferPointer { p in
            let prefix = UnsafeBufferPointer(rebasing: p[0..<min(4, p.count)])
            if let problem = JSONSyntax.encodingProblem(prefix) {
                var location = options.inputLocation
                location.position = TextPosition(line: 1, column: 1)
                throw FerryError(.invalidEncoding, problem, at: location)
            }
            let start = JSONSyntax.hasByteOrderMark(prefix) ? 3 : 0
            var parser = JSONParser(
                bytes: p, range: start..<p.count, location: options.inputLocation, maximumDepth: options.maximumDepth)
            return try parser.parseDocument()
        }
    }
}
