/// A domain by its name on the command line and in headers (`notes`, `pet-story`): a value, so
/// that an app's own domain is one as much as the three of SCHEMAS.md. What a domain is (its
/// schemas, migration plan, detection hints, Firestore nesting, media) is its registered
/// `DomainDefinition`; `DomainRegistry` holds the definitions.
public struct Domain: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The name (`pet-story`).
    public let rawValue: String

    /// The registered domain of that name; nil when no definition of it is registered.
    public init?(rawValue: String) {
        guard DomainRegistry.shared.definition(named: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// The domain a definition describes (`Domain(ReadingLogDomain.self)`), registered or not:
    /// register the definition (`DomainRegistry.register(_:)`) before Ferry reads its data.
    public init(_ definition: any DomainDefinition.Type) {
        self.rawValue = definition.name
    }

    /// Tasting notes (wine, coffee, whiskey, cocktail).
    public static let notes = Domain(NotesDomain.self)
    /// The pet diary: profiles, family members, stories with media.
    public static let petStory = Domain(PetStoryDomain.self)
    /// The Japanese word book from Firebase.
    public static let vocabulary = Domain(VocabularyDomain.self)

    /// Every registered domain: the three built-in ones, then the others in registration order.
    public static var allCases: [Domain] { DomainRegistry.shared.domains }

    /// The newest schema version of every built-in domain.
    public static let latestVersion = 2

    /// What the domain is; nil when it is not registered.
    public var definition: (any DomainDefinition.Type)? { DomainRegistry.shared.definition(named: rawValue) }

    public var description: String { rawValue }
}
