import Foundation

/// The publication dates a `date:` term accepts.
public enum QueryDateRange: Sendable, Hashable, CustomStringConvertible {
    /// Published at most this long before now (`date:P7D`). Entries dated after now count as
    /// recent: a feed's clock running ahead should not hide its newest entries.
    case last(QueryDuration)
    /// Published on a day from `from` through `through`, both whole days in UTC
    /// (`date:2026-11-01/2026-11-20`); a nil end leaves that side open.
    case days(from: QueryDay?, through: QueryDay?)

    /// Reads the value of a `date:` term, reporting faults at `position`.
    init(parsing text: String, position: Int) throws(QueryError) {
        if let first = text.first, first == "P" || first == "p" {
            guard let duration = QueryDuration(iso8601: text) else {
                throw QueryError(position: position, reason: .invalidDate)
            }
            self = .last(duration)
            return
        }
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let from: QueryDay?
        let through: QueryDay?
        if parts.count == 1 {
            // A single day is the range of that day alone.
            guard let day = QueryDay(iso8601: parts[0]) else { throw QueryError(position: position, reason: .invalidDate) }
            from = day
            through = day
        } else {
            guard !(parts[0].isEmpty && parts[1].isEmpty) else {
                throw QueryError(position: position, reason: .invalidDate)
            }
            from = parts[0].isEmpty ? nil : QueryDay(iso8601: parts[0])
            through = parts[1].isEmpty ? nil : QueryDay(iso8601: parts[1])
            guard parts[0].isEmpty || from != nil, parts[1].isEmpty || through != nil else {
                throw QueryError(position: position, reason: .invalidDate)
            }
        }
        if let from, let through, through < from {
            throw QueryError(position: position, reason: .reversedDateRange)
        }
        self = .days(from: from, through: through)
    }

    /// Whether `date` falls in the range, relative durations counting back from `now`.
    public func contains(_ date: Date, now: Date) -> Bool {
        switch self {
        case .last(let duration):
            return date >= duration.start(before: now)
        case .days(let from, let through):
            if let from, date < from.start { return false }
            if let through, date >= through.end { return false }
            return true
        }
    }

    public var description: String {
        switch self {
        case .last(let duration):
            return duration.description
        case .days(let from?, let through?) where from == through:
            return from.description
        case .days(let from, let through):
            return (from?.description ?? "") + "/" + (through?.description ?? "")
        }
    }
}

/// An ISO 8601 duration of whole units, as `date:` takes it: `P7D`, `P2W`, `P1M`, `P1Y`,
/// `PT12H`, `PT30M`, or a combination such as `P1DT12H`.
public struct QueryDuration: Sendable, Hashable, CustomStringConvertible {
    public private(set) var years = 0
    public private(set) var months = 0
    public private(set) var weeks = 0
    public private(set) var days = 0
    public private(set) var hours = 0
    public private(set) var minutes = 0
    public private(set) var seconds = 0

    /// Each value is clamped to 0...999,999, as a query can write them.
    public init(years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0, seconds: Int = 0) {
        func clamped(_ value: Int) -> Int { min(max(value, 0), Self.maximumValue) }
        self.years = clamped(years)
        self.months = clamped(months)
        self.weeks = clamped(weeks)
        self.days = clamped(days)
        self.hours = clamped(hours)
        self.minutes = clamped(minutes)
        self.seconds = clamped(seconds)
    }

    /// Each number is capped at six digits, which is far more than a reader's history and keeps
    /// the arithmetic clear of overflow.
    private static let maximumDigits = 6
    private static let maximumValue = 999_999

