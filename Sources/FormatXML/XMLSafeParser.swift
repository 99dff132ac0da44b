import CLibXML2
import FerryCore
import Foundation

/// What the safe parser reports while it reads: elements, text, and nothing of DTDs or entities
/// (those stop the parse, see `XMLSafeParser`).
protocol XMLParseHandler: AnyObject {
    /// A start tag (name, kind, attributes; valid during the call only) and the position of its `<`.
    func startElement(_ tag: XMLStartTag, at position: TextPosition)
    /// The end tag of the innermost open element.
    func endElement()
    /// Character data (text, CDATA, character references and predefined entities already decoded),
    /// as UTF-8 bytes; one text node may arrive in several calls.
    func text(_ bytes: UnsafeBufferPointer<UInt8>)
}

/// Installs, once per process, an external entity loader that refuses every URL and file.
///
/// `xmlSetExternalEntityLoader` is global to libxml2: every libxml2 user in the process (there is
/// no other in Ferry) gets the refusing loader from the first XML read on. Docs/xml.md says so.
private let refusingEntityLoaderInstalled: Bool = {
    xmlInitParser()
    xmlSetExternalEntityLoader { _, _, _ in nil }
    return true
}()

/// libxml2's push parser behind a safe, streaming, SAX-only front (Docs/xml.md "Safety").
///
/// - Options: `XML_PARSE_NONET` only: no `XML_PARSE_NOENT` (no entity substitution), no
///   `XML_PARSE_DTDLOAD` / `XML_PARSE_DTDVALID` (no external DTD), no `XML_PARSE_HUGE` (libxml2's
///   amplification, depth (256) and size limits stay on).
/// - No tree is built: only the SAX callbacks the handler needs are installed; every other one
///   (DTD and entity storage, external subset loading, entity lookup) is absent.
/// - Any entity declaration (general or parameter, internal or external) stops the parse with
///   `unsafe-xml` at the declaration's line, before anything could be expanded; so does a DOCTYPE
///   naming an external DTD (`SYSTEM` / `PUBLIC`), which is never read. An internal subset with
///   only element, attribute-list and notation declarations is accepted.
/// - A start tag with more than 10 000 attributes or more than 1 MiB of bytes is `too-large` at
///   its `<`, refused by `XMLStartTagScan` before libxml2 parses it.
/// - The first libxml2 error (`XML_ERR_ERROR` or `XML_ERR_FATAL`) stops the parse with
///   `malformed-xml`, at libxml2's line and column; warnings are ignored.
final class XMLSafeParser {
    /// True when names are told by their libxml2 dictionary address (`XMLKnownNames`).
    var namesByAddress: Bool { knownNames.pointee.byAddress }
    /// Where the parse stopped for good: a malformed or unsafe document.
    private(set) var failure: Diagnostic?
    /// `failure != nil`, as a flag: the callbacks test it on every event, and testing the optional
    /// diagnostic itself copies it.
    @exclusivity(unchecked) private(set) var stopped = false
    /// True once the input is exhausted and the parser has seen the end of the document.
    private(set) var isFinished = false

    /// The document's bytes (the batch cutting reads ahead of the parser from it).
    let source: any ByteSource
    let baseLocation: SourceLocation
    /// Bytes taken from `source` by the batch cutting and not fed yet (`feedPending`): fed
    /// before anything more is read.
    private var pending: [UInt8] = []
    /// Bytes fed to libxml2 so far (the constructor's first bytes included).
    private(set) var fedBytes = 0
    /// Where libxml2's byte count differs from the input's: after `at` bytes fed, the input had
    /// `shift` bytes more (a batch of records fed as blank lines, `feedBlank`; a segment's prefix).
    private(set) var byteShifts: [(at: Int, shift: Int)] = []
    /// True once a namespace was declared or a DOCTYPE read: records cannot be parsed apart from
    /// the document then (`XMLRecordReader.nextBatch`).
    private(set) var needsWholeDocument = false
    /// Not retained and not checked on each event (`unowned(unsafe)`): the handler owns the
    /// parser and outlives it, and a checked reference cost a retain and release per event.
    private unowned(unsafe) let handler: any XMLParseHandler
    /// `handler` when it is a record reader (the one handler whose events are hot), called
    /// directly and without the retain and release a call through the existential costs.
    private let reader: Unmanaged<XMLRecordReader>?
    /// The mapping's names as libxml2's dictionary holds them (allocated once: every start tag's
    /// attributes point at it).
    private let knownNames: UnsafeMutablePointer<XMLKnownNames>
    private(set) var context: xmlParserCtxtPtr?
    private var chunk: [UInt8]
    // Touched on every event, one access at a time on the reading thread: no dynamic
    // exclusivity checks (`XMLRecordReader` says why).
    @exclusivity(unchecked) private var tagScan: XMLStartTagScan
    /// Element names by the address of libxml2's copy: libxml2 interns every name in its parser
    /// dictionary, so one address is one name for the parser's life, and a name seen before costs
    /// no `String` creation (only while `knownNames.byAddress`). Direct-mapped; a collision just
    /// replaces the slot.
    @exclusivity(unchecked) private var nameCache = [(name: UnsafeRawPointer?, string: String)](repeating: (nil, ""), count: 64)

