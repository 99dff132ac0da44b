import FerryCore

/// Decides which of an input's media files a bundle output carries, and says why each file left
/// out is left out.
///
/// A media file goes with the records that reference it (`MediaReferences`: the paths a record
/// names and the files its id leads to, `DomainDefinition.mediaStems`, as `validate` counts
/// them): it is written when a written record references it. One that records read reference but
/// none written does (they had errors under `--lenient`, or `--where` or the selection left them
/// out) is left out, with one `media-left-out` note naming the first such record, so that the
/// output has no file `validate` calls an orphan. A file that no record read references was an
/// orphan in the input already: it is the user's data, carried over when the run writes the
/// whole dataset, and left out, as it always was, when `--where` or a selection picks records.
///
/// Only paths are held, each with the first record that referenced it: memory grows with the
/// number of media files, never with their bytes or the number of records.
final class OutputMedia {
    /// Where the run met a record it may leave out, or write with fewer fields than it read.
    enum Reason: CaseIterable {
        /// `--where` left the record out.
        case filtered
        /// `--lenient` left the record out for naming a record that is not written.
        case namesLeftOut
        /// The record reached `--skip`, `--limit` or `--sample` (it may have been kept).
        case offered
        /// The selection kept the record, before `--select` cut its fields.
        case chosen
    }

    private var byReason: [Reason: MediaReferences]

    /// Nil when there is nothing to decide: no media in the input.
    init?(media: [String: String]) {
        guard !media.isEmpty else { return nil }
        byReason = Dictionary(uniqueKeysWithValues: Reason.allCases.map { ($0, MediaReferences(media: media)) })
    }

    /// Notes the media `record` references as met for `reason`.
    func note(_ record: Record, _ reason: Reason) {
        byReason[reason]?.collect(record)
    }

    /// The media files to copy into the output, and a note for each left out because every
    /// record referencing it is left out.
    /// - Parameters:
    ///   - media: the input's media not written from the records (dataset-root paths to member paths).
    ///   - read: what the records read referenced; `written`: what the records written reference.
    ///   - carriesOrphans: whether files no record read referenced are carried over (the whole
    ///     dataset is written: no `--where`, no selection, the input read to its end).
    ///   - input: the input's name, for the notes' location.
    func plan(
        media: [String: String], read: MediaReferences, written: MediaReferences, carriesOrphans: Bool, input: String
    ) -> (copied: Set<String>, notes: [Diagnostic]) {
        var copied: Set<String> = []
        var notes: [Diagnostic] = []
        for (path, member) in media.sorted(by: { $0.key < $1.key }) {
            if written.referenced.contains(path) {
                copied.insert(path)
            } else if let referrer = read.firstReferrers[path] {
                notes.append(note(path: path, member: member, referrer: referrer, input: input))
            } else if carriesOrphans {
                copied.insert(path)
            }
        }
        return (copied, notes)
    }

    /// The note for a file no record written references; `referrer`: the first record read that did.
    private func note(path: String, member: String, referrer: MediaReferences.Referrer, input: String) -> Diagnostic {
        func note(_ named: MediaReferences.Referrer, _ why: String) -> Diagnostic {
            var location = SourceLocation(file: input, member: member)
            location.collection = named.collection
            location.recordID = named.id
            return .note(.mediaLeftOut, "media file left out of the output \(why)", at: location)
        }
        // Every record that referenced the file is left out: the one named is the first met for
        // the first reason that holds. One met for none of them was left out by --lenient, for
        // its errors or those of a record it names (the processor drops it then, unseen here).
        // The selection is asked last: a record offered to it may be left out after (a chosen one
        // naming a record left out, under --lenient).
        let reasons: [(Reason, String)] = [
            (.filtered, "with the record referencing it, which --where leaves out"),
            (.namesLeftOut, "with the record referencing it, which names a record that is not written"),
            (.chosen, "as the record referencing it is written without the field naming it (--select)"),
            (.offered, "with the record referencing it, which --skip, --limit or --sample leaves out"),
        ]
        for (reason, why) in reasons {
            if let named = byReason[reason]?.firstReferrers[path] { return note(named, why) }
        }
        return note(referrer, "with the record referencing it, which --lenient leaves out")
    }
}