    /// Reads `PnYnMnWnDTnHnMnS` (upper or lower case), units in that order, each at most once.
    init?(iso8601 text: String) {
        var scalars = Array(text.uppercased().unicodeScalars)[...]
        guard scalars.popFirst() == "P", !scalars.isEmpty else { return nil }
        var duration = QueryDuration()
        var inTime = false
        var sawTimeUnit = false
        // The units still allowed, in order; "M" means months before T and minutes after it.
        var dateUnits: [Unicode.Scalar] = ["Y", "M", "W", "D"]
        var timeUnits: [Unicode.Scalar] = ["H", "M", "S"]
        while let next = scalars.first {
            if next == "T" {
                guard !inTime else { return nil }
                inTime = true
                scalars.removeFirst()
                continue
            }
            var number = BoundedNumber()
            var digits = 0
            while let digit = scalars.first, ("0"..."9").contains(digit) {
                guard digits < Self.maximumDigits else { return nil }
                number.append(Int(digit.value) - 48)
                digits += 1
                scalars.removeFirst()
            }
            let value = number.value
            guard digits > 0, let unit = scalars.popFirst() else { return nil }
            if inTime {
                guard let index = timeUnits.firstIndex(of: unit) else { return nil }
                timeUnits.removeSubrange(...index)
                sawTimeUnit = true
                switch unit {
                case "H": duration.hours = value
                case "M": duration.minutes = value
                default: duration.seconds = value
                }
            } else {
                guard let index = dateUnits.firstIndex(of: unit) else { return nil }
                dateUnits.removeSubrange(...index)
                switch unit {
                case "Y": duration.years = value
                case "M": duration.months = value
                case "W": duration.weeks = value
                default: duration.days = value
                }
            }
        }
        guard !inTime || sawTimeUnit else { return nil }
        self = duration
    }

    public var description: String {
        var text = "P"
        for (value, unit) in [(years, "Y"), (months, "M"), (weeks, "W"), (days, "D")] where value != 0 {
            text += "\(value)\(unit)"
        }
        let time = [(hours, "H"), (minutes, "M"), (seconds, "S")].filter { $0.0 != 0 }
        if !time.isEmpty {
            text += "T" + time.map { "\($0.0)\($0.1)" }.joined()
        }
        // A zero duration still needs one unit to be valid ISO 8601.
        return text == "P" ? "P0D" : text
    }

    /// `now` moved back by this duration. Years and months step back on the UTC calendar (a
    /// month before 31 March is 28 or 29 February); the other units are fixed lengths of time.
    public func start(before now: Date) -> Date {
        let seconds = now.timeIntervalSince1970
        // Beyond about 30 million years from 1970 the day count would not fit the arithmetic.
        guard seconds.magnitude < 1e15 else { return now }
        let day = (seconds / 86_400).rounded(.down)
        let timeOfDay = seconds - day * 86_400
        var civil = CivilDate(unixSeconds: Int(day) * 86_400)
        let monthIndex = civil.year * 12 + (civil.month - 1) - years * 12 - months
        civil.year = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
        civil.month = monthIndex - civil.year * 12 + 1
        civil.day = min(civil.day, CivilDate.length(ofMonth: civil.month, in: civil.year))
        let movedDay = Double(CivilDate.days(year: civil.year, month: civil.month, day: civil.day))
        let fixed = Double((weeks * 7 + days) * 86_400 + hours * 3_600 + minutes * 60 + self.seconds)
        return Date(timeIntervalSince1970: movedDay * 86_400 + timeOfDay - fixed)
    }
}

/// A calendar day, as `date:` ranges name them (`2026-11-01`); days run midnight to midnight UTC.
public struct QueryDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Nil unless the day exists (years 1–9999, as four digits allow).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...CivilDate.length(ofMonth: month, in: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads `YYYY-MM-DD` exactly.
    init?(iso8601 text: Substring) {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
            fields.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Midnight UTC at the start of the day.
    public var start: Date {
        Date(timeIntervalSince1970: Double(CivilDate.days(year: year, month: month, day: day)) * 86_400)
    }

    /// Midnight UTC at the start of the next day: the range includes the whole day.
    public var end: Date { start.addingTimeInterval(86_400) }

    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    public static func < (lhs: QueryDay, rhs: QueryDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
