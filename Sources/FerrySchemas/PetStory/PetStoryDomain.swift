import FerryCore

/// The `pet-story` domain (SCHEMAS.md "Domain pet-story"), declared as any domain is: besides its
/// schemas, the time zone its V1 -> V2 migration takes calendar days in, and its media files.
public enum PetStoryDomain: DomainDefinition {
    public static let name = "pet-story"
    public static var migrationPlan: any SchemaMigrationPlan.Type { PetStoryMigrationPlan.self }

    @inlinable
    public static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor) {
        PetStorySchemaV1.forEachModel(&visitor)
        PetStorySchemaV2.forEachModel(&visitor)
    }

    public static func claims(collection name: String) -> Bool {
        name == "profiles" || name == "members" || name == "stories"
    }

    /// V1's `type`, `mediaContentIds`, `lat`, `lng` mean V1; V2's `species`, `media`,
    /// `location`, `image`, `speciesDetail` mean V2; V1 otherwise.
    public static func detectVersion(collections: [String], sample: Value?) -> Int {
        guard let object = sample?.objectValue else { return 1 }
        for key in ["type", "mediaContentIds", "lat", "lng"] where object[key] != nil { return 1 }
        for key in ["species", "media", "location", "image", "speciesDetail"] where object[key] != nil { return 2 }
        return 1
    }

    /// V1 members' `birthDate` and `since` become calendar days in the run's time zone.
    public static func assumption(collection: String, fromVersion: Int, toVersion: Int, timeZone: String) -> String? {
        guard fromVersion == 1, toVersion == 2, collection == "members" else { return nil }
        return "calendar days (birthDate, since) are taken in time zone \(timeZone) (--time-zone)"
    }

    /// A profile's and a member's image, and each story media item (a story item of kind
    /// `unknown` is the mark a lone JSON export's migration leaves for media never exported).
    public static func mediaPaths(of model: any CollectionModel) -> [DomainMediaPath] {
        if let profile = model as? PetStoryV2.Profile, let image = profile.image {
            return [DomainMediaPath(path: image.path, field: "/image/path")]
        }
        if let member = model as? PetStoryV2.FamilyMember, let image = member.image {
            return [DomainMediaPath(path: image.path, field: "/image/path")]
        }
        if let story = model as? PetStoryV2.Story {
            return story.media.enumerated().map { index, item in
                DomainMediaPath(path: item.path, field: JSONPointer(tokens: ["media", String(index), "path"]),
                    mayBeMissing: item.kind == .unknown)
            }
        }
        return []
    }

    /// A story's `taggedMemberIds` name members (both versions).
    public static func references(collection: String, version: Int) -> [ReferenceRule] {
        collection == "stories" ? [ReferenceRule(field: "taggedMemberIds", collection: "members", noun: "member")] : []
    }

    public static func mediaStems(collection: String?, value: Value) -> [String] {
        PetStoryMediaLayout.stems(collection: collection, value: value)
    }
}
