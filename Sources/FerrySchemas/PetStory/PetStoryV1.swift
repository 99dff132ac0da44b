/// The `pet-story` domain at schema version 1 (SCHEMAS.md "Domain pet-story: V1").
public enum PetStoryV1 {
    /// A V1 member's kind of animal.
    public enum MemberType: String, Sendable, Hashable, CaseIterable {
        case bird, dog, cat
    }

    /// A V1 member's sex.
    public enum Sex: String, Sendable, Hashable, CaseIterable {
        case male, female
    }
}

/// The `pet-story` domain's version 1 schema.
public enum PetStorySchemaV1: VersionedSchema {
    public static let versionIdentifier = Schema.Version(1, 0, 0)
    public static let domain = Domain.petStory
    @inlinable
    public static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor) {
        visitor.visit(PetStoryV1.Profile.self)
        visitor.visit(PetStoryV1.FamilyMember.self)
        visitor.visit(PetStoryV1.Story.self)
    }
}
