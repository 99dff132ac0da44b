import FerryCore
import Foundation

/// The `pet-story` migration V1 -> V2 (SCHEMAS.md "Domain pet-story: V1 -> V2").
///
/// - `type` -> `species`; `lat` + `lng` -> `location` (only one of the two: an `invalid-value`
///   error naming the story).
/// - `since` / `birthDate`: an instant becomes its day in `--time-zone`; a `YYYY-MM-DD` stays.
/// - Each `mediaContentIds` entry -> a `MediaItem` from the file found for it in the media catalog
///   (`Stories/<storyId>/<id>.<ext>`, kind by extension). No file: `missing-media` error with a
///   catalog; without one (a lone JSON file) a `media-not-found` warning, kind `unknown`, path
///   `media/Stories/<storyId>/<id>`. Two files for one id: `invalid-value` error.
/// - Profile and member images found (`ProfileImages/<id>.<ext>`, `MemberImages/<id>.<ext>`) become `image`.
public enum PetStoryMigrationPlan: SchemaMigrationPlan {
    public static var schemas: [any VersionedSchema.Type] { [PetStorySchemaV1.self, PetStorySchemaV2.self] }

    public static var stages: [MigrationStage] {
        [.custom(fromVersion: PetStorySchemaV1.self, toVersion: PetStorySchemaV2.self, willMigrate: migrateV1toV2, didMigrate: nil)]
    }

    static let renames: [PointerRename] = [
        PointerRename("/species", "/type"), PointerRename("/media/*", "/mediaContentIds/*"),
        PointerRename("/location/latitude", "/lat"), PointerRename("/location/longitude", "/lng"),
        PointerRename("/location", "/lat"),
    ]

    public static func sourcePointer(for pointer: JSONPointer, inCollection collection: String, toVersion version: Int)
        -> JSONPointer
    {
        version == 2 ? PointerRename.apply(renames, to: pointer) : pointer
    }

    /// The per-record V1 -> V2 step.
    public static let migrateV1toV2: MigrationStage.RecordMigration = { old, new, context in
        guard case .object(let v1) = old.value, case .object(var v2) = new else { return }
        let id = v1["id"]?.stringValue ?? ""
        context.recordID = id.isEmpty ? nil : id
        switch context.targetCollection {
        case "profiles":
            if let path = findImage(stem: "ProfileImages/\(id)", field: "/id", context: context) {
                v2["image"] = .object(["path": .string(path)])
            }
        case "members":
            v2["species"] = v1["type"]
            for field in ["since", "birthDate"] {
                guard let text = v1[field]?.stringValue, CalendarDay(text) == nil else { continue }
                if case .success(let instant) = Instant.parse(text) {
                    v2[field] = .string(CalendarDay(instant: instant, in: context.timeZone).description)
                }
            }
            if let path = findImage(stem: "MemberImages/\(id)", field: "/id", context: context) {
                v2["image"] = .object(["path": .string(path)])
            }
        case "stories":
            var media: [Value] = []
            for (index, item) in (v1["mediaContentIds"]?.arrayValue ?? []).enumerated() {
                let mediaID = item.stringValue ?? ""
                let field = JSONPointer(tokens: ["mediaContentIds", String(index)])
                let stem = "Stories/\(id)/\(mediaID)"
                guard let catalog = context.options.media else {
                    context.warning(.mediaNotFound,
                        "media \(quoted: mediaID) was not exported with this JSON file; kind set to unknown",
                        at: field)
                    media.append(mediaItem(id: mediaID, kind: .unknown, path: "media/" + stem))
                    continue
                }
                let files = catalog.files(withStem: stem).sorted()
                switch files.count {
                case 0:
                    context.error(.missingMedia, "no file for media \(quoted: mediaID) (\(DiagnosticText.quoted(stem + ".*")))", at: field)
                case 1:
                    media.append(mediaItem(id: mediaID, kind: PetStoryV2.MediaKind(path: files[0]), path: files[0]))
                default:
                    context.error(.invalidValue,
                        "\(files.count) files for media \(quoted: mediaID): \(files.map(DiagnosticText.quoted).joined(separator: ", "))", at: field)
                }
            }
            v2["media"] = .array(media)
            switch (v1["lat"], v1["lng"]) {
            case (let lat?, let lng?):
                v2["location"] = .object(["latitude": lat, "longitude": lng])
            case (nil, nil):
                break
            case (_?, nil):
                context.error(.invalidValue, "lat without lng; a location needs both", at: "/lat")
            case (nil, _?):
                context.error(.invalidValue, "lng without lat; a location needs both", at: "/lng")
            }
        default:
            break
        }
        new = .object(v2)
    }

    static func mediaItem(id: String, kind: PetStoryV2.MediaKind, path: String) -> Value {
        .object(["id": .string(id), "kind": .string(kind.rawValue), "path": .string(path)])
    }

    /// The one image file of a profile or member, nil when there is none (or no catalog); two
    /// files are an error.
    static func findImage(stem: String, field: JSONPointer, context: MigrationContext) -> String? {
        guard let catalog = context.options.media else { return nil }
        let files = catalog.files(withStem: stem).sorted()
        if files.count > 1 {
            context.error(.invalidValue, "\(files.count) image files: \(files.map(DiagnosticText.quoted).joined(separator: ", "))", at: field)
            return nil
        }
        return files.first
    }
}
