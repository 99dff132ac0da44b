import FerryCore
import Testing

/// The one copy of the calendar arithmetic: day counts against fixed dates (Python's `datetime`
/// gives the same numbers), a walk over every day of the years 0001...9999, and the RFC 3339
/// field reader and writer built on it.
@Suite struct CivilDateTests {
    @Test(arguments: [
        (1970, 1, 1, Int64(0)), (1969, 12, 31, -1), (1, 1, 1, -719_162), (9999, 12, 31, 2_932_896),
        (2024, 2, 29, 19_782), (2000, 2, 29, 11_016), (1900, 3, 1, -25_508), (1600, 2, 29, -135_081),
        (0, 1, 1, -719_528),
    ])
    func dayCounts(year: Int, month: Int, day: Int, days: Int64) {
        #expect(CivilDate.days(year: year, month: month, day: day) == days)
        let civil = CivilDate.civil(fromDays: days)
        #expect([civil.year, civil.month, civil.day] == [year, month, day])
    }

    /// Every day from 0001-01-01 to 9999-12-31 follows the one before it in the calendar, and
    /// converts back to its own count.
    @Test func everyDayOfYears1To9999RoundTrips() {
        var (year, month, day) = (1, 1, 1)
        var leapDays = 0
        for days in CivilDate.days(year: 1, month: 1, day: 1)...CivilDate.days(year: 9999, month: 12, day: 31) {
            let civil = CivilDate.civil(fromDays: days)
            guard civil.year == year, civil.month == month, civil.day == day,
                CivilDate.days(year: year, month: month, day: day) == days
            else {
                Issue.record("day \(days): \(civil) is not \(year)-\(month)-\(day)")
                return
            }
            if month == 2, day == 29 { leapDays += 1 }
            day += 1
            if day > CivilDate.daysIn(month: month, year: year) {
                (day, month) = (1, month + 1)
                if month > 12 { (month, year) = (1, year + 1) }
            }
        }
        #expect([year, month, day] == [10000, 1, 1])
        // 2499 years divisible by 4, less 99 centuries, plus 24 divisible by 400.
        #expect(leapDays == 2424)
    }

    @Test func leapYearsAndMonthLengths() {
        #expect([1900, 2000, 2023, 2024, 2100, 2400].map(CivilDate.isLeap) == [false, true, false, true, false, true])
        #expect((1...12).map { CivilDate.daysIn(month: $0, year: 2024) } == [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        #expect(CivilDate.daysIn(month: 2, year: 2023) == 28)
        #expect(CivilDate.exists(year: 2024, month: 2, day: 29))
        #expect(!CivilDate.exists(year: 2023, month: 2, day: 29))
        #expect(!CivilDate.exists(year: 2024, month: 13, day: 1))
        #expect(!CivilDate.exists(year: 2024, month: 4, day: 31))
        #expect(!CivilDate.exists(year: 2024, month: 1, day: 0))
    }

    @Test func floorDivisionRoundsTowardThePast() {
        #expect(CivilDate.floorDivide(-1, 86_400) == (-1, 86_399))
        #expect(CivilDate.floorDivide(-86_400, 86_400) == (-1, 0))
        #expect(CivilDate.floorDivide(86_399, 86_400) == (0, 86_399))
        #expect(CivilDate.floorDivide(-1001, 1000) == (-2, 999))
    }
}

@Suite struct RFC3339FieldsTests {
    private func parse(_ text: String, spaceSeparator: Bool = true) -> Result<RFC3339Fields, RFC3339Fields.Failure> {
        var text = text
        return text.withUTF8 { RFC3339Fields.parse(UnsafeRawBufferPointer($0), spaceSeparator: spaceSeparator) }
    }

