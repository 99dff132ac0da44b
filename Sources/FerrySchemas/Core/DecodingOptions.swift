import Foundation

/// What typed decoders need to know beyond the value itself.
public struct DecodingOptions: Sendable {
    /// How numbers in instant fields are read: `--date-strategy`, else `deferredToDate`.
    public var dateStrategy: DateStrategy {
        get { explicitDateStrategy ?? .deferredToDate }
        set { explicitDateStrategy = newValue }
    }
    /// The strategy the user named, nil when none was: a Firestore Timestamp field then reads a
    /// bare number as `secondsSince1970` (SCHEMAS.md "Numeric dates").
    public var explicitDateStrategy: DateStrategy?
    /// True for CSV and XML input: `"4.5"` in a number field is a number, `"true"` a Boolean, an
    /// absent required string whose CSV column is there (its cell empty) is `""` (SCHEMAS.md
    /// "Formats: CSV"; with no column or element it is missing, as in JSON).
    public var scalarsAsText: Bool
    /// The time zone of calendar-day rules (`--time-zone`; pet-story `birthDate`).
    public var timeZone: TimeZone
    /// The time zone's name as the user gave it (Foundation on Linux calls UTC "GMT").
    public var timeZoneName: String

    public init(
        dateStrategy: DateStrategy? = nil, scalarsAsText: Bool = false, timeZone: TimeZone? = nil,
        timeZoneName: String? = nil
    ) {
        self.explicitDateStrategy = dateStrategy
        self.scalarsAsText = scalarsAsText
        self.timeZone = timeZone ?? TimeZone(secondsFromGMT: 0) ?? TimeZone.current
        self.timeZoneName = timeZoneName ?? (timeZone == nil ? "UTC" : self.timeZone.identifier)
    }
}
