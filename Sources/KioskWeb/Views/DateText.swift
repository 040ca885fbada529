import Foundation

/// Dates as pages show them: machine-readable in `datetime` (the script re-renders them in the
/// reader's locale and time zone), with a neutral UTC text for readers without script.
enum DateText {
    static func node(_ date: Date, style: Style = .dateTime) -> Node {
        el("time", Attribute("datetime", iso(date)), .data("format", style.rawValue)) { fallback(date, style: style) }
    }

    enum Style: String {
        case dateTime = "datetime"
        case date
    }

    static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func fallback(_ date: Date, style: Style) -> String {
        var format = Date.FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .current)
            .day().month(.abbreviated).year()
        if style == .dateTime { format = format.hour(.twoDigits(amPM: .omitted)).minute(.twoDigits) }
        return date.formatted(format.locale(Locale(identifier: "en_GB"))) + (style == .dateTime ? " UTC" : "")
    }
}
