import Ferry
import Foundation

/// The reading log's V1 -> V2 migration, on typed models, with Ferry's diagnostics.
public enum ReadingLogMigration {
    /// What a migration gives: the V2 entries and every problem found, errors first by input order.
    public struct Result: Sendable {
        public var entries: [ReadingLogV2.Entry]
        public var diagnostics: [Diagnostic]
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// The V1 -> V2 step, declared on the models with Ferry's public stage API, as Ferry declares
    /// its own domains' stages: `book` becomes `title`; `author` is split into given and family
    /// names (`splitAuthor`); a rating off the half-star grid is rounded to it, reported as a
    /// `lossy-change` warning at the V1 field. A V2 field maps back to the V1 field it came from
    /// in diagnostics (`pointerRenames`).
    public static let step = MigrationStep(
        ReadingLogV1.Entry.self, to: ReadingLogV2.Entry.self,
        pointerRenames: [PointerRename("/title", "/book"), PointerRename("/authorGiven", "/author"),
                         PointerRename("/authorFamily", "/author")]
    ) { v1, context in
        let (given, family) = splitAuthor(v1.author)
        let rating = (v1.rating * 2).rounded() / 2
        if rating != v1.rating {
            context.warning(.lossyChange, roundingMessage(from: v1.rating, to: rating), at: "/rating")
        }
        return ReadingLogV2.Entry(id: v1.id, title: v1.book, authorGiven: given, authorFamily: family, pages: v1.pages,
                                  finishedOn: v1.finishedOn, rating: rating)
    }

    /// What the step's records share: the default options and UTC.
    static let environment = MigrationEnvironment(sourceCollection: ReadingLogV1.Entry.collection,
                                                  targetCollection: ReadingLogV2.Entry.collection)

    /// One entry through `step`, its problems positioned in `record`.
    public static func migrate(_ v1: ReadingLogV1.Entry, at record: Record, diagnostics: inout [Diagnostic])
        -> ReadingLogV2.Entry?
    {
        var context = MigrationContext(environment)
        let v2 = try? step.migrate(v1, &context)
        diagnostics += context.diagnostics { record.location(of: $0) }
        return context.hasErrors ? nil : v2
    }

    /// The warning of a rating rounded to the half-star grid, numbers as JSON writes them (`4`,
    /// not Swift's `4.0`).
    public static func roundingMessage(from rating: Double, to rounded: Double) -> String {
        let from = NumberText.ecmaScript(rating) ?? "\(rating)"
        let to = NumberText.ecmaScript(rounded) ?? "\(rounded)"
        return "rating \(from) rounded to \(to) (V2 rates in half stars)"
    }

    /// `"Ursula K. Le Guin"` -> (`"Ursula K."`, `"Le Guin"`): family names with a lower-case or
    /// known particle (`le`, `de`, `van`, `von`) keep it; a single word is a family name alone.
    public static func splitAuthor(_ author: String) -> (given: String, family: String) {
        var words = author.split(separator: " ").map(String.init)
        guard words.count > 1 else { return ("", words.first ?? "") }
        var family = [words.removeLast()]
        let particles: Set<String> = ["le", "de", "la", "van", "von", "der", "du"]
        while words.count > 1, let last = words.last, particles.contains(last.lowercased()) {
            family.insert(words.removeLast(), at: 0)
        }
        return (words.joined(separator: " "), family.joined(separator: " "))
    }

    /// Reads a V1 reading log (any format Ferry reads), checks every entry, migrates the valid
    /// ones and checks the V2 result.
    public static func migrate(_ input: URL) throws(FerryError) -> Result {
        let file = try Records.read(input, collection: ReadingLogV1.Entry.collection)
        var diagnostics = file.diagnostics
        var entries: [ReadingLogV2.Entry] = []
        let options = DecodingOptions(scalarsAsText: file.scalarsAreText)
        for record in file.records {
            guard let v1 = ReadingLogV1.Entry.decode(record, options: options, diagnostics: &diagnostics) else { continue }
            guard let v2 = migrate(v1, at: record, diagnostics: &diagnostics) else { continue }
            // The V2 rules, checked on the new value at the V1 record's place.
            let migrated = Record(collection: ReadingLogV2.Entry.collection, value: v2.value, location: record.location)
            if let valid = ReadingLogV2.Entry.decode(migrated, diagnostics: &diagnostics) { entries.append(valid) }
        }
        return Result(entries: entries, diagnostics: diagnostics)
    }
}
