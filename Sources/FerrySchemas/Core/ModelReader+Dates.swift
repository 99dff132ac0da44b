import FerryCore

/// The reads of dates, times and binary data (RFC 3339 instants, calendar days, Firestore
/// timestamps, Base64): `@inlinable` as the other reads, for the same reason.
extension ModelReader {
    /// A required instant field, cut to milliseconds (`lossy-precision` warning when finer).
    @inlinable
    public mutating func instant(_ name: String) -> Instant {
        optionalInstant(name) ?? Instant.epoch
    }

    /// An optional instant field.
    @inlinable
    public mutating func optionalInstant(_ name: String) -> Instant? {
        let (_, item) = locate(name)
        guard let item else { return nil }
        // An RFC 3339 string to the millisecond (never decimal text, so CSV's numeric dates do not apply).
        if let instant = _cursor.plainInstant(item) { return instant }
        if let text = _cursor.text(of: item), case .success(let instant) = Instant.parse(text),
           instant.nanoseconds % 1_000_000 == 0
        {
            return instant
        }
        let fieldContext = context.appending(name)
        guard let instant = FieldReader.instant(_cursor.value(of: item), at: fieldContext, into: &diagnostics) else { return nil }
        return FieldReader.cutToMilliseconds(instant, at: fieldContext, into: &diagnostics)
    }

    /// A required calendar-day field (`YYYY-MM-DD`).
    @inlinable
    public mutating func day(_ name: String) -> CalendarDay {
        let (_, item) = locate(name)
        guard let item else { return CalendarDay.placeholder }
        if let text = _cursor.text(of: item), let day = CalendarDay(text) { return day }
        return FieldReader.day(_cursor.value(of: item), at: context.appending(name), into: &diagnostics) ?? CalendarDay.placeholder
    }

    /// A required field holding an instant or a day (V1 pet-story `since`, `birthDate`).
    @inlinable
    public mutating func instantOrDay(_ name: String) -> InstantOrDay {
        let (_, item) = locate(name)
        guard let item else { return .day(CalendarDay.placeholder) }
        // A day, else an RFC 3339 instant to the millisecond (as `FieldReader.instantOrDay` tries them).
        if let text = _cursor.text(of: item) {
            if let day = CalendarDay(text) { return .day(day) }
            if case .success(let instant) = Instant.parse(text), instant.nanoseconds % 1_000_000 == 0 { return .instant(instant) }
        }
        return FieldReader.instantOrDay(_cursor.value(of: item), at: context.appending(name), into: &diagnostics)
    }

    /// An optional base64 field.
    @inlinable
    public mutating func data(_ name: String) -> Base64Data? {
        let (_, item) = locate(name)
        guard let item else { return nil }
        if let text = _cursor.text(of: item), let data = Base64Data(base64: text) { return data }
        return FieldReader.data(_cursor.value(of: item), at: context.appending(name), into: &diagnostics)
    }

    /// A required Firestore Timestamp field.
    @inlinable
    public mutating func timestamp(_ name: String) -> FirestoreTimestamp? {
        let (_, item) = locate(name)
        guard let item else { return nil }
        if let plain = _cursor.plainTimestamp(item) { return plain }
        return FieldReader.timestamp(_cursor.value(of: item), in: _table.name, at: context.appending(name), into: &diagnostics)
    }
}
