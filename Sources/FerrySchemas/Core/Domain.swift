/// The three domains of SCHEMAS.md, by their names on the command line and in headers.
public enum Domain: String, CaseIterable, Sendable, Hashable {
    /// Tasting notes (wine, coffee, whiskey, cocktail).
    case notes
    /// The pet diary: profiles, family members, stories with media.
    case petStory = "pet-story"
    /// The Japanese word book from Firebase.
    case vocabulary

    /// The newest schema version of every domain.
    public static let latestVersion = 2
}
