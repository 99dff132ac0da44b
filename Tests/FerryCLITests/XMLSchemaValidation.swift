import CLibXML2
import FerryCore
import FormatXML

/// Validates an XML document against an XML Schema (XSD 1.0) with libxml2's validator, in-process:
/// the oracle that proves the XML Ferry writes matches the XSD `ferry schema --as xsd` prints.
enum XMLSchemaValidation {
    /// Every violation of `schema` found in `document`, in document order; empty when it is valid.
    ///
    /// - Parameters:
    ///   - document: the XML document's bytes (any encoding libxml2 detects).
    ///   - schema: the XSD's bytes.
    ///   - fileName: the document's name, for the diagnostics' locations.
    /// - Returns: `invalid-value` errors with libxml2's message, line and column (libxml2 reports
    ///   the line of the offending element; the column when it knows one) for violations;
    ///   `malformed-xml` for a schema libxml2 cannot compile; for a document that is not
    ///   well-formed or not safe, the first problem `XMLWellFormedness.check` reports
    ///   (`malformed-xml`, `unsafe-xml`, `too-deep`). Never throws, never traps.
    ///
    /// Safety: the document is first checked by `XMLWellFormedness` (the reader's policy: any
    /// entity declaration or external DTD is refused), then parsed into a tree with
    /// `XML_PARSE_NONET` only (no `XML_PARSE_NOENT`, no DTD loading, no `XML_PARSE_HUGE`).
    /// The schema is trusted input (Ferry's own), parsed from memory with the network off by the
    /// process-wide refusing entity loader of the reader when it is installed.
    static func validate(document: [UInt8], schema: [UInt8], fileName: String? = nil) -> [Diagnostic] {
        if let problem = XMLWellFormedness.check(document, fileName: fileName) { return [problem] }
        let collector = ErrorCollector(fileName: fileName)
        let user = Unmanaged.passUnretained(collector).toOpaque()
        let handler: xmlStructuredErrorFunc = { user, error in
            guard let user, let error else { return }
            Unmanaged<ErrorCollector>.fromOpaque(user).takeUnretainedValue().add(error.pointee)
        }

        guard schema.count <= Int(Int32.max), document.count <= Int(Int32.max) else {
            return [.error(.tooLarge, "document or schema over 2 GiB", at: SourceLocation(file: fileName))]
        }
        let parserContext = schema.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                xmlSchemaNewMemParserCtxt(chars.baseAddress, Int32(chars.count))
            }
        }
        guard let parserContext else {
            return [.error(.internalError, "libxml2 could not create a schema parser", at: SourceLocation(file: fileName))]
        }
        defer { xmlSchemaFreeParserCtxt(parserContext) }
        collector.schemaPhase = true
        xmlSchemaSetParserStructuredErrors(parserContext, handler, user)
        guard let compiled = xmlSchemaParse(parserContext) else {
            if collector.diagnostics.isEmpty {
                collector.diagnostics.append(.error(.malformedXML, "the XML Schema does not compile", at: SourceLocation(file: fileName)))
            }
            return collector.diagnostics
        }
        defer { xmlSchemaFree(compiled) }
        collector.schemaPhase = false

        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let tree = document.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                xmlReadMemory(chars.baseAddress, Int32(chars.count), nil, nil, options)
            }
        }
        guard let tree else {
            return [.error(.malformedXML, "libxml2 could not build a tree of the document", at: SourceLocation(file: fileName))]
        }
        defer { xmlFreeDoc(tree) }
        guard let validContext = xmlSchemaNewValidCtxt(compiled) else {
            return [.error(.internalError, "libxml2 could not create a schema validator", at: SourceLocation(file: fileName))]
        }
        defer { xmlSchemaFreeValidCtxt(validContext) }
        xmlSchemaSetValidStructuredErrors(validContext, handler, user)
        let status = xmlSchemaValidateDoc(validContext, tree)
        if status != 0 && collector.diagnostics.isEmpty {
            collector.diagnostics.append(.error(.invalidValue, "the document does not match the XML Schema (libxml2 status \(status))",
                                                at: SourceLocation(file: fileName)))
        }
        return collector.diagnostics
    }

    /// Receives libxml2's structured errors for one validation.
    private final class ErrorCollector {
        let fileName: String?
        var schemaPhase = false
        var diagnostics: [Diagnostic] = []

        init(fileName: String?) { self.fileName = fileName }

        func add(_ error: xmlError) {
            guard error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            var message = error.message.map { String(cString: $0) } ?? "schema violation"
            while message.last == "\n" || message.last == " " { message.removeLast() }
            var location = SourceLocation(file: schemaPhase ? "(schema)" : fileName)
            if error.line > 0 { location.line = Int(error.line) }
            if error.int2 > 0, location.line != nil { location.column = Int(error.int2) }
            diagnostics.append(.error(schemaPhase ? .malformedXML : .invalidValue, message, at: location))
        }
    }
}
