import FerryCore

/// Thrown by a conversion's own record handling to end the reading once its selection is full
/// (`RecordSelection.stopsWhenFull`): it unwinds the reading loop and a batched run
/// (`ParallelConversion`, whose workers it stops), and the conversion goes on as after the last
/// record, without the checks that need the whole input. Never leaves the conversion.
struct SelectionFull: Error {}

extension Converter {
    /// The collections whose records a full selection must have had its count of, or nil when
    /// records of any collection may still come (the selection is then full only at a limit of 0).
    ///
    /// What the input tells (`DatasetSource.collectionsStillToCome`: a bundle's manifest, a CSV
    /// file of one collection) narrows the domain's collections; without it every collection of
    /// the domain may still come, and for schema-free records any. Records a run holds back for
    /// their references (`held`, under `--lenient`) are not counted yet: nothing is then known.
    static func awaitedCollections(source: DatasetSource, plan: DatasetPlan, read: KeyedCounter, holdsRecords: Bool) -> Set<String>? {
        guard !holdsRecords else { return nil }
        let domain = plan.processor == nil ? nil : Set(plan.collections)
        guard var coming = source.collectionsStillToCome(read: read) else { return domain }
        // Schema-free records of a one-collection file name none (`take` in `convert`).
        if plan.processor == nil, let plain = source.derivedCollection, coming.remove(plain) != nil { coming.insert("") }
        guard let domain else { return coming }
        // The input names its collections as read: the output's names only when no migration renames them.
        guard plan.sourceVersion == plan.targetVersion else { return domain }
        return coming.intersection(domain)
    }
}
