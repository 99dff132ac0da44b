import Foundation

/// What typed decoders need to know beyond the value itself.
public struct DecodingOptions: Sendable {
    /// How numbers in instant fields are read (`--date-strategy`).
    public var dateStrategy: DateStrategy
    /// True for CSV input: `"4.5"` in a number field is a number, `"true"` a Boolean, an absent
    /// required string is `""` (SCHEMAS.md "Formats: CSV").
    public var scalarsAsText: Bool
    /// The time zone of calendar-day rules (`--time-zone`; pet-story `birthDate`).
    public var timeZone: TimeZone

    public init(dateStrategy: DateStrategy = .deferredToDate, scalarsAsText: Bool = false, timeZone: TimeZone? = nil) {
        self.dateStrategy = dateStrategy
        self.scalarsAsText = scalarsAsText
        self.timeZone = timeZone ?? TimeZone(secondsFromGMT: 0) ?? TimeZone.current
    }
}
