import Foundation

/// Turns the date strings feeds carry into `Date`s by scanning their UTF-8 bytes once.
///
/// Feeds write RFC 822 (RSS), RFC 3339 / W3C-DTF (Atom, Dublin Core) and many broken variants of
/// both. This reads what feedparser reads for English and numeric dates and returns nil rather than
/// guess. No formatter, calendar or time-zone database is touched: on Linux a `DateFormatter` costs
/// milliseconds per date, this a fraction of a microsecond, with no allocation.
public enum DateParser {
    /// Parses RFC 822/1123, ISO 8601/RFC 3339 and W3C-DTF dates; nil when unreadable.
    public static func parse(_ string: String) -> Date? {
        // A native String is already contiguous UTF-8, so this copies nothing.
        var string = string
        return string.withUTF8 { parse(utf8: $0) }
    }

    /// Parses the UTF-8 bytes of a date, as `parse(_:)` does, without making a `String` first.
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard let instant = instant(utf8: bytes) else { return nil }
        return Date(timeIntervalSince1970: Double(instant.seconds) + Double(instant.nanoseconds) / 1e9)
    }

    /// The parsed instant as whole Unix seconds plus nanoseconds (0..<1e9), or nil.
    static func instant(utf8 bytes: UnsafeBufferPointer<UInt8>) -> (seconds: Int, nanoseconds: Int)? {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        guard start < end else { return nil }

        if isDigit(bytes[start]) {
            var run = start
            while run < end, isDigit(bytes[run]) { run += 1 }
            if run - start >= 4 {
                if let fields = parseISO(bytes, from: start, to: end) { return fields.instant() }
                // Only a bare 4-digit year may still start an RFC-style date ("2019 Jan 19").
                guard run - start == 4 else { return nil }
            }
        }
        return parseRFC(bytes, from: start, to: end)?.instant()
    }
}

// MARK: - Broken-down time

/// The fields of a date as written, before validation and conversion to Unix seconds.
private struct Fields {
    var year = 0
    var month = 1
    var day = 1
    var hour = 0
    var minute = 0
    var second = 0
    var nanoseconds = 0
    /// Seconds east of UTC.
    var offset = 0

    /// Validates every field and converts; nil for impossible dates such as Feb 30 or 25:00.
    func instant() -> (seconds: Int, nanoseconds: Int)? {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, day <= CivilDate.length(ofMonth: month, in: year),
              (0...24).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        // 24:00 is the end of the day, which is only ever written as exactly 24:00:00.
        if hour == 24, minute != 0 || second != 0 || nanoseconds != 0 { return nil }
        // A leap second has no Unix time of its own; keep it inside the minute it belongs to.
        let second = min(self.second, 59)
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
        // Keep results inside years 1...9999 after the zone shift, as feedparser does.
        guard seconds >= -62_135_596_800, seconds <= 253_402_300_799 else { return nil }
        return (seconds, nanoseconds)
    }
}

// MARK: - Bytes

private func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

private func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isLetter(byte) }

private func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
}

