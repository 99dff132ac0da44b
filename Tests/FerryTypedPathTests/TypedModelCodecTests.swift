import FerryCore
import FerrySchemas
import Foundation
import Testing

@testable import FerryTypedPath

/// The specialized codec table: one codec per model of every schema, and the codecs give what
/// the generic pieces give.
@Suite struct TypedModelCodecTests {
    /// Every collection model of every schema version (the schemas' own lists) has its codec.
    @Test func everyModelHasACodec() {
        let schemas: [any VersionedSchema.Type] = [
            NotesSchemaV1.self, NotesSchemaV2.self, PetStorySchemaV1.self, PetStorySchemaV2.self,
            VocabularySchemaV1.self, VocabularySchemaV2.self,
        ]
        var count = 0
        for schema in schemas {
            for model in schema.models {
                count += 1
                let codable = model as? any FieldCodableCollection.Type
                #expect(codable.flatMap { TypedModelCodec.codec(for: $0) } != nil, "\(model)")
            }
        }
        #expect(count == 18)
        #expect(TypedModelCodec.all.count == 18)
    }

    /// `models` follows `forEachModel`, in canonical order.
    @Test func modelsInCanonicalOrder() {
        #expect(NotesSchemaV2.models.map { $0.collection } == [
            "wineTastingNotes", "coffeeTastingNotes", "whiskeyTastingNotes", "cocktailTastingNotes",
        ])
        #expect(PetStorySchemaV1.models.map { $0.collection } == PetStorySchemaV1.datasetSchema.collections.map(\.name))
        #expect(VocabularySchemaV2.models.count == 2)
    }

    /// A codec decodes and renders exactly as the generic `JSONRecordScan.decode` and
    /// `JSONLinesRendering.render`, and gives up on a model of another type.
    @Test func codecMatchesGenericPieces() throws {
        let codec = try #require(TypedModelCodec.codec(for: NotesV2.WineTastingNote.self))
        let note = NotesV2.WineTastingNote(
            id: "n1", title: "T \"q\" é", category: "red", createdAt: try #require(Instant(seconds: 1_700_000_000, nanoseconds: 123_000_000)),
            alcoholByVolume: 13.5, look: NotesV2.Look(tint: "ruby", note: ""), smells: [NotesV2.Smell(label: "plum")],
            tastes: [NotesV2.Taste(label: "dry", score: 0.5)], grape: NotesV2.Grape(variety: "Merlot"), think: "",
            rating: 4.5, isFavorite: true)
        let rendering = try #require(JSONLinesRendering(options: WriteOptions()))
        var buffer = ByteBuffer(capacity: 256)
        #expect(rendering.render(note, collection: "wineTastingNotes", into: &buffer))
        var codecBuffer = ByteBuffer(capacity: 8)
        codecBuffer.append(Array("previous\n".utf8))
        #expect(codec.passBoxed(note, note.id, "wineTastingNotes", .lines(rendering), &codecBuffer)?.id == note.id)
        let rendered = Array(codecBuffer.array.dropFirst(9))
        #expect(rendered == buffer.array)
        // Decoding the rendered line gives the note back, as the generic decode does.
        let decoded = rendered.dropLast().withUnsafeBufferPointer { bytes -> NotesV2.WineTastingNote? in
            guard let scan = JSONRecordScan(bytes) else { return nil }
            let generic = scan.decode(NotesV2.WineTastingNote.self, options: DecodingOptions())
            let special = codec.decodeJSON(scan, .plainLine) as? NotesV2.WineTastingNote
            return generic == special ? special : nil
        }
        #expect(decoded == note)
        // A model of another type: no rendering.
        let coffee = NotesV2.CoffeeTastingNote(
            id: "c1", title: "C", category: "", createdAt: note.createdAt, smells: [], tastes: [], think: "", rating: 1,
            isFavorite: false)
        #expect(codec.passBoxed(coffee, coffee.id, "coffeeTastingNotes", .lines(rendering), &codecBuffer) == nil)
        #expect(codecBuffer.count == 9 + rendered.count)
    }
}
