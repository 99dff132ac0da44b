import CLibXML2
import FerryCore
import Foundation

/// libxml2's errors as Ferry's diagnostics.
extension XMLSafeParser {
    /// Turns libxml2's first error into the diagnostic that stops the parse: its line and column,
    /// and Ferry's words where libxml2's would mislead (input cut short or empty, bytes that are
    /// not UTF-8, entities).
    func onError(_ error: xmlError) {
        guard !stopped, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = error.message.map { String(cString: $0) } ?? "not well-formed"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        var location = baseLocation
        if error.line > 0 { location.line = Int(error.line) }
        if error.int2 > 0 { location.column = Int(error.int2) }
        var code = Diagnostic.Code.malformedXML
        // An undeclared entity is a validity error (27), not a fatal one (26), when a parameter
        // entity reference might have declared it: a declaration Ferry would have refused anyway.
        if error.code == Int32(XML_WAR_UNDECLARED_ENTITY.rawValue) {
            code = .unsafeXML
            message += "; it could only come from a DTD, which Ferry never loads"
        }
        // At the end of the input with elements still open, libxml2's push parser says "Extra
        // content at the end of the document", or (when the input stops inside a tag) another
        // error met with every byte read; what happened is that the input stopped short.
        if isFinished, let context, context.pointee.nameNr > 0,
           error.code == Int32(XML_ERR_DOCUMENT_END.rawValue) || readsNoMore(context) || endsInsideCharacter(context)
        {
            let open = context.pointee.name.map { String(cString: $0) } ?? ""
            message = "premature end of data: the input ends inside <\(open)>, which is not closed (the input is cut short)"
        }
        // Input that ends before any element gets libxml2's "Extra content at the end of the
        // document" too (its state never left the prolog); say what is missing, as JSON and CSV do.
        if isFinished, let context, Self.beforeRootElement(context.pointee.instate) {
            message = fedBytes == 0
                ? "the input is empty: expected the root element <dataset>"
                : "the input ends before its root element: expected <dataset>"
        }
        if message.hasPrefix("Excessive depth") { code = .tooDeep }
        if message.hasPrefix("Input is not proper UTF-8") {
            // libxml2 appends the bytes on a second line; say it in one line, with the byte offset.
            code = .invalidEncoding
            let consumed = context.map { Int(xmlByteConsumed($0)) } ?? -1
            var offset = consumed
            for shift in byteShifts where shift.at <= consumed { offset += shift.shift }
            let bytes = message.split(separator: "\n").last.map { $0.replacingOccurrences(of: "Bytes: ", with: "") } ?? ""
            message = "bytes \(bytes) at byte offset \(offset) are not valid UTF-8; declare the input's encoding "
                + "in the XML declaration (encoding=\"ISO-8859-1\") or with --encoding"
        }
        if error.code == Int32(XML_ERR_ENTITY_LOOP.rawValue) || message.contains("amplification") { code = .unsafeXML }
        stop(.error(code, message, at: location))
    }

    /// True when the parser stands at the end of every byte it was given (an error there is the
    /// input running out, not a byte that is wrong).
    private func readsNoMore(_ context: xmlParserCtxtPtr) -> Bool {
        guard let input = context.pointee.input?.pointee, let cur = input.cur, let end = input.end else { return false }
        return cur >= end
    }

    /// True when the bytes left unparsed at the end of the input are the first bytes of one UTF-8
    /// character (a cut inside it): libxml2 then reports "detected an error in element content".
    private func endsInsideCharacter(_ context: xmlParserCtxtPtr) -> Bool {
        guard let input = context.pointee.input?.pointee, let cur = input.cur, let end = input.end else { return false }
        let left = end - cur
        guard (1...3).contains(left), cur[0] >= 0xC0 else { return false }
        let length = cur[0] >= 0xF0 ? 4 : cur[0] >= 0xE0 ? 3 : 2
        return left < length && (1..<left).allSatisfy { cur[$0] & 0xC0 == 0x80 }
    }

    /// True for libxml2's push-parser states before the root element's start tag.
    private static func beforeRootElement(_ state: xmlParserInputState) -> Bool {
        state == XML_PARSER_START || state == XML_PARSER_MISC || state == XML_PARSER_PROLOG
    }
}