/// A read position in the bytes of one date; `end` never exceeds the buffer.
private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int
    let end: Int

    /// The byte at `index + ahead`, or 0 past the end (0 never occurs in a date we accept).
    func peek(_ ahead: Int = 0) -> UInt8 {
        let at = index + ahead
        return at < end ? bytes[at] : 0
    }

    /// Reads a run of digits. The value saturates rather than overflowing; callers bound `count`,
    /// so a 40-digit number is rejected.
    mutating func digits() -> (value: Int, count: Int) {
        var number = BoundedNumber()
        while index < end, isDigit(bytes[index]) {
            number.append(Int(bytes[index] &- 0x30))
            index += 1
        }
        return (number.value, number.digitCount)
    }

    /// Reads the digits of a fraction of a second of any length, kept to nanoseconds; nil if none.
    mutating func fraction() -> Int? {
        var number = BoundedNumber()
        var count = 0
        while index < end, isDigit(bytes[index]) {
            if count < 9 { number.append(Int(bytes[index] &- 0x30)) }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        // Scale the (at most 9) digits read to nanoseconds: ".5" is 500,000,000.
        while number.digitCount < 9 { number.append(0) }
        return number.value
    }

    /// Skips a run of letters and returns the index after it, which ends the word.
    mutating func word() -> Int {
        while index < end, isLetter(bytes[index]) { index += 1 }
        return index
    }

    mutating func skipSpaces() {
        while index < end, isSpace(bytes[index]) { index += 1 }
    }

    /// Reads `h:mm[:ss[.f]]` at the cursor into `fields`; `separator` is ':' or '.' for "10.30".
    /// False when this is no clock time, e.g. "1:2:3:4".
    mutating func clock(separator: UInt8, fractionMarks: (UInt8, UInt8), into fields: inout Fields) -> Bool {
        let hour = digits()
        guard (1...2).contains(hour.count), peek() == separator, isDigit(peek(1)) else { return false }
        index += 1
        let minute = digits()
        guard (1...2).contains(minute.count) else { return false }
        fields.hour = hour.value
        fields.minute = minute.value
        fields.second = 0
        fields.nanoseconds = 0
        let minuteMark = peek()
        if minuteMark == fractionMarks.0 || minuteMark == fractionMarks.1, isDigit(peek(1)) {
            // ISO 8601 lets the last field carry the fraction: "09:42.5" is 09:42:30.
            index += 1
            guard let fraction = fraction() else { return false }
            let nanoseconds = fraction * 60
            fields.second = nanoseconds / 1_000_000_000
            fields.nanoseconds = nanoseconds % 1_000_000_000
            return !(peek() == separator && isDigit(peek(1)))
        }
        guard minuteMark == separator, isDigit(peek(1)) else { return true }
        index += 1
        let second = digits()
        guard (1...2).contains(second.count) else { return false }
        fields.second = second.value
        let mark = peek()
        if mark == fractionMarks.0 || mark == fractionMarks.1, isDigit(peek(1)) {
            index += 1
            guard let nanoseconds = fraction() else { return false }
            fields.nanoseconds = nanoseconds
        }
        // A fourth field means we misread the string; better nil than a wrong time.
        return !(peek() == separator && isDigit(peek(1)))
    }

    /// Reads a numeric offset at a '+' or '-': `+hhmm`, `+hh:mm`, `+hh`, `+h`. Seconds east of UTC.
    mutating func numericOffset() -> Int? {
        let negative = peek() == UInt8(ascii: "-")
        index += 1
        let first = digits()
        var hours = 0
        var minutes = 0
        switch first.count {
        case 4:
            hours = first.value / 100
            minutes = first.value % 100
        case 1, 2:
            hours = first.value
            if peek() == UInt8(ascii: ":") {
                index += 1
                let second = digits()
                guard second.count == 2 else { return nil }
                minutes = second.value
            }
        default:
            return nil
        }
        // Real offsets lie within ±14 h; ±18 h is Foundation's own bound.
        guard hours <= 18, minutes <= 59 else { return nil }
        let offset = hours * 3_600 + minutes * 60
        return negative ? -offset : offset
    }

    /// True when the letters in `start..<stop` spell `name`, ignoring case.
    func spells(_ name: StaticString, from start: Int, to stop: Int) -> Bool {
        guard stop - start == name.utf8CodeUnitCount else { return false }
        return name.withUTF8Buffer { chars in
            for k in 0..<chars.count where bytes[start + k] | 0x20 != chars[k] { return false }
            return true
        }
    }
}

// MARK: - Names

// Names are matched on their letters packed into an integer (ASCII codes, lowercased, first letter
// in the high byte), so a look-up is a `switch` over constants: no tables, no allocation.

/// Packs the lowercased letters in `start..<stop` (at most 4) into one integer; nil when longer.
private func packedWord(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to stop: Int) -> UInt32? {
    guard stop - start <= 4 else { return nil }
    var key: UInt32 = 0
    for k in start..<stop { key = key << 8 | UInt32(bytes[k] | 0x20) }
    return key
}

