import Foundation

/// Dates as internet formats write them, with no formatter or locale to vary between machines.
public enum InternetDate {
    /// RFC 822 in UTC (what OPML's `dateCreated` and HTTP's `Date` want), e.g. `Sun, 24 Nov 2024 10:00:00 GMT`,
    /// with no formatter or locale to vary between machines. Years are kept to 0001–9999.
    public static func rfc822(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let earliest = -62_135_596_800.0  // 0001-01-01T00:00:00Z
        let latest = 253_402_300_799.0  // 9999-12-31T23:59:59Z
        let clamped = interval.isNaN ? 0 : min(max(interval, earliest), latest)
        let civil = CivilDate(unixSeconds: Int(clamped.rounded(.down)))
        let weekday = weekdays[civil.weekday]
        let month = months[civil.month - 1]
        let hour = civil.secondOfDay / 3600
        let minute = civil.secondOfDay / 60 % 60
        let second = civil.secondOfDay % 60
        return "\(weekday), \(padded(civil.day, 2)) \(month) \(padded(civil.year, 4)) "
            + "\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2)) GMT"
    }

    private static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
