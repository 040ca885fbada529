import Foundation
import KioskCore

/// Formats dates as HTTP (RFC 1123), RSS (RFC 822) and NewsAPI (ISO 8601) write them, in UTC,
/// with plain arithmetic: no formatter, locale or time-zone database to vary between machines.
enum DateText {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
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

    /// `19 January 2019`, as a page prints its date.
    static func long(_ date: Date) -> String {
        let parts = Parts(date)
        return "\(parts.day) \(fullMonths[parts.month - 1]) \(parts.year)"
    }

    private static let fullMonths = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    private static func two(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Calendar fields of a UTC instant, whole seconds.
    private struct Parts {
        var year: Int, month: Int, day: Int, weekday: Int, clock: String

        init(_ date: Date) {
            let civil = CivilDate(unixSeconds: Int(date.timeIntervalSince1970.rounded(.down)))
            (year, month, day, weekday) = (civil.year, civil.month, civil.day, civil.weekday)
            let second = civil.secondOfDay
            clock = "\(DateText.two(second / 3600)):\(DateText.two(second / 60 % 60)):\(DateText.two(second % 60))"
        }
    }
}
