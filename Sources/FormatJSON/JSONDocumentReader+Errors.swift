import FerryCore

/// The errors of a JSON document's reading, each at its line and column.
extension JSONDocumentReader {
    func checkDepth(_ depth: Int) throws {
        if depth > options.maximumDepth {
            throw FerryError(
                .tooDeep, "nesting deeper than \(options.maximumDepth) levels (the documented limit)",
                at: location(at: input.pos))
        }
    }

    func location(at offset: Int) -> SourceLocation {
        var location = options.inputLocation
        location.position = input.position(at: offset)
        return location
    }

    func error(_ message: String, at offset: Int) -> FerryError {
        FerryError(.malformedJSON, message, at: location(at: offset))
    }

    /// The `--from` value for JSON Lines in the compression `fileName` ends with (`jsonl.gz`).
    static func jsonLinesName(for fileName: String?) -> String {
        let name = fileName?.lowercased() ?? ""
        let compression = ["gz", "zst", "xz", "bz2"].first { name.hasSuffix("." + $0) }
        return "jsonl" + (compression.map { "." + $0 } ?? "")
    }

    func unexpectedEnd(_ expectation: String) -> FerryError {
        error("unexpected end of input, \(expectation)", at: input.end)
    }

    /// An error for the byte at the current position, described by a one-byte parse.
    func unexpected(_ expectation: String) -> any Error {
        // A whole UTF-8 sequence is needed to tell a misplaced character from invalid bytes.
        try? input.require(4)
        let offset = input.pos
        let start = input.position(at: offset)
        return input.withBytes { p in
            let end = min(input.end, offset + 4)
            let parser = JSONParser(
                bytes: p, range: offset..<end, basePosition: start, location: options.inputLocation,
                maximumDepth: options.maximumDepth)
            return parser.unexpectedError(expectation, at: offset)
        }
    }

    /// The error for data after the top-level value, at `byte`. Another object or array at the
    /// start of a line is most likely JSON Lines taken for a document (by its name, or a first
    /// line JSON Lines shares): the error says how to read it so. A bundle's member is read as
    /// its manifest says, which no option changes: no hint there.
    func trailingData(_ byte: UInt8) -> any Error {
        let error = unexpected("unexpected data after the top-level value; expected the end of the input")
        guard byte == JSONSyntax.openBrace || byte == JSONSyntax.openBracket, options.member == nil,
              input.position(at: input.pos).column == 1, var said = error as? FerryError
        else { return error }
        said.diagnostic.message += "; one JSON value a line is JSON Lines: read it with --from \(Self.jsonLinesName(for: options.fileName))"
        return said
    }
}
