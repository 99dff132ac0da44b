import FerryCore
import FerrySchemas
import Testing

@testable import FerryTypedPath

/// A small collection model whose code is its descriptor, and variants that each break that in
/// one way (`DescriptorTrace` must refuse them: a transcoder would write what the model would not).
enum Things {
    static let recordType = RecordType("Thing", [
        FieldSchema("id", .nonEmptyString), .optional("name", .string), FieldSchema("count", .integer),
        FieldSchema("flag", .bool), FieldSchema("part", .object(Part.recordType)),
        FieldSchema("parts", .array(.object(Part.recordType))), FieldSchema("tags", .array(.string)),
    ])

    /// What each variant does differently.
    enum Quirk: Sendable { case none, lowercasesName, negatesFlag, skipsCount, readsIDTwice, readsNameAsRequired, checks,
        derivesID, hasNoID, writesExtra, dropsTags, changesPart, leavesOptionalNameWritten }

    struct Part: FieldCodable {
        var weight: Double
        static let recordType = RecordType("Part", [FieldSchema("weight", .double, range: 0...1_000_000)])
        init(weight: Double) { self.weight = weight }
        init<Source: FieldSource>(from r: inout Source) { weight = r.double("weight") }
        func encode<Sink: FieldSink>(to b: inout Sink) { b.add("weight", weight) }
    }
}

protocol ThingQuirk { static var quirk: Things.Quirk { get } }

/// A thing with the quirk `Q` (`Things.Quirk`).
struct Thing<Q: ThingQuirk>: CollectionModel, FieldCodable {
    var id: String
    var name: String?
    var count: Int64
    var flag: Bool
    var part: Things.Part
    var parts: [Things.Part]
    var tags: [String]

    static var collection: String { "things" }
    static var recordType: RecordType { Things.recordType }
    var recordID: String? {
        switch Q.quirk {
        case .derivesID: return "thing-" + id
        case .hasNoID: return nil
        default: return id
        }
    }

    static func == (a: Thing, b: Thing) -> Bool { a.id == b.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }

    init<Source: FieldSource>(from r: inout Source) {
        id = r.string("id")
        if Q.quirk == .readsIDTwice { _ = r.string("id") }
        name = Q.quirk == .readsNameAsRequired ? r.string("name") : r.optionalString("name")
        count = Q.quirk == .skipsCount ? 0 : r.integer("count")
        flag = r.bool("flag")
        part = r.object("part", as: Things.Part.self) ?? Things.Part(weight: 0)
        parts = r.array("parts", of: Things.Part.self)
        tags = r.stringArray("tags")
        if Q.quirk == .checks { r.check(nil) }
    }

    func encode<Sink: FieldSink>(to b: inout Sink) {
        b.add("id", id)
        switch Q.quirk {
        case .lowercasesName: b.addOptional("name", name?.lowercased())
        case .leavesOptionalNameWritten: b.add("name", name ?? "")
        default: b.addOptional("name", name)
        }
        b.add("count", count)
        b.add("flag", Q.quirk == .negatesFlag ? !flag : flag)
        b.add("part", Q.quirk == .changesPart ? Things.Part(weight: part.weight + 1) : part)
        b.add("parts", parts)
        if Q.quirk != .dropsTags { b.add("tags", tags) }
        if Q.quirk == .writesExtra { b.add("extra", true) }
    }
}

enum PlainQuirk: ThingQuirk { static let quirk = Things.Quirk.none }
enum LowercasesName: ThingQuirk { static let quirk = Things.Quirk.lowercasesName }
enum NegatesFlag: ThingQuirk { static let quirk = Things.Quirk.negatesFlag }
enum SkipsCount: ThingQuirk { static let quirk = Things.Quirk.skipsCount }
enum ReadsIDTwice: ThingQuirk { static let quirk = Things.Quirk.readsIDTwice }
enum ReadsNameAsRequired: ThingQuirk { static let quirk = Things.Quirk.readsNameAsRequired }
enum Checks: ThingQuirk { static let quirk = Things.Quirk.checks }
enum DerivesID: ThingQuirk { static let quirk = Things.Quirk.derivesID }
enum HasNoID: ThingQuirk { static let quirk = Things.Quirk.hasNoID }
enum WritesExtra: ThingQuirk { static let quirk = Things.Quirk.writesExtra }
enum DropsTags: ThingQuirk { static let quirk = Things.Quirk.dropsTags }
enum ChangesPart: ThingQuirk { static let quirk = Things.Quirk.changesPart }
enum LeavesOptionalNameWritten: ThingQuirk { static let quirk = Things.Quirk.leavesOptionalNameWritten }

@Suite struct DescriptorTraceTests {
    @Test func aModelThatIsItsDescriptorIsPlain() throws {
        let trace = try #require(DescriptorTrace(Thing<PlainQuirk>.self))
        #expect(trace.idField == 0)
        #expect(try #require(DescriptorTrace(Thing<HasNoID>.self)).idField == nil)
    }

    @Test func everyWayOfBeingMoreThanTheDescriptorIsRefused() {
        #expect(DescriptorTrace(Thing<LowercasesName>.self) == nil)
        #expect(DescriptorTrace(Thing<NegatesFlag>.self) == nil)
        #expect(DescriptorTrace(Thing<SkipsCount>.self) == nil)
        #expect(DescriptorTrace(Thing<ReadsIDTwice>.self) == nil)
        #expect(DescriptorTrace(Thing<ReadsNameAsRequired>.self) == nil)
        #expect(DescriptorTrace(Thing<Checks>.self) == nil)
        #expect(DescriptorTrace(Thing<DerivesID>.self) == nil)
        #expect(DescriptorTrace(Thing<WritesExtra>.self) == nil)
        #expect(DescriptorTrace(Thing<DropsTags>.self) == nil)
        #expect(DescriptorTrace(Thing<ChangesPart>.self) == nil)
        #expect(DescriptorTrace(Thing<LeavesOptionalNameWritten>.self) == nil)
    }

    @Test func theSchemasModels() {
        // Notes are plain in both versions; pet-story profiles and family members check across fields.
        #expect(DescriptorTrace(NotesV1.WineNote.self)?.idField == NotesV1.WineNote.recordType.index(ofField: "id"))
        #expect(DescriptorTrace(NotesV2.WineTastingNote.self)?.idField == 0)
        #expect(DescriptorTrace(PetStoryV2.Profile.self) == nil)
        #expect(DescriptorTrace(PetStoryV2.FamilyMember.self) == nil)
    }
}
