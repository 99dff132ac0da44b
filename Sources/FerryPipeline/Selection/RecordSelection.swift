import FerryCore
import Foundation

/// Which records and fields a conversion keeps (`--skip`, `--limit`, `--sample`, `--seed`,
/// `--select`; Docs/selection.md).
///
/// Counting is per collection, as Miller's `head -g` counts per group: `--limit 10` on a notes
/// dataset keeps the first ten wine notes and the first ten coffee notes; a single-collection or
/// schema-free input is one group. Records are counted as they leave the filter and the migration
/// (valid records at the output's version), in input order: `--skip N` drops the first N, then
/// `--limit N` keeps the next N, then `--sample N` keeps N of those drawn uniformly (reservoir
/// sampling, Algorithm R, with `SplitMix64` seeded from `--seed` and the collection's name), written
/// in input order. `--select` then keeps the listed fields of each record kept.
public struct RecordSelection: Sendable, Hashable {
    /// Records dropped at the start of each collection.
    public var skip = 0
    /// Records kept of each collection after the skipped ones; nil keeps all.
    public var limit: Int?
    /// Records drawn at random from each collection (after skip and limit); nil draws none.
    public var sample: Int?
    /// The sample's seed: the same seed, input and options give the same records.
    public var seed: UInt64 = 0
    /// The fields kept (`--select`); empty keeps every field.
    public var fields: [FieldSelector] = []
    /// True when the reading ends once the selection is full (`ferry head`): every collection the
    /// input may still hold records of has its `limit` records, so no record read after that
    /// would be kept. The records after the stop are not read, so neither are their problems
    /// reported; checks that need the whole input (references to records not read, a bundle's
    /// manifest counts and media) are not made. Without a `limit`, or with a `sample`, the
    /// selection is never full. False: the whole input is read and checked (`convert --limit`).
    public var stopsWhenFull = false

    public init(skip: Int = 0, limit: Int? = nil, sample: Int? = nil, seed: UInt64 = 0, fields: [FieldSelector] = [],
                stopsWhenFull: Bool = false) {
        self.skip = skip
        self.limit = limit
        self.sample = sample
        self.seed = seed
        self.fields = fields
        self.stopsWhenFull = stopsWhenFull
    }

    /// True when the selection keeps every record (it may still cut fields).
    public var keepsEveryRecord: Bool { skip == 0 && limit == nil && sample == nil }
}

/// One `--select` field: a path into each record, relative to the record.
///
/// Written as a JSON Pointer (`/look/tint`, `/tastes/*/value`; `~0` and `~1` escape `~` and `/` as
/// RFC 6901 says) or as a dotted name (`look.tint`, `tastes.value`; list positions 1-based, as CSV
/// headers name columns, so `tastes.1.value` is `/tastes/0/value`). `*` stands for every item of a
/// list (and every member of an object); a name met at a list applies to each of its items.
public struct FieldSelector: Sendable, Hashable, CustomStringConvertible {
    /// The path's tokens; `*` matches any item or member, decimal tokens pick a list item (0-based).
    public var tokens: [String]

    public init(tokens: [String]) { self.tokens = tokens }

    /// Parses one selector as given on the command line.
    /// - Throws: `FerryError(.usage)` for an empty selector, an empty token
    ///   (`/a//b`, `a..b`), a bad `~` escape, or a dotted list position below 1.
    public init(parsing text: String) throws {
        func refuse(_ why: String) -> FerryError {
            FerryError(.usage, "--select: '\(text)' \(why); give JSON Pointers (/look/tint) or dotted names (look.tint), separated by commas")
        }
        guard !text.isEmpty else { throw refuse("is empty") }
        var tokens: [String]
        if text.hasPrefix("/") {
            let parts = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            tokens = []
            for part in parts {
                var token = ""
                var iterator = part.makeIterator()
                while let character = iterator.next() {
                    guard character == "~" else {
                        token.append(character)
                        continue
                    }
                    switch iterator.next() {
                    case "0"?: token.append("~")
                    case "1"?: token.append("/")
                    default: throw refuse("has a '~' that is neither ~0 nor ~1 (RFC 6901)")
                    }
                }
                tokens.append(token)
            }
        } else {
            tokens = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            for (index, token) in tokens.enumerated() {
                guard let position = Int(token) else { continue }
                guard position >= 1 else { throw refuse("names list position \(token); dotted positions count from 1") }
                tokens[index] = String(position - 1)
            }
        }
        if tokens.contains("") { throw refuse("has an empty field name") }
        self.tokens = tokens
    }

    /// Parses a comma-separated list (`--select title,/look/tint`), in order, duplicates dropped.
    /// - Throws: what `init(parsing:)` throws, for the first bad selector.
    public static func list(_ text: String) throws -> [FieldSelector] {
        var result: [FieldSelector] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let selector = try FieldSelector(parsing: part.trimmingCharacters(in: .whitespaces))
            if !result.contains(selector) { result.append(selector) }
        }
        return result
    }

    /// The JSON Pointer form (`/tastes/*/value`).
    public var description: String { JSONPointer(tokens: tokens).description }
}
