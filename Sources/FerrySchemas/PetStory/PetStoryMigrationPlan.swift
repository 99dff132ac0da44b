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

    public static let stages: [MigrationStage] = [
        .custom(fromVersion: PetStorySchemaV1.self, toVersion: PetStorySchemaV2.self,
                steps: [profileV1toV2, memberV1toV2, storyV1toV2])
    ]

    /// Fields of a V2 record -> fields of the V1 record they came from.
    static let renames: [PointerRename] = [
        PointerRename("/species", "/type"), PointerRename("/media/*", "/mediaContentIds/*"),
        PointerRename("/location/latitude", "/lat"), PointerRename("/location/longitude", "/lng"),
        PointerRename("/location", "/lat"),
    ]

    /// `profiles`: the profile image found in the media catalog (`ProfileImages/<id>.<ext>`).
    public static let profileV1toV2 = MigrationStep(PetStoryV1.Profile.self, to: PetStoryV2.Profile.self,
                                                    pointerRenames: renames) { old, context in
        context.recordID = old.id
        return PetStoryV2.Profile(id: old.id, name: old.name, createdAt: old.createdAt, lastUpdatedAt: old.lastUpdatedAt,
                                  image: image(stem: "ProfileImages/\(old.id)", &context))
    }

    /// `members`: `type` -> `species`; `since` and `birthDate` become days in `--time-zone`; the
    /// member image found in the media catalog (`MemberImages/<id>.<ext>`).
    public static let memberV1toV2 = MigrationStep(PetStoryV1.FamilyMember.self, to: PetStoryV2.FamilyMember.self,
                                                   pointerRenames: renames) { old, context in
        context.recordID = old.id
        return PetStoryV2.FamilyMember(
            id: old.id, name: old.name, since: old.since.day(in: context.timeZone),
            birthDate: old.birthDate.day(in: context.timeZone),
            species: PetStoryV2.Species(rawValue: old.type.rawValue) ?? .other,  // V1's types are all V2 species
            sex: PetStoryV2.Sex(rawValue: old.sex.rawValue) ?? .unknown,  // likewise its sexes
            bio: old.bio, createdAt: old.createdAt, image: image(stem: "MemberImages/\(old.id)", &context))
    }

    /// `stories`: each `mediaContentIds` entry becomes a media item from the catalog; `lat` + `lng`
    /// become `location` (both or neither).
    public static let storyV1toV2 = MigrationStep(PetStoryV1.Story.self, to: PetStoryV2.Story.self,
                                                  pointerRenames: renames) { old, context in
        context.recordID = old.id
        var media: [PetStoryV2.MediaItem] = []
        for (index, mediaID) in old.mediaContentIds.enumerated() {
            let field = JSONPointer(tokens: ["mediaContentIds", String(index)])
            let stem = "Stories/\(old.id)/\(mediaID)"
            guard let files = context.mediaFiles(withStem: stem) else {
                context.warning(.mediaNotFound,
                    "media \(quoted: mediaID) was not exported with this \(context.options.inputFormatTitle.map { $0 + " " } ?? "")file; "
                        + "kind set to unknown", at: field)
                media.append(PetStoryV2.MediaItem(id: mediaID, kind: .unknown, path: "media/" + stem))
                continue
            }
            switch files.count {
            case 0:
                context.error(.missingMedia, "no file for media \(quoted: mediaID) (\(DiagnosticText.quoted(stem + ".*")))",
                              at: field)
            case 1:
                media.append(PetStoryV2.MediaItem(id: mediaID, kind: PetStoryV2.MediaKind(path: files[0]), path: files[0]))
            default:
                context.error(.invalidValue,
                    "\(files.count) files for media \(quoted: mediaID): \(files.map(DiagnosticText.quoted).joined(separator: ", "))",
                    at: field)
            }
        }
        var location: PetStoryV2.GeoLocation? = nil
        switch (old.lat, old.lng) {
        case (let lat?, let lng?): location = PetStoryV2.GeoLocation(latitude: lat, longitude: lng)
        case (nil, nil): break
        case (_?, nil): context.error(.invalidValue, "lat without lng; a location needs both", at: "/lat", comparing: ["/lng"])
        case (nil, _?): context.error(.invalidValue, "lng without lat; a location needs both", at: "/lng", comparing: ["/lat"])
        }
        return PetStoryV2.Story(id: old.id, caption: old.caption, createdAt: old.createdAt, media: media, songId: old.songId,
                                location: location, taggedMemberIds: old.taggedMemberIds)
    }

    /// The one image file of a profile or member (`stem` without extension), nil when there is
    /// none or no catalog; two files are an `invalid-value` error at `/id`.
    static func image(stem: String, _ context: inout MigrationContext) -> PetStoryV2.MediaRef? {
        guard let files = context.mediaFiles(withStem: stem) else { return nil }
        if files.count > 1 {
            context.error(.invalidValue, "\(files.count) image files: \(files.map(DiagnosticText.quoted).joined(separator: ", "))",
                          at: "/id")
            return nil
        }
        return files.first.map { PetStoryV2.MediaRef(path: $0) }
    }
}