/// Month number (1...12) of the word in `start..<stop`, or nil. A word matches when it has at
/// least three letters and begins the English name: "Sep", "Sept", "SEPTEMBER" are September.
private func month(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to stop: Int) -> Int? {
    guard stop - start >= 3, let key = packedWord(bytes, from: start, to: start + 3) else { return nil }
    let number: Int
    let name: StaticString
    switch key {
    case 0x6A616E: (number, name) = (1, "january")
    case 0x666562: (number, name) = (2, "february")
    case 0x6D6172: (number, name) = (3, "march")
    case 0x617072: (number, name) = (4, "april")
    case 0x6D6179: (number, name) = (5, "may")
    case 0x6A756E: (number, name) = (6, "june")
    case 0x6A756C: (number, name) = (7, "july")
    case 0x617567: (number, name) = (8, "august")
    case 0x736570: (number, name) = (9, "september")
    case 0x6F6374: (number, name) = (10, "october")
    case 0x6E6F76: (number, name) = (11, "november")
    case 0x646563: (number, name) = (12, "december")
    default: return nil
    }
    guard stop - start <= name.utf8CodeUnitCount else { return nil }
    return name.withUTF8Buffer { letters in
        for k in 3..<(stop - start) where bytes[start + k] | 0x20 != letters[k] { return nil }
        return number
    }
}

/// Weekdays only mark a position, so like feedparser we go by the first three letters
/// ("Thurs", "Tues", even "Wedesday").
private func isWeekday(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to stop: Int) -> Bool {
    guard stop - start >= 3, let key = packedWord(bytes, from: start, to: start + 3) else { return false }
    switch key {
    case 0x6D6F6E, 0x747565, 0x776564, 0x746875, 0x667269, 0x736174, 0x73756E: return true // mon...sun
    default: return false
    }
}

/// Offset in seconds east of UTC of a zone word, or nil for words we do not trust. Only names
/// that mean one zone in practice: RFC 822's, feedparser's extras (AT/ET/CT/MT/PT, MET/MEST) and
/// common European, Australian and Asian ones. IST (India, Ireland or Israel) is left out on purpose.
private func zoneOffset(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to stop: Int) -> Int? {
    if stop - start == 1 {
        // RFC 822's military letters, with its signs (A = -1 h ... N = +1 h), which feedparser
        // follows too; J is not a zone.
        let letter = Int(bytes[start] | 0x20) - 0x61
        switch letter {
        case 0...8: return -(letter + 1) * 3_600
        case 10...12: return -letter * 3_600
        case 13...24: return (letter - 12) * 3_600
        case 25: return 0
        default: return nil
        }
    }
    guard let key = packedWord(bytes, from: start, to: stop) else { return nil }
    let minutes: Int
    switch key {
    case 0x7574, 0x757463, 0x676D74, 0x756374, 0x7A756C75: minutes = 0 // ut, utc, gmt, uct, zulu
    case 0x776574: minutes = 0 // wet
    case 0x77657374: minutes = 60 // west
    case 0x627374: minutes = 60 // bst
    case 0x636574: minutes = 60 // cet
    case 0x63657374: minutes = 120 // cest
    case 0x6D6574: minutes = 60 // met
    case 0x6D657374: minutes = 120 // mest
    case 0x6D657A: minutes = 60 // mez
    case 0x6D65737A: minutes = 120 // mesz
    case 0x656574: minutes = 120 // eet
    case 0x65657374: minutes = 180 // eest
    case 0x6D736B: minutes = 180 // msk
    case 0x656474: minutes = -240 // edt
    case 0x657374: minutes = -300 // est
    case 0x636474: minutes = -300 // cdt
    case 0x637374: minutes = -360 // cst
    case 0x6D6474: minutes = -360 // mdt
    case 0x6D7374: minutes = -420 // mst
    case 0x706474: minutes = -420 // pdt
    case 0x707374: minutes = -480 // pst
    case 0x616B6474: minutes = -480 // akdt
    case 0x616B7374: minutes = -540 // akst
    case 0x687374: minutes = -600 // hst
    case 0x616474: minutes = -180 // adt
    case 0x617374: minutes = -240 // ast
    case 0x6E6474: minutes = -150 // ndt
    case 0x6E7374: minutes = -210 // nst
    case 0x6174: minutes = -240 // at
    case 0x6574: minutes = -300 // et
    case 0x6374: minutes = -360 // ct
    case 0x6D74: minutes = -420 // mt
    case 0x7074: minutes = -480 // pt
    case 0x6A7374: minutes = 540 // jst
    case 0x6B7374: minutes = 540 // kst
    case 0x686B74: minutes = 480 // hkt
    case 0x736774: minutes = 480 // sgt
    case 0x61777374: minutes = 480 // awst
    case 0x61637374: minutes = 570 // acst
    case 0x61636474: minutes = 630 // acdt
    case 0x61657374: minutes = 600 // aest
    case 0x61656474: minutes = 660 // aedt
    case 0x6E7A7374: minutes = 720 // nzst
    case 0x6E7A6474: minutes = 780 // nzdt
    default: return nil
    }
    return minutes * 60
}