    /// - Parameters:
    ///   - source: the document's bytes, pulled `chunkSize` bytes at a time.
    ///   - location: file and member for diagnostics.
    ///   - handler: receives the events; not retained (its owner holds the parser).
    ///   - encoding: an encoding forced by `--encoding` (a name iconv knows), nil to detect it.
    ///   - tagLimits: the start tag limits (`XMLStartTagScan`'s defaults unless a test says).
    ///   - namesByAddress: false to tell names by their bytes only (`XMLKnownNames`; tests).
    init(source: any ByteSource, location: SourceLocation, handler: any XMLParseHandler,
         encoding: String? = nil, chunkSize: Int = 64 * 1024,
         tagLimits: (attributes: Int, bytes: Int) = (XMLStartTagScan.maximumAttributes, XMLStartTagScan.maximumStartTagBytes),
         namesByAddress: Bool = true) throws {
        _ = refusingEntityLoaderInstalled
        self.tagScan = XMLStartTagScan(encoding: encoding, maximumAttributes: tagLimits.attributes,
                                       maximumBytes: tagLimits.bytes)
        self.source = source
        self.baseLocation = location
        self.handler = handler
        self.reader = (handler as? XMLRecordReader).map { Unmanaged.passUnretained($0) }
        self.knownNames = .allocate(capacity: 1)
        knownNames.initialize(to: XMLKnownNames(dictionary: nil))
        self.chunk = [UInt8](repeating: 0, count: max(chunkSize, 16))

        var sax = Self.saxHandler()
        // The first bytes go to the constructor so that libxml2 detects the encoding (BOM, or the
        // first four bytes of `<?xml`); a source serving tiny reads is drained until there are 4.
        var initial = 0
        while initial < 4 {
            let n = try chunk.withUnsafeMutableBytes { buffer in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[initial...]))
            }
            if n == 0 { break }
            initial += n
        }
        fedBytes = initial
        let user = Unmanaged.passUnretained(self).toOpaque()
        ferry_xmlSilenceGenericErrors()
        context = chunk.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                xmlCreatePushParserCtxt(&sax, user, chars.baseAddress, Int32(initial), nil)
            }
        }
        guard let context else {
            throw FerryError(.internalError, "libxml2 could not create a parser", at: location)
        }
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        knownNames.pointee = XMLKnownNames(dictionary: context.pointee.dict, byAddress: namesByAddress)
        if let encoding {
            guard let encoder = xmlFindCharEncodingHandler(encoding) else {
                throw FerryError(.invalidEncoding, "unknown encoding \(quoted: encoding)", at: location)
            }
            xmlSwitchToEncoding(context, encoder)
        }
        if initial == 0 { finishInput() }
        // The first bytes are already with libxml2, which parses no start tag before its `>`.
        if scanFails(initial) { return }
    }

    /// A parser of record elements cut from a document (`XMLRecordReader`'s batches; the records
    /// follow with `parseBatch`). libxml2 first reads `<dataset>` and the collection's start tag,
    /// each at its line and column in the document, so that its element stack and the lines its
    /// messages name are those of the whole document's parse. Only a UTF-8 document without
    /// namespace declarations or DOCTYPE is cut (libxml2 reads the pieces as UTF-8); the cut
    /// checked the start tag limits, so `XMLStartTagScan` does not run here.
    /// - Throws: `FerryError(.internalError)` when libxml2 cannot make a parser.
    init(batchAfter root: TextPosition, collectionTag: [UInt8], collectionAt: TextPosition,
         location: SourceLocation, handler: any XMLParseHandler) throws {
        _ = refusingEntityLoaderInstalled
        self.tagScan = XMLStartTagScan(encoding: nil)
        self.source = MemorySource([])
        self.baseLocation = location
        self.handler = handler
        self.reader = (handler as? XMLRecordReader).map { Unmanaged.passUnretained($0) }
        self.knownNames = .allocate(capacity: 1)
        knownNames.initialize(to: XMLKnownNames(dictionary: nil))
        self.chunk = []
        var sax = Self.saxHandler()
        let rootTag = Array("<dataset>".utf8)
        let user = Unmanaged.passUnretained(self).toOpaque()
        ferry_xmlSilenceGenericErrors()
        context = rootTag.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xmlCreatePushParserCtxt(&sax, user, $0.baseAddress, 4, nil) }
        }
        guard let context else {
            throw FerryError(.internalError, "libxml2 could not create a parser", at: location)
        }
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        knownNames.pointee = XMLKnownNames(dictionary: context.pointee.dict)
        fedBytes = 4
        // The root's `<` is at `root` once libxml2 reads it; its first 4 bytes are not read yet.
        rootTag.withUnsafeBytes { parse(UnsafeRawBufferPointer(rebasing: $0[4...]), at: root) }
        collectionTag.withUnsafeBytes { parse($0, at: collectionAt) }
    }

    /// Parses the record elements of a batch (after `init(batchAfter:...)`): their first byte is
    /// at `position` and at `byteOffset` in the document.
    func parseBatch(_ records: UnsafeRawBufferPointer, at position: TextPosition, byteOffset: Int) {
        byteShifts.append((at: fedBytes, shift: byteOffset - fedBytes))
        if !stopped, !records.isEmpty { parse(records, at: position) }
    }

    /// Feeds `bytes` with libxml2's line and column set to `position` first.
    private func parse(_ bytes: UnsafeRawBufferPointer, at position: TextPosition) {
        guard let context else { return }
        context.pointee.input.pointee.line = Int32(truncatingIfNeeded: position.line)
        context.pointee.input.pointee.col = Int32(truncatingIfNeeded: position.column)
        fedBytes += bytes.count
        ferry_xmlSilenceGenericErrors()
        _ = xmlParseChunk(context, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), 0)
    }

    /// The SAX callbacks: each finds its parser from the context's user data.
    private static func saxHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { user, localname, prefix, _, namespaceCount, _, attributeCount, _, attributes in
            guard let user else { return }
            if namespaceCount > 0 {
                Unmanaged<XMLSafeParser>.fromOpaque(user).takeUnretainedValue().needsWholeDocument = true
            }
            // `_withUnsafeGuaranteedRef`: the parser is alive for the whole parse, so the hot
            // callbacks skip a retain and release each.
            Unmanaged<XMLSafeParser>.fromOpaque(user)._withUnsafeGuaranteedRef {
                $0.onStart(localname, prefix, Int(attributeCount), attributes)
            }
        }
        sax.endElementNs = { user, _, _, _ in
            guard let user else { return }
            Unmanaged<XMLSafeParser>.fromOpaque(user)._withUnsafeGuaranteedRef { parser in
                guard !parser.stopped else { return }
                if let reader = parser.reader {
                    reader._withUnsafeGuaranteedRef { $0.endElement() }
                } else {
                    parser.handler.endElement()
                }
            }
        }
        sax.characters = { user, bytes, count in
            guard let user else { return }
            Unmanaged<XMLSafeParser>.fromOpaque(user)._withUnsafeGuaranteedRef { $0.onText(bytes, count) }
        }
        sax.ignorableWhitespace = sax.characters
        sax.cdataBlock = sax.characters
        sax.entityDecl = { user, _, _, _, _, _ in
            guard let user else { return }
            Unmanaged<XMLSafeParser>.fromOpaque(user).takeUnretainedValue().onEntityDeclaration()
        }
        sax.unparsedEntityDecl = { user, _, _, _, _ in
            guard let user else { return }
            Unmanaged<XMLSafeParser>.fromOpaque(user).takeUnretainedValue().onEntityDeclaration()
        }
        sax.reference = { user, name in
            guard let user else { return }
            Unmanaged<XMLSafeParser>.fromOpaque(user).takeUnretainedValue().onUndeclaredReference(name)
        }
        sax.internalSubset = { user, _, externalID, systemID in
            guard let user else { return }
            Unmanaged<XMLSafeParser>.fromOpaque(user).takeUnretainedValue().needsWholeDocument = true
            guard externalID != nil || systemID != nil else { return }
            let id = systemID.map { String(cString: $0) } ?? externalID.map { String(cString: $0) } ?? ""
            Unmanaged<XMLSafeParser>.fromOpaque(user).takeUnretainedValue().onExternalDTD(id)
        }
        sax.serror = { user, error in
            guard let user, let error else { return }
            Unmanaged<XMLSafeParser>.fromOpaque(user).takeUnretainedValue().onError(error.pointee)
        }
        return sax
    }

    /// Runs the start tag pre-scan over the first `count` bytes of `chunk`; true when a start tag
    /// passed a limit, in which case the parse is stopped with `too-large` at the tag.
    private func scanFails(_ count: Int) -> Bool {
        let violation = chunk.withUnsafeBytes { tagScan.scan(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        guard let violation else { return false }
        stop(violation.diagnostic(at: baseLocation, maximumAttributes: tagScan.maximumAttributes,
                                  maximumBytes: tagScan.maximumBytes))
        return true
    }

    deinit {
        knownNames.deinitialize(count: 1)
        knownNames.deallocate()
        guard let context else { return }
        // libxml2 makes a document of its own for some DTD declarations (an entity named like a
        // predefined one, `<!ENTITY lt '<'>`) even with SAX handlers; the context does not free it.
        if let document = context.pointee.myDoc {
            xmlFreeDoc(document)
            context.pointee.myDoc = nil
        }
        xmlFreeParserCtxt(context)
    }

    /// Parses the next chunk of input; handler calls happen inside. Returns false once the
    /// document is finished or the parse has stopped (`failure` says why).
    func advance() throws -> Bool {
        guard !isFinished, !stopped, let context else { return false }
        if !pending.isEmpty {
            let bytes = pending
            pending = []
            return bytes.withUnsafeBytes { feed($0) }
        }
        let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
        if n == 0 {
            finishInput()
            return false
        }
        if scanFails(n) { return false }
        fedBytes += n
        ferry_xmlSilenceGenericErrors()
        chunk.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                _ = xmlParseChunk(context, chars.baseAddress, Int32(n), 0)
            }
        }
        return !stopped
    }

    /// Parses `bytes` as the next bytes of the document (taken from the source by the caller);
    /// false once the parse has stopped.
    @discardableResult
    func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !isFinished, !stopped, let context, !bytes.isEmpty else { return !stopped }
        let violation = tagScan.scan(bytes)
        if let violation {
            stop(violation.diagnostic(at: baseLocation, maximumAttributes: tagScan.maximumAttributes,
                                      maximumBytes: tagScan.maximumBytes))
            return false
        }
        fedBytes += bytes.count
        ferry_xmlSilenceGenericErrors()
        _ = xmlParseChunk(context, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), 0)
        return !stopped
    }

    /// Feeds `newlines` LFs and then `columns` spaces in place of `skipped` bytes of the input
    /// (a batch of records parsed elsewhere): libxml2's line and column come out where they
    /// would be after those bytes, and the blanks are whitespace between records.
    func feedBlank(newlines: Int, columns: Int, skipped: Int) {
        var blank = [UInt8](repeating: 0x0A, count: newlines)
        blank.append(contentsOf: repeatElement(0x20, count: columns))
        blank.withUnsafeBytes { _ = feed($0) }
        byteShifts.append((at: fedBytes, shift: skipped - blank.count))
    }

    /// Leaves `bytes` to be parsed before anything more is read from the source.
    func setPending(_ bytes: [UInt8]) {
        pending = bytes
    }

    /// The bytes fed that libxml2 has not parsed yet (a construct still incomplete, blanks
    /// before the next `<`), and its line and column at the first of them; nil when libxml2
    /// converts the input (any encoding but UTF-8) or is not reading content (the prolog, a
    /// comment or CDATA section in progress).
    func unparsedContent() -> (bytes: [UInt8], position: TextPosition)? {
        guard let context, let input = context.pointee.input?.pointee, let cur = input.cur, let end = input.end,
              input.buf?.pointee.encoder == nil else { return nil }
        let state = context.pointee.instate
        guard state == XML_PARSER_CONTENT || state == XML_PARSER_START_TAG || state == XML_PARSER_END_TAG else { return nil }
        return (Array(UnsafeBufferPointer(start: cur, count: end - cur)), TextPosition(line: Int(input.line), column: Int(input.col)))
    }

    private func finishInput() {
        guard let context, !isFinished else { return }
        isFinished = true
        ferry_xmlSilenceGenericErrors()
        if !stopped { _ = xmlParseChunk(context, nil, 0, 1) }
    }

    // MARK: - SAX callbacks

    private func onStart(_ localname: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
                         _ attributeCount: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        guard !stopped, let localname else { return }
        let tag: XMLStartTag
        let attributes = XMLAttributes(base: attributes, count: attributeCount, known: knownNames)
        if let prefix {
            tag = XMLStartTag(name: String(cString: prefix) + ":" + String(cString: localname), kind: .other, attributes: attributes)
        } else if knownNames.pointee.byAddress {
            tag = XMLStartTag(name: cachedName(localname), kind: knownNames.pointee.elementKind(localname), attributes: attributes)
        } else {
            tag = XMLStartTag(name: String(cString: localname), kind: knownNames.pointee.elementKind(localname), attributes: attributes)
        }
        let position = startTagPosition()
        if let reader {
            reader._withUnsafeGuaranteedRef { $0.startElement(tag, at: position) }
        } else {
            handler.startElement(tag, at: position)
        }
    }

    @inline(__always)
    private func cachedName(_ localname: UnsafePointer<xmlChar>) -> String {
        let address = UInt(bitPattern: localname)
        let slot = Int(truncatingIfNeeded: (address ^ address >> 6 ^ address >> 12) & 63)
        if nameCache[slot].name == UnsafeRawPointer(localname) { return nameCache[slot].string }
        let name = String(cString: localname)
        nameCache[slot] = (UnsafeRawPointer(localname), name)
        return name
    }

    private func onText(_ bytes: UnsafePointer<xmlChar>?, _ count: Int32) {
        guard !stopped, let bytes, count > 0 else { return }
        let text = UnsafeBufferPointer(start: bytes, count: Int(count))
        if let reader {
            reader._withUnsafeGuaranteedRef { $0.text(text) }
        } else {
            handler.text(text)
        }
    }

    private func onEntityDeclaration() {
        guard !stopped else { return }
        var location = baseLocation
        location.position = position(backTo: UInt8(ascii: "<"), marker: Array("<!ENTITY".utf8))
        stop(.error(.unsafeXML, "the document declares an entity; Ferry refuses entity declarations (no expansion, no external resources)", at: location))
    }

    private func onExternalDTD(_ identifier: String) {
        guard !stopped else { return }
        var location = baseLocation
        location.position = position(backTo: UInt8(ascii: "<"), marker: Array("<!DOCTYPE".utf8))
        stop(.error(.unsafeXML, "the document names an external DTD (\(identifier)); Ferry never loads external resources", at: location))
    }

    private func onUndeclaredReference(_ name: UnsafePointer<xmlChar>?) {
        guard !stopped else { return }
        let entity = name.map { String(cString: $0) } ?? ""
        var location = baseLocation
        location.position = position(backTo: UInt8(ascii: "&"))
        stop(.error(.unsafeXML, "reference to entity &\(entity); that only an external DTD could declare; Ferry never loads external DTDs", at: location))
    }

    /// Stops the parse for a reason found by the handler (a root element that is not `<dataset>`,
    /// nesting past the limit); `advance()` returns false from then on.
    func stop(_ diagnostic: Diagnostic) {
        failure = diagnostic
        stopped = true
        if let context { xmlStopParser(context) }
    }
}
