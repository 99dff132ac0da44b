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
    public var timeZone: TimeZone {
        get { zone.timeZone }
        set { zone = InternedTimeZone.holding(newValue) }
    }
    /// `timeZone`, not counted: `InternedTimeZone` keeps it for the life of the process. Every
    /// record's context copies the options, on every thread of `--jobs`; a count there would move
    /// the time zone's cache line between the cores for each record.
    private unowned(unsafe) var zone: InternedTimeZone
    /// The time zone's name as the user gave it (Foundation on Linux calls UTC "GMT").
    public var timeZoneName: String

    public init(
        dateStrategy: DateStrategy? = nil, scalarsAsText: Bool = false, timeZone: TimeZone? = nil,
        timeZoneName: String? = nil
    ) {
        self.explicitDateStrategy = dateStrategy
        self.scalarsAsText = scalarsAsText
        let zone = timeZone ?? TimeZone(secondsFromGMT: 0) ?? TimeZone.current
        self.zone = InternedTimeZone.holding(zone)
        self.timeZoneName = timeZoneName ?? (timeZone == nil ? "UTC" : zone.identifier)
    }
}

/// One object per distinct time zone a process decodes with, never freed (a run uses one or two),
/// so that `DecodingOptions` can refer to it without counting.
private final class InternedTimeZone: @unchecked Sendable {
    let timeZone: TimeZone

    private init(_ timeZone: TimeZone) { self.timeZone = timeZone }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var interned: [TimeZone: InternedTimeZone] = [:]

    /// The holder of `timeZone`, made the first time it is asked for.
    static func holding(_ timeZone: TimeZone) -> InternedTimeZone {
        lock.lock()
        defer { lock.unlock() }
        if let holder = interned[timeZone] { return holder }
        let holder = InternedTimeZone(timeZone)
        interned[timeZone] = holder
        return holder
    }
}