    @Test func readsEveryField() throws {
        let fields = try parse("2024-05-01T18:30:59.1234567899+09:30").get()
        #expect(fields == RFC3339Fields(
            year: 2024, month: 5, day: 1, hour: 18, minute: 30, second: 59, nanoseconds: 123_456_789,
            offsetSeconds: 34_200))
        #expect(fields.epochSeconds == 1_714_554_059)
        #expect(try parse("1969-12-31t23:59:59z").get().epochSeconds == -1)
        #expect(try parse("2024-05-01 09:30:00.25-01:00").get().nanoseconds == 250_000_000)
        #expect(try parse("2024-05-01 09:30:00.25-01:00").get().offsetSeconds == -3600)
    }

    @Test(arguments: [
        ("2024-05-01", RFC3339Fields.Failure.missingOffset), ("2024-05-01T09:30:00", .missingOffset),
        ("2024-05-01T09:30:00.5", .missingOffset), ("2024-05-01X09:30:00Z", .malformed),
        ("2024-05-01T09:30:00.Z", .malformed), ("2024-05-01T09:30Z", .malformed), ("2024-5-01T09:30:00Z", .malformed),
        ("2024-05-01T09:30:00Zjunk", .malformed), ("2024-05-01T09:30:00+0900", .malformed),
        ("2024-05-01T09:30:00+24:00", .invalidOffset), ("2024-05-01T09:30:00-01:60", .invalidOffset),
    ])
    func refuses(text: String, failure: RFC3339Fields.Failure) {
        #expect(parse(text) == .failure(failure))
    }

    @Test func spaceSeparatorOnlyWhenAllowed() {
        #expect(parse("2024-05-01 09:30:00Z", spaceSeparator: false) == .failure(.malformed))
        #expect((try? parse("2024-05-01 09:30:00Z", spaceSeparator: true).get()) != nil)
    }

    @Test func dateAndTimeChecksAreTheCallers() throws {
        let february30 = try parse("2023-02-30T00:00:00Z").get()
        #expect(!february30.hasValidDateAndTime(allowingLeapSecond: true))
        let leapSecond = try parse("2016-12-31T23:59:60Z").get()
        #expect(!leapSecond.hasValidDateAndTime(allowingLeapSecond: false))
        #expect(leapSecond.hasValidDateAndTime(allowingLeapSecond: true))
        #expect(leapSecond.epochSeconds == 1_483_228_800)
        #expect(!(try parse("2024-05-01T24:00:00Z").get()).hasValidDateAndTime(allowingLeapSecond: true))
    }

    @Test func fullDate() {
        func read(_ text: String) -> [Int]? {
            var text = text
            return text.withUTF8 { RFC3339Fields.parseFullDate(UnsafeRawBufferPointer($0)) }.map { [$0.year, $0.month, $0.day] }
        }
        #expect(read("2024-02-29") == [2024, 2, 29])
        #expect(read("2023-02-30") == [2023, 2, 30])
        #expect(read("2024-02-29T") == nil)
        #expect(read("2024/02/29") == nil)
        #expect(read("20x4-02-29") == nil)
    }

    @Test(arguments: [
        (Int64(0), 0, "1970-01-01T00:00:00Z"), (-1, 0, "1969-12-31T23:59:59Z"), (1_714_555_800, 250, "2024-05-01T09:30:00.250Z"),
        (1_714_555_800, 7, "2024-05-01T09:30:00.007Z"), (-62_135_596_800, 0, "0001-01-01T00:00:00Z"),
        (253_402_300_799, 999, "9999-12-31T23:59:59.999Z"), (951_782_400, 0, "2000-02-29T00:00:00Z"),
    ])
    func writesTimestamps(seconds: Int64, milliseconds: Int, text: String) throws {
        #expect(RFC3339Fields.timestamp(seconds: seconds, milliseconds: milliseconds) == text)
        let fields = try parse(text).get()
        #expect(fields.epochSeconds == seconds)
        #expect(fields.nanoseconds == Int32(milliseconds) * 1_000_000)
    }
}
