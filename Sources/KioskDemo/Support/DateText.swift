import Foundation

/// Formats dates as HTTP (RFC 1123), RSS (RFC 822) and NewsAPI (ISO 8601) write them, in UTC,
/// with plain arithmetic: no formatter, locale or time-zone database to vary between machines.
enum DateText {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sat, 19 Jan 2019 08:47:23 GMT`, for `Last-Modified`.
    static func rfc1123(_ date: Date) -> String {
        let parts = Parts(date)
        return "\(weekdays[parts.weekday]), \(two(parts.day)) \(months[parts.month - 1]) \(parts.year) \(parts.clock) GMT"
    }

    /// `Sat, 19 Jan 2019 08:47:23 +0000`, for RSS `pubDate` and `lastBuildDate`.
    static func rfc822(_ date: Date) -> String {
        let parts = Parts(date)
        return "\(weekdays[parts.weekday]), \(two(parts.day)) \(months[parts.month - 1]) \(parts.year) \(parts.clock) +0000"
    }

    /// `2021-03-19T18:08:47Z`, for NewsAPI `publishedAt`.
    static func iso8601(_ date: Date) -> String {
        let parts = Parts(date)
        return "\(parts.year)-\(two(parts.month))-\(two(parts.day))T\(parts.clock)Z"
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Calendar fields of a UTC instant, whole seconds.
    private struct Parts {
        var year: Int, month: Int, day: Int, weekday: Int, clock: String

        init(_ date: Date) {
            let seconds = Int(date.timeIntervalSince1970.rounded(.down))
            let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
            let secondOfDay = seconds - days * 86_400
            // Howard Hinnant's days-to-civil: exact for the proleptic Gregorian calendar.
            let shifted = days + 719_468
            let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
            let dayOfEra = shifted - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let monthIndex = (5 * dayOfYear + 2) / 153
            day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
            month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
            year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
            weekday = ((days % 7) + 7) % 7
            clock = "\(DateText.two(secondOfDay / 3600)):\(DateText.two(secondOfDay / 60 % 60)):\(DateText.two(secondOfDay % 60))"
        }
    }
}
