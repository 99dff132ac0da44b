/// The `pet-story` domain at schema version 2 (SCHEMAS.md "Domain pet-story: V2").
public enum PetStoryV2 {
    /// A member's species (V1 `type`, widened).
    public enum Species: String, Sendable, Hashable, CaseIterable {
        case bird, dog, cat, rabbit, hamster, fish, reptile, other
    }

    /// A member's sex.
    public enum Sex: String, Sendable, Hashable, CaseIterable {
        case male, female, unknown
    }

    /// A media item's kind, from its file extension.
    public enum MediaKind: String, Sendable, Hashable, CaseIterable {
        case photo, video, audio, unknown

        /// jpeg/jpg/png/heic/gif: photo; mp4/mov: video; m4a/mp3: audio; else unknown
        /// (case-insensitive, SCHEMAS.md "pet-story V1 -> V2").
        public init(fileExtension: String) {
            switch fileExtension.lowercased() {
            case "jpeg", "jpg", "png", "heic", "gif": self = .photo
            case "mp4", "mov": self = .video
            case "m4a", "mp3": self = .audio
            default: self = .unknown
            }
        }

        /// The kind of a file path's extension.
        public init(path: String) {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if let dot = name.lastIndex(of: "."), dot != name.startIndex {
                self.init(fileExtension: String(name[name.index(after: dot)...]))
            } else {
                self = .unknown
            }
        }
    }
}

/// The `pet-story` domain's version 2 schema.
public enum PetStorySchemaV2: VersionedSchema {
    public static let versionIdentifier = Schema.Version(2, 0, 0)
    public static let domain = Domain.petStory
    @inlinable
    public static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor) {
        visitor.visit(PetStoryV2.Profile.self)
        visitor.visit(PetStoryV2.FamilyMember.self)
        visitor.visit(PetStoryV2.Story.self)
    }
}
