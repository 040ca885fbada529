import Foundation
import Testing
@testable import KioskCore

/// Unix seconds as a `Date`, so every expectation below names its instant.
private func at(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

/// 2019-01-19 10:00:00 UTC, the wall-clock time most zone tests write.
private let tenAM: TimeInterval = 1_547_892_000
private let hour: TimeInterval = 3_600

@Suite struct DateParserTests {
    // MARK: RFC 822 / 1123 and what feeds make of them

    @Test func readsRFC1123() {
        #expect(DateParser.parse("Sat, 07 Sep 2002 00:00:01 GMT") == at(1_031_356_801))
        #expect(DateParser.parse("Sun, 06 Nov 1994 08:49:37 GMT") == at(784_111_777))
    }

    @Test func appliesNumericOffsets() {
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 -0500") == at(tenAM + 5 * hour))
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 +0000") == at(tenAM))
        #expect(DateParser.parse("19 Jan 2019 10:00:00 +05:30") == at(tenAM - 5.5 * hour))
        #expect(DateParser.parse("19 Jan 2019 10:00:00 +05") == at(tenAM - 5 * hour))
        #expect(DateParser.parse("19 Jan 2019 10:00:00 +5") == at(tenAM - 5 * hour))
        #expect(DateParser.parse("Wed, 19 Feb 2012 22:40:00 -01:01") == at(1_329_694_860))
    }

    @Test func readsRFC822USZonesAndFeedparsersShortForms() {
        let zones: [(String, Double)] = [
            ("UT", 0), ("UTC", 0), ("GMT", 0), ("Z", 0),
            ("EST", -5), ("EDT", -4), ("CST", -6), ("CDT", -5),
            ("MST", -7), ("MDT", -6), ("PST", -8), ("PDT", -7),
            ("AT", -4), ("ET", -5), ("CT", -6), ("MT", -7), ("PT", -8),
        ]
        for (name, offset) in zones {
            #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 \(name)") == at(tenAM - offset * hour), "\(name)")
        }
    }

    @Test func readsCommonUnambiguousZoneNames() {
        let zones: [(String, Double)] = [
            ("CET", 1), ("CEST", 2), ("MET", 1), ("MEST", 2), ("BST", 1), ("WET", 0), ("EET", 2),
            ("MSK", 3), ("JST", 9), ("AEST", 10), ("AEDT", 11), ("ACST", 9.5), ("NZDT", 13),
            ("AKST", -9), ("HST", -10), ("NST", -3.5),
        ]
        for (name, offset) in zones {
            #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 \(name)") == at(tenAM - offset * hour), "\(name)")
        }
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 gmt") == at(tenAM))
    }

    @Test func ambiguousOrUnknownZoneNamesGiveNil() {
        // IST is India, Ireland or Israel; better no date than one hours off.
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 IST") == nil)
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 XYZ") == nil)
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 EST5EDT") == nil)
    }

    @Test func readsMilitaryZonesWithRFC822Signs() {
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 Z") == at(tenAM))
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 A") == at(tenAM + hour))
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 M") == at(tenAM + 12 * hour))
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 N") == at(tenAM - hour))
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 Y") == at(tenAM - 12 * hour))
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 J") == nil)
    }

    @Test func readsUTCNamesWithOffsetsAndEtcGMT() {
        #expect(DateParser.parse("Wed, 19 Feb 2012 22:40:00 GMT-01:01") == at(1_329_694_860))
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 UTC+5") == at(tenAM - 5 * hour))
        #expect(DateParser.parse("Wed, 19 Aug 2009 18:28:00 Etc/GMT") == at(1_250_706_480))
    }

    @Test func missingZoneMeansUTC() {
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00") == at(tenAM))
        #expect(DateParser.parse("19 Jan 2019 10:00") == at(tenAM))
    }

    @Test func weekdayIsOptionalInAnyCaseAndLength() {
        for weekday in ["", "Sat, ", "SAT, ", "sat ", "Saturday, ", "SATURDAY ", "Sat., "] {
            #expect(DateParser.parse("\(weekday)19 Jan 2019 10:00:00 GMT") == at(tenAM), "\(weekday)")
        }
        #expect(DateParser.parse("Thurs, 01 Jan 2004 19:48:21 GMT") == at(1_072_986_501))
    }

    @Test func readsMonthNamesInAnyCaseAbbreviatedOrFull() {
        for month in ["Jan", "JAN", "jan", "January", "JANUARY", "Janu"] {
            #expect(DateParser.parse("19 \(month) 2019 10:00 GMT") == at(tenAM), "\(month)")
        }
        #expect(DateParser.parse("19 Sept 2019 10:00 GMT") == at(1_568_887_200))
        #expect(DateParser.parse("19 September 2019 10:00 GMT") == at(1_568_887_200))
        #expect(DateParser.parse("Mon, 26 January 2004 16:31:00 ET") == at(1_075_134_660 + 5 * hour))
        #expect(DateParser.parse("19 Janx 2019 10:00 GMT") == nil)
    }

    @Test func readsDayAfterMonth() {
        #expect(DateParser.parse("Jan 19 2019") == at(1_547_856_000))
        #expect(DateParser.parse("Jan 19, 2019 10:00:00 GMT") == at(tenAM))
        #expect(DateParser.parse("Thu Aug 30 2012 17:26:16 +0200") == at(1_346_340_376))
        #expect(DateParser.parse("Saturday, January 19, 2019 10:00 AM EST") == at(tenAM + 5 * hour))
    }

    @Test func readsAsctime() {
        #expect(DateParser.parse("Sun Jan  4 16:29:06 2004") == at(1_073_233_746))
        #expect(DateParser.parse("Sun Jul 15 01:16:00 +0000 2012") == at(1_342_314_960))
    }

    @Test func secondsAndTimeAreOptional() {
        #expect(DateParser.parse("Thu, 01 Jan 2004 00:00 GMT") == at(1_072_915_200))
        #expect(DateParser.parse("Thu, 01 Jan 2004") == at(1_072_915_200))
    }

    @Test func twoDigitYearsFollowFeedparser() {
        // 00-89 are this century, 90-99 the last one.
        #expect(DateParser.parse("Thu, 01 Jan 04 19:48:21 GMT") == at(1_072_986_501))
        #expect(DateParser.parse("01 Jan 89 00:00 GMT") == at(3_755_376_000))
        #expect(DateParser.parse("01 Jan 90 00:00 GMT") == at(631_152_000))
        #expect(DateParser.parse("Sunday, 06-Nov-94 08:49:37 GMT") == at(784_111_777))
    }

    @Test func readsSingleDigitDaysAndClockFields() {
        #expect(DateParser.parse("Thu,  5 Apr 2012 1:02:03 GMT") == at(1_333_587_723))
        #expect(DateParser.parse("Thu, 5 Apr 2012 1:2:3 GMT") == at(1_333_587_723))
    }

    @Test func toleratesStrayPunctuationAndSpacing() {
        #expect(DateParser.parse("Mon, 13 Feb, 2012 06:28:00 UTC") == at(1_329_114_480))
        #expect(DateParser.parse("Sat.,19.Jan.2019 10:00") == at(tenAM))
        #expect(DateParser.parse("Sat,19 Jan 2019  10:00:00   GMT") == at(tenAM))
        #expect(DateParser.parse("Sat, 19 Jan 2019 10.00.00 GMT") == at(tenAM))
        #expect(DateParser.parse("Sat, 19 Jan 2019T10:00:00Z") == at(tenAM))
        #expect(DateParser.parse("19th January 2019 10:00") == at(tenAM))
    }

    @Test func ignoresCommentsAndJunkAfterACompleteDate() {
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 -0500 (EST)") == at(tenAM + 5 * hour))
        #expect(DateParser.parse("Sat, 19 Jan 2019 10:00:00 GMT+0000 (Coordinated Universal Time)") == at(tenAM))
    }

    @Test func readsAMAndPM() {
        #expect(DateParser.parse("Sat, 19 Jan 2019 12:30 pm") == at(1_547_901_000))
        #expect(DateParser.parse("Sat, 19 Jan 2019 12:30 AM") == at(1_547_857_800))
        #expect(DateParser.parse("Jan 19, 2019 at 10:00 a.m.") == at(tenAM))
    }

    @Test func readsNumericDateAfterAWeekday() {
        #expect(DateParser.parse("Fri, 2006/09/15 08:19:53 EDT") == at(1_158_322_793))
    }

    // MARK: ISO 8601 / RFC 3339 / W3C-DTF

    @Test func readsRFC3339() {
        #expect(DateParser.parse("2003-12-31T10:14:55Z") == at(1_072_865_695))
        #expect(DateParser.parse("2003-12-31T10:14:55-08:00") == at(1_072_865_695 + 8 * hour))
        #expect(DateParser.parse("2003-12-31T18:14:55+08:00") == at(1_072_865_695))
        #expect(DateParser.parse("2004-04-06T23:05:43-05:00") == at(1_081_310_743))
    }

    @Test func keepsFractionsOfAnyLength() {
        #expect(DateParser.parse("2003-12-31T10:14:55.1234Z") == at(1_072_865_695.1234))
        #expect(DateParser.parse("2007-04-23T23:25:47.538+10:00") == at(1_177_334_747.538))
        #expect(DateParser.parse("2003-12-31T10:14:55,5Z") == at(1_072_865_695.5))
        let long = DateParser.parse("2003-12-31T10:14:55.1234567890123456789012345678901234567890Z")
        #expect(long == at(1_072_865_695.123456789))
        // ISO 8601 lets the minute carry the fraction.
        #expect(DateParser.parse("2003-12-31T10:14.5Z") == at(1_072_865_670))
    }

    @Test func readsReducedPrecisionW3CDTF() {
        #expect(DateParser.parse("2003-12-31") == at(1_072_828_800))
        #expect(DateParser.parse("2003-12") == at(1_070_236_800))
        #expect(DateParser.parse("2003") == at(1_041_379_200))
        #expect(DateParser.parse("2003-12-31T10:14Z") == at(1_072_865_640))
        #expect(DateParser.parse("2003-12-31T10:14:55") == at(1_072_865_695))
    }

    @Test func readsCompactForms() {
        #expect(DateParser.parse("20031231T101455Z") == at(1_072_865_695))
        #expect(DateParser.parse("20031231T1014Z") == at(1_072_865_640))
        #expect(DateParser.parse("20031231T101455.5+0100") == at(1_072_865_695.5 - hour))
        #expect(DateParser.parse("20031231") == at(1_072_828_800))
    }

    @Test func acceptsSpaceForTAndLowercaseLetters() {
        #expect(DateParser.parse("2004-07-08 23:56:58 -00:20") == at(1_089_332_218))
        #expect(DateParser.parse("2004-07-08 23:56:58") == at(1_089_331_018))
        #expect(DateParser.parse("2004-07-08 23:56:58.0") == at(1_089_331_018))
        #expect(DateParser.parse("2003-12-31t10:14:55z") == at(1_072_865_695))
        #expect(DateParser.parse("2003-12-31 10:14:55 GMT") == at(1_072_865_695))
    }

    @Test func readsOrdinalDates() {
        #expect(DateParser.parse("2003-335") == at(1_070_236_800))
        #expect(DateParser.parse("2004-366") == at(1_104_451_200))
        #expect(DateParser.parse("2003335") == at(1_070_236_800))
        #expect(DateParser.parse("2003-366") == nil)
        #expect(DateParser.parse("2003-000") == nil)
    }

    @Test func readsGooglesThreeDigitMonth() {
        #expect(DateParser.parse("2003-012-31T10:14:55+00:00") == at(1_072_865_695))
    }

    @Test func hour24IsTheNextMidnight() {
        #expect(DateParser.parse("2003-12-31T24:00:00Z") == at(1_072_915_200))
        #expect(DateParser.parse("2003-12-31T24:00:01Z") == nil)
    }

    @Test func leapSecondStaysInItsMinute() {
        #expect(DateParser.parse("2003-12-31T23:59:60Z") == at(1_072_915_199))
        #expect(DateParser.parse("Wed, 31 Dec 2003 23:59:60 GMT") == at(1_072_915_199))
    }

    // MARK: Validation

    @Test func knowsLeapYears() {
        #expect(DateParser.parse("2000-02-29") == at(951_782_400))
        #expect(DateParser.parse("Sun, 29 Feb 2004 00:00 GMT") == at(1_078_012_800))
        #expect(DateParser.parse("1900-02-29") == nil)
        #expect(DateParser.parse("Thu, 29 Feb 2001 10:00 GMT") == nil)
        // Offsets carry into the next day, month and year correctly.
        #expect(DateParser.parse("2004-02-28T18:14:55-08:00") == at(1_078_020_895))
        #expect(DateParser.parse("2003-02-28T18:14:55-08:00") == at(1_046_484_895))
        #expect(DateParser.parse("2000-02-28T18:14:55-08:00") == at(951_790_495))
    }

    @Test func outOfRangeFieldsGiveNil() {
        for string in [
            "2003-13-01", "2003-00-10", "2003-04-31", "2003-12-32", "2003-12-00",
            "2003-12-31T25:14:55Z", "2003-12-31T10:61:55Z", "2003-12-31T10:14:61Z",
            "9999-12-31T23:59:59-99:99", "Sun, 99 Jun 2009 12:00:00 GMT", "Sat, 19 Jan 2019 25:00 GMT",
            "Sat, 19 Jan 2019 10:60 GMT", "Sat, 19 Jan 2019 10:00 +1900",
        ] {
            #expect(DateParser.parse(string) == nil, "\(string)")
        }
    }

    @Test func garbageGivesNil() {
        for string in [
            "", "   ", "not a date", "Sun, 16 Dec 2012 1:2:3:4 GMT", "Sun, 16 zzz 2012 11:47:32 GMT",
            "Sun, Dec x 2012 11:47:32 GMT", "Sun, 16 Dec zz 11:47:32 GMT", "Sun, 16 Dec 2012 11:47:32 +zz:00",
            "Sun, 16 Dec 2012 11:47:32 +00:zz", "22013", "013", "2013-01-27-01",
            "2013-01-28T11:30:00-06:00Textra", "2013-xx-27", "2013-01-28T09:xx:00Z", "2013-01-28T09:00:00+00:xx",
            "2003-12-31T", "2003-12-31T10:14:55.", "Jan 2019", "19 Jan", "MON, 25 Aug -5 09:29:02 +0300",
            "Κυρ, 11 Ιούλ 2004 12:00:00 EST",
        ] {
            #expect(DateParser.parse(string) == nil, "\(string)")
        }
    }

    @Test func hugeNumbersGiveNilWithoutOverflow() {
        let forty = String(repeating: "9", count: 40)
        for string in [
            forty, "\(forty)-01-01", "2003-\(forty)-01", "2003-12-31T\(forty):00Z", "2003-12-31T10:14:55+\(forty)",
            "Sat, 19 Jan \(forty) 10:00 GMT", "Sat, \(forty) Jan 2019 10:00 GMT", "Sat, 19 Jan 2019 \(forty):00 GMT",
            "Sat, 19 Jan 2019 10:00:00 -\(forty)",
        ] {
            #expect(DateParser.parse(string) == nil, "\(string)")
        }
    }

    @Test func keepsToYearsOneThroughNineThousandNineHundredNinetyNine() {
        #expect(DateParser.parse("Thu, 01 Jan 0100 00:00:01 +0100") == at(-59_011_462_799))
        #expect(DateParser.parse("Fri, 31 Dec 9999 23:59:59 GMT") == at(253_402_300_799))
        #expect(DateParser.parse("Sun, 31 Dec 9999 23:59:59 -0100") == nil)
        #expect(DateParser.parse("0000-01-01") == nil)
    }

    @Test func ignoresSurroundingWhitespace() {
        #expect(DateParser.parse("\n\t  2003-12-31T10:14:55Z \r\n") == at(1_072_865_695))
        #expect(DateParser.parse("\n   Sat, 07 Sep 2002 00:00:01 GMT\n") == at(1_031_356_801))
    }

    @Test func byteAPIAgreesWithStringAPI() {
        for string in ["2003-12-31T10:14:55.5+01:00", "Sat, 07 Sep 2002 00:00:01 GMT", "garbage"] {
            let bytes = Array(string.utf8)
            let fromBytes = bytes.withUnsafeBufferPointer { DateParser.parse(utf8: $0) }
            #expect(fromBytes == DateParser.parse(string), "\(string)")
        }
        #expect(Array("2003-12-31".utf8).withUnsafeBufferPointer { DateParser.parse(utf8: $0) } == at(1_072_828_800))
    }
}
