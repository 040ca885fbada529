import Foundation

/// Dates as internet formats write them (the reading side is `DateParser`), with plain arithmetic:
/// no formatter, locale or time-zone database to vary between machines. Years are kept to
/// 0001–9999, the range both formats can write.
public enum InternetDate {
    /// How an RFC 822 date names its zone.
    public enum Zone: Sendable, Equatable {
        /// `GMT`: HTTP's `Date` and `Last-Modified` (RFC 1123's IMF-fixdate), OPML's `dateCreated`.
        case gmt
        /// `+0000`, `-0500`: the local time at that offset from UTC, as RSS usually writes it.
        case offset(minutes: Int)
    }

    /// RFC 822 (with RFC 1123's four-digit year), e.g. `Sun, 24 Nov 2024 10:00:00 GMT` or
    /// `Sun, 24 Nov 2024 05:00:00 -0500`; whole seconds.
    public static func rfc822(_ date: Date, zone: Zone = .gmt) -> String {
        let minutes: Int
        switch zone {
        case .gmt: minutes = 0
        case .offset(let offset): minutes = offset
        }
        let local = CivilDate(unixSeconds: clampedSeconds(date, offsetMinutes: minutes))
        let zoneText: String
        switch zone {
        case .gmt: zoneText = "GMT"
        case .offset(let offset): zoneText = signed(offset, separator: "")
        }
        return "\(weekdays[local.weekday]), \(padded(local.day, 2)) \(months[local.month - 1]) \(padded(local.year, 4)) "
            + "\(clock(local.secondOfDay)) \(zoneText)"
    }

    /// RFC 3339 (ISO 8601's internet profile), e.g. `2021-03-19T18:08:47Z`,
    /// `2025-06-01T11:30:00+02:00` or, with `milliseconds`, `2025-06-01T09:30:00.250Z`; the local
    /// time at `offsetMinutes` from UTC.
    public static func rfc3339(_ date: Date, offsetMinutes: Int = 0, milliseconds: Int? = nil) -> String {
        let local = CivilDate(unixSeconds: clampedSeconds(date, offsetMinutes: offsetMinutes))
        var text = "\(padded(local.year, 4))-\(padded(local.month, 2))-\(padded(local.day, 2))T\(clock(local.secondOfDay))"
        if let milliseconds {
            text += "." + padded(min(max(milliseconds, 0), 999), 3)
        }
        return text + (offsetMinutes == 0 ? "Z" : signed(offsetMinutes, separator: ":"))
    }

    /// Whole seconds since 1970 of the local time at `offsetMinutes`, floored, within 0001-01-01
    /// and 9999-12-31 (NaN is 1970).
    private static func clampedSeconds(_ date: Date, offsetMinutes: Int) -> Int {
        let interval = date.timeIntervalSince1970 + Double(offsetMinutes) * 60
        let earliest = -62_135_596_800.0  // 0001-01-01T00:00:00Z
        let latest = 253_402_300_799.0  // 9999-12-31T23:59:59Z
        let clamped = interval.isNaN ? 0 : min(max(interval, earliest), latest)
        return Int(clamped.rounded(.down))
    }

    private static func clock(_ secondOfDay: Int) -> String {
        "\(padded(secondOfDay / 3600, 2)):\(padded(secondOfDay / 60 % 60, 2)):\(padded(secondOfDay % 60, 2))"
    }

    /// `+0530` or `+05:30`.
    private static func signed(_ minutes: Int, separator: String) -> String {
        let magnitude = abs(minutes)
        return (minutes < 0 ? "-" : "+") + padded(magnitude / 60, 2) + separator + padded(magnitude % 60, 2)
    }

    private static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
