import FerryCore

/// Checks a whole XML document with the reader's parser and safety policy, without the dataset
/// mapping: for conformance suites and `validate` on arbitrary XML.
public enum XMLWellFormedness {
    /// The first problem of `bytes` as a document, or nil when it is well-formed and safe.
    ///
    /// Same options and policy as `XMLRecordReader` (Docs/xml.md "Safety"): `unsafe-xml` for any
    /// entity declaration (at its line) or a reference to an entity only an external DTD could
    /// declare; `malformed-xml` with libxml2's message, line and column for anything not
    /// well-formed (XML 1.0 and Namespaces in XML); `too-deep` past 256 levels.
    public static func check(_ bytes: [UInt8], fileName: String? = nil) -> Diagnostic? {
        let handler = NullHandler()
        let location = SourceLocation(file: fileName)
        do {
            let parser = try XMLSafeParser(source: MemorySource(bytes), location: location, handler: handler)
            while try parser.advance() {}
            return parser.failure
        } catch let error as FerryError {
            return error.diagnostic
        } catch {
            return .error(.internalError, "\(error)", at: location)
        }
    }

    private final class NullHandler: XMLParseHandler {
        func startElement(_ tag: XMLStartTag, at position: TextPosition) {}
        func endElement() {}
        func text(_ bytes: UnsafeBufferPointer<UInt8>) {}
    }
}
