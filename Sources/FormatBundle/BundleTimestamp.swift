import FerryCore

/// The instant a bundle writer needs: the member modification time derived from the manifest's
/// `createdAt`.
public enum BundleTimestamp {
    /// The whole seconds since 1970 of an RFC 3339 instant (`2024-05-01T09:30:00.250Z`,
    /// `2024-05-01T18:30:00+09:00`), fractions cut; nil when the text is not RFC 3339 with an
    /// offset or names a date or time that does not exist (a leap second `:60` is accepted and
    /// counts as the next minute's 00).
    public static func epochSeconds(_ text: String) -> Int64? {
        var text = text
        let parsed = text.withUTF8 { RFC3339Fields.parse(UnsafeRawBufferPointer($0), spaceSeparator: true) }
        guard case .success(let fields) = parsed, fields.hasValidDateAndTime(allowingLeapSecond: true) else {
            return nil
        }
        return fields.epochSeconds
    }
}
