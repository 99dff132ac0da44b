import FerryCore
import FerrySchemas
import Foundation

extension Dataset {
    /// The dataset with only the `Model`s for which `predicate` holds; models of other types
    /// stay (a filter on stories keeps the profiles they refer to). `Model` is a model type or a
    /// capability protocol, so one predicate can cover every collection:
    ///
    /// ```swift
    /// let search = "pinot"
    /// let found = try notes.filter(#Predicate<any Notable> { $0.title.localizedLowercase.contains(search) && $0.isFavorite })
    /// ```
    ///
    /// On Linux, Foundation's `#Predicate` takes `&&`, `||`, `!`, comparisons, `contains`,
    /// `starts(with:)`, `localizedLowercase` and optional chaining; it refuses
    /// `localizedStandardContains`, `lowercased()` and `range(of:options:)`, so a case-blind
    /// search compares `localizedLowercase` with a lower-case search text (Docs/library.md).
    /// - Throws: `FerryError(.invalidValue)` when the predicate throws on a model.
    public func filter<Model>(_ predicate: Predicate<Model>) throws(FerryError) -> Dataset {
        var kept: [any CollectionModel] = []
        for model in models {
            guard let typed = model as? Model else {
                kept.append(model)
                continue
            }
            do {
                if try predicate.evaluate(typed) { kept.append(model) }
            } catch {
                throw FerryError(.invalidValue, "the predicate failed on a \(type(of: model).recordType.name): \(error)")
            }
        }
        return Dataset(kept, diagnostics: diagnostics)
    }

    /// The dataset with only the `Model`s for which `isIncluded` returns true; models of other
    /// types stay. For tests a `Predicate` cannot express.
    public func filter<Model>(_ type: Model.Type, _ isIncluded: (Model) throws -> Bool) rethrows -> Dataset {
        var kept: [any CollectionModel] = []
        for model in models {
            if let typed = model as? Model, try !isIncluded(typed) { continue }
            kept.append(model)
        }
        return Dataset(kept, diagnostics: diagnostics)
    }
}
