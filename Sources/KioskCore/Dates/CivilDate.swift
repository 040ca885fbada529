/// A UTC instant as calendar fields, and back: the proleptic Gregorian arithmetic (Howard
/// Hinnant's algorithms) that parsing and writing dates both need, with no calendar or time-zone
/// database to vary between machines.
public struct CivilDate: Sendable, Hashable {
    public var year: Int
    /// 1–12.
    public var month: Int
    /// 1–31.
    public var day: Int
    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int
    /// 0–86,399.
    public var secondOfDay: Int

    /// The calendar fields of `unixSeconds` (whole seconds since 1970-01-01T00:00:00Z).
    public init(unixSeconds seconds: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        secondOfDay = seconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday
    }

    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// How many days `month` (1–12) of `year` has.
    public static func length(ofMonth month: Int, in year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a date (days_from_civil).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        // Counting years from March puts the leap day last, so month lengths follow a fixed pattern.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