/// True for the names of UTC that may carry an offset: "GMT+05:00", "UTC-3".
private func isUTCName(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to stop: Int) -> Bool {
    switch packedWord(bytes, from: start, to: stop) {
    case 0x676D74, 0x757463, 0x7574, 0x7A: return true // gmt, utc, ut, z
    default: return false
    }
}

/// Reads a zone at the cursor, which is on a letter: a name, "Etc/GMT", or "GMT+05:00"
/// (a UTC name followed by a numeric offset). Nil when unknown.
private func zone(_ cursor: inout Cursor) -> Int? {
    var start = cursor.index
    var stop = cursor.word()
    if cursor.spells("etc", from: start, to: stop), cursor.peek() == UInt8(ascii: "/"), isLetter(cursor.peek(1)) {
        cursor.index += 1
        start = cursor.index
        stop = cursor.word()
    }
    guard let offset = zoneOffset(cursor.bytes, from: start, to: stop) else { return nil }
    let sign = cursor.peek()
    if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), isDigit(cursor.peek(1)),
       isUTCName(cursor.bytes, from: start, to: stop) {
        return cursor.numericOffset()
    }
    return offset
}

// MARK: - ISO 8601 / RFC 3339 / W3C-DTF

/// Reads `YYYY[-MM[-DD]]`, `YYYY-DDD`, `YYYYMMDD`, `YYYYDDD`, then an optional time after 'T' or
/// spaces (`hh:mm[:ss[.f]]`, `hhmm[ss]`, `hh`) and a zone. The whole string must be used.
private func parseISO(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Fields? {
    var cursor = Cursor(bytes: bytes, index: start, end: end)
    var fields = Fields()
    var ordinal = 0
    var isOrdinal = false
    let head = cursor.digits()
    switch head.count {
    case 4:
        fields.year = head.value
        let separator = cursor.peek()
        if separator == UInt8(ascii: "-") || separator == UInt8(ascii: "/") {
            let afterSeparator = cursor.peek(1)
            cursor.index += 1
            let middle = cursor.digits()
            switch middle.count {
            case 1, 2:
                fields.month = middle.value
            case 3 where afterSeparator == UInt8(ascii: "0") && cursor.peek() == separator:
                // Google once wrote months with an extra zero: "2003-012-31".
                fields.month = middle.value
            case 3:
                ordinal = middle.value
                isOrdinal = true
            default:
                return nil
            }
            if !isOrdinal, cursor.peek() == separator {
                cursor.index += 1
                let day = cursor.digits()
                guard (1...2).contains(day.count) else { return nil }
                fields.day = day.value
            }
        }
    case 7:
        fields.year = head.value / 1_000
        ordinal = head.value % 1_000
        isOrdinal = true
    case 8:
        fields.year = head.value / 10_000
        fields.month = head.value / 100 % 100
        fields.day = head.value % 100
    default:
        return nil
    }
    if isOrdinal {
        guard ordinal >= 1, ordinal <= (CivilDate.isLeap(fields.year) ? 366 : 365) else { return nil }
        var month = 1
        var day = ordinal
        while day > CivilDate.length(ofMonth: month, in: fields.year) {
            day -= CivilDate.length(ofMonth: month, in: fields.year)
            month += 1
        }
        fields.month = month
        fields.day = day
    }

    // The time, after 'T' or (MSSQL style) spaces.
    guard cursor.index < end else { return fields }
    let mark = cursor.peek()
    if mark == UInt8(ascii: "T") || mark == UInt8(ascii: "t") {
        cursor.index += 1
        guard isDigit(cursor.peek()) else { return nil }
    } else {
        guard isSpace(mark) else { return nil }
        cursor.skipSpaces()
        guard isDigit(cursor.peek()) else { return nil }
    }
    let timeStart = cursor.index
    let clock = cursor.digits()
    let extended = cursor.peek() == UInt8(ascii: ":")
    switch clock.count {
    case 1...2 where extended:
        cursor.index = timeStart
        guard cursor.clock(separator: UInt8(ascii: ":"),
                           fractionMarks: (UInt8(ascii: "."), UInt8(ascii: ",")),
                           into: &fields)
        else { return nil }
    case 2:
        fields.hour = clock.value
    case 4:
        fields.hour = clock.value / 100
        fields.minute = clock.value % 100
    case 6:
        fields.hour = clock.value / 10_000
        fields.minute = clock.value / 100 % 100
        fields.second = clock.value % 100
        let fractionMark = cursor.peek()
        if fractionMark == UInt8(ascii: ".") || fractionMark == UInt8(ascii: ",") {
            cursor.index += 1
            guard let nanoseconds = cursor.fraction() else { return nil }
            fields.nanoseconds = nanoseconds
        }
    default:
        return nil
    }

    // The zone: Z, a numeric offset, or (MSSQL and Perforce style) a name after a space.
    cursor.skipSpaces()
    let zoneMark = cursor.peek()
    if zoneMark == UInt8(ascii: "+") || zoneMark == UInt8(ascii: "-") {
        guard isDigit(cursor.peek(1)), let offset = cursor.numericOffset() else { return nil }
        fields.offset = offset
    } else if isLetter(zoneMark) {
        // Of the military letters only Z belongs in ISO 8601; "10:14:55T" is a typo, not UTC+7.
        let single = !isLetter(cursor.peek(1))
        guard !single || zoneMark | 0x20 == UInt8(ascii: "z"), let offset = zone(&cursor) else { return nil }
        fields.offset = offset
    }
    cursor.skipSpaces()
    // Anything left over ("-06:00Textra", "2013-01-27-01") means we misread the string.
    return cursor.index == end ? fields : nil
}

// MARK: - RFC 822 and friends

/// Reads RFC 822/1123/850, asctime and the liberal variants feeds use: any order of day, month
/// name and year, optional weekday, optional time and zone, commas and periods as spaces, and
/// trailing junk once the date is complete.
private func parseRFC(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Fields? {
    var cursor = Cursor(bytes: bytes, index: start, end: end)
    var fields = Fields()
    var haveDay = false
    var haveMonth = false
    var yearDigits = 0
    var haveTime = false
    var haveZone = false
    var meridiem: UInt8 = 0

    while cursor.index < end {
        // Once everything is known the rest is commentary, e.g. "+0000 (Coordinated Universal Time)".
        if haveDay, haveMonth, yearDigits > 0, haveTime, haveZone { break }
        let byte = cursor.peek()
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: "."), 0x09...0x0D:
            cursor.index += 1

        case UInt8(ascii: "("):
            // A comment, as RFC 822 allows: "-0500 (EST)".
            while cursor.index < end, cursor.peek() != UInt8(ascii: ")") { cursor.index += 1 }
            cursor.index += 1

        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            let numberStart = cursor.index
            let number = cursor.digits()
            let next = cursor.peek()
            if next == UInt8(ascii: ":") {
                guard !haveTime else { return nil }
                cursor.index = numberStart
                guard cursor.clock(separator: UInt8(ascii: ":"),
                                   fractionMarks: (UInt8(ascii: "."), UInt8(ascii: ".")),
                                   into: &fields)
                else { return nil }
                haveTime = true
            } else if number.count == 4, next == UInt8(ascii: "-") || next == UInt8(ascii: "/"),
                      !haveDay, !haveMonth, yearDigits == 0 {
                // A numeric date after a weekday: "Fri, 2006/09/15 08:19:53 EDT".
                return parseISO(bytes, from: numberStart, to: end)
            } else if next == UInt8(ascii: "."), isDigit(cursor.peek(1)), number.count <= 2,
                      !haveTime, haveDay, haveMonth, yearDigits > 0 {
                // With the date complete, "10.30" can only be a time.
                cursor.index = numberStart
                guard cursor.clock(separator: UInt8(ascii: "."),
                                   fractionMarks: (0xFF, 0xFF),
                                   into: &fields)
                else { return nil }
                haveTime = true
            } else if number.count == 4 {
                guard yearDigits == 0 else { return nil }
                fields.year = number.value
                yearDigits = 4
            } else if number.count <= 2 {
                if !haveDay {
                    fields.day = number.value
                    haveDay = true
                    // "19th", "1st": an ordinal suffix glued to the day.
                    let suffixStart = cursor.index
                    let suffixEnd = cursor.word()
                    let isSuffix = cursor.spells("st", from: suffixStart, to: suffixEnd)
                        || cursor.spells("nd", from: suffixStart, to: suffixEnd)
                        || cursor.spells("rd", from: suffixStart, to: suffixEnd)
                        || cursor.spells("th", from: suffixStart, to: suffixEnd)
                    // Any other word ("19Jan2019") is read on the next turn.
                    if !isSuffix { cursor.index = suffixStart }
                } else if yearDigits == 0, haveMonth {
                    fields.year = number.value
                    yearDigits = number.count
                } else {
                    return nil
                }
            } else {
                return nil
            }

        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            if isDigit(cursor.peek(1)), haveTime, !haveZone {
                guard let offset = cursor.numericOffset(), endsToken(cursor.peek()) else { return nil }
                fields.offset = offset
                haveZone = true
            } else if byte == UInt8(ascii: "-"), !haveTime, cursor.index > start,
                      isAlphanumeric(bytes[cursor.index - 1]), isAlphanumeric(cursor.peek(1)) {
                // RFC 850 writes "Sunday, 06-Nov-94 08:49:37 GMT"; a loose "-5" is no such thing.
                cursor.index += 1
            } else {
                return nil
            }

        default:
            guard isLetter(byte) else { return nil }
            let wordStart = cursor.index
            let wordEnd = cursor.word()
            if let month = month(bytes, from: wordStart, to: wordEnd) {
                guard !haveMonth else { return nil }
                fields.month = month
                haveMonth = true
            } else if isWeekday(bytes, from: wordStart, to: wordEnd) {
                continue
            } else if !haveTime, cursor.spells("t", from: wordStart, to: wordEnd)
                        || cursor.spells("at", from: wordStart, to: wordEnd) {
                // "2019T10:00" or "Jan 19, 2019 at 10:00"; after a time, T and AT are zones.
                continue
            } else if haveTime, !haveZone, meridiem == 0,
                      let mark = readMeridiem(&cursor, from: wordStart, to: wordEnd) {
                meridiem = mark
            } else if haveTime || yearDigits > 0, !haveZone {
                cursor.index = wordStart
                // "EST5EDT" or "T+0300" are no zones we can trust.
                guard let offset = zone(&cursor), endsToken(cursor.peek()) else { return nil }
                fields.offset = offset
                haveZone = true
            } else {
                return nil
            }
        }
    }

    guard haveDay, haveMonth, yearDigits > 0 else { return nil }
    if yearDigits <= 2 {
        // feedparser's rule: 90-99 are the 1990s, 00-89 this century.
        fields.year += fields.year < 90 ? 2000 : 1900
    }
    if meridiem != 0, fields.hour >= 1, fields.hour <= 12 {
        fields.hour = fields.hour % 12 + (meridiem == UInt8(ascii: "p") ? 12 : 0)
    }
    return fields
}

/// True for a byte that may follow a zone: the end, a space, a comment or punctuation.
private func endsToken(_ byte: UInt8) -> Bool {
    byte == 0 || isSpace(byte) || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ",")
        || byte == UInt8(ascii: ".")
}

/// Reads "AM"/"PM" (or "a.m."/"p.m.") in a word just read; returns 'a' or 'p', or nil.
private func readMeridiem(_ cursor: inout Cursor, from start: Int, to stop: Int) -> UInt8? {
    let first = cursor.bytes[start] | 0x20
    guard first == UInt8(ascii: "a") || first == UInt8(ascii: "p") else { return nil }
    if stop - start == 2, cursor.bytes[start + 1] | 0x20 == UInt8(ascii: "m") { return first }
    if stop - start == 1, cursor.peek() == UInt8(ascii: "."), cursor.peek(1) | 0x20 == UInt8(ascii: "m"),
       !isLetter(cursor.peek(2)) {
        cursor.index += 2
        return first
    }
    return nil
}
