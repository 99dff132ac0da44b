import CLibXML2

/// The element names the mapping gives a meaning to (Docs/xml.md "Mapping"); every other
/// element is a collection, a record or a field named by its own name.
enum XMLElementKind: UInt8 {
    case other, dataset, field, item
}

/// The attribute names the mapping reads; others are ignored.
enum XMLAttributeKind: UInt8 {
    case other, domain, schemaVersion, type, name
}

/// The mapping's element and attribute names as libxml2's parser dictionary holds them, so that
/// a name a SAX callback hands over is told by its address (a pointer compare) instead of its
/// bytes or a `String`.
///
/// libxml2 interns every element and attribute name it parses in the parser's dictionary
/// (`ctxt->dict`; `XML_PARSE_NODICT` only concerns tree building, which Ferry does not do), and
/// one dictionary gives one address per name; so the known names are looked up once per parser
/// and a name with another address is another name. Without a dictionary (or when a test asks)
/// names are compared byte by byte, and records come out the same (`XMLNameKindTests`).
struct XMLKnownNames {
    /// Element names and their kinds.
    static let elements: [(name: String, kind: XMLElementKind)] = [("dataset", .dataset), ("field", .field), ("item", .item)]
    /// Attribute names and their kinds.
    static let attributes: [(name: String, kind: XMLAttributeKind)] =
        [("domain", .domain), ("schemaVersion", .schemaVersion), ("type", .type), ("name", .name)]

    /// True when names are told by their dictionary address (and a name's address stands for
    /// its text for the parser's life, which the name cache relies on).
    let byAddress: Bool
    private var elementAddresses: (dataset: UnsafePointer<xmlChar>?, field: UnsafePointer<xmlChar>?, item: UnsafePointer<xmlChar>?)
        = (nil, nil, nil)
    private var attributeAddresses: (domain: UnsafePointer<xmlChar>?, schemaVersion: UnsafePointer<xmlChar>?,
                                     type: UnsafePointer<xmlChar>?, name: UnsafePointer<xmlChar>?) = (nil, nil, nil, nil)

    /// Looks the known names up in `dictionary`; compares bytes when it is nil, when a lookup
    /// fails or when `byAddress` is false.
    init(dictionary: xmlDictPtr?, byAddress: Bool = true) {
        guard byAddress, let dictionary else {
            self.byAddress = false
            return
        }
        func lookup(_ name: String) -> UnsafePointer<xmlChar>? {
            var name = name
            return name.withUTF8 { xmlDictLookup(dictionary, $0.baseAddress, Int32($0.count)) }
        }
        elementAddresses = (lookup("dataset"), lookup("field"), lookup("item"))
        attributeAddresses = (lookup("domain"), lookup("schemaVersion"), lookup("type"), lookup("name"))
        self.byAddress = elementAddresses.dataset != nil && elementAddresses.field != nil && elementAddresses.item != nil
            && attributeAddresses.domain != nil && attributeAddresses.schemaVersion != nil
            && attributeAddresses.type != nil && attributeAddresses.name != nil
    }

    /// The kind of an element with local name `name` (a prefixed element is `.other`).
    @inline(__always)
    func elementKind(_ name: UnsafePointer<xmlChar>) -> XMLElementKind {
        if byAddress {
            if name == elementAddresses.item { return .item }
            if name == elementAddresses.field { return .field }
            if name == elementAddresses.dataset { return .dataset }
            return .other
        }
        for known in Self.elements where Self.equals(name, known.name) { return known.kind }
        return .other
    }

    /// The kind of an attribute with local name `name` (a prefixed attribute is `.other`).
    @inline(__always)
    func attributeKind(_ name: UnsafePointer<xmlChar>) -> XMLAttributeKind {
        if byAddress {
            if name == attributeAddresses.type { return .type }
            if name == attributeAddresses.name { return .name }
            if name == attributeAddresses.domain { return .domain }
            if name == attributeAddresses.schemaVersion { return .schemaVersion }
            return .other
        }
        for known in Self.attributes where Self.equals(name, known.name) { return known.kind }
        return .other
    }

    /// True when the NUL-terminated `bytes` are `text`'s UTF-8.
    static func equals(_ bytes: UnsafePointer<xmlChar>, _ text: String) -> Bool {
        var i = 0
        for byte in text.utf8 {
            guard bytes[i] == byte else { return false }
            i += 1
        }
        return bytes[i] == 0
    }
}

/// A start tag as the safe parser hands it over: valid during the `startElement` call only (its
/// attributes are libxml2's).
struct XMLStartTag {
    /// The element's name (with `prefix:` when there is one).
    let name: String
    /// What the mapping makes of the name (`.other` for a prefixed name).
    let kind: XMLElementKind
    /// The attributes, read from libxml2's array.
    let attributes: XMLAttributes
}

/// A start tag's attributes, read in place from libxml2's SAX2 array (five pointers an
/// attribute: local name, prefix, URI, value start, value end).
struct XMLAttributes {
    let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int
    let known: UnsafePointer<XMLKnownNames>

    /// No attributes.
    var isEmpty: Bool { count == 0 || base == nil }

    /// Calls `body` with each unprefixed attribute of kind `kind`, in document order, and the
    /// bytes of its value.
    @inline(__always)
    func forEach(_ kind: XMLAttributeKind, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let base else { return }
        for i in 0..<count {
            let entry = base + i * 5
            guard let local = entry[0], let start = entry[3], let end = entry[4], entry[1] == nil,
                  known.pointee.attributeKind(local) == kind else { continue }
            body(UnsafeBufferPointer(start: start, count: end - start))
        }
    }

    /// The value of the first unprefixed attribute of kind `kind`.
    func first(_ kind: XMLAttributeKind) -> String? {
        guard let base else { return nil }
        for i in 0..<count {
            let entry = base + i * 5
            guard let local = entry[0], let start = entry[3], let end = entry[4], entry[1] == nil,
                  known.pointee.attributeKind(local) == kind else { continue }
            return String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
        }
        return nil
    }

    /// Every attribute as name (`prefix:local` when prefixed) and value.
    var pairs: [(name: String, value: String)] {
        guard let base else { return [] }
        var pairs: [(name: String, value: String)] = []
        for i in 0..<count {
            let entry = base + i * 5
            guard let local = entry[0], let start = entry[3], let end = entry[4] else { continue }
            var name = String(cString: local)
            if let prefix = entry[1] { name = String(cString: prefix) + ":" + name }
            pairs.append((name, String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)))
        }
        return pairs
    }
}
