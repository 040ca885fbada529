import Foundation

// Writes the OPML 2.0 other readers import. It aims at the strictest of them (libxml2-based
// ones reject a whole file for one bad character), so every value is escaped and characters
// XML cannot carry are left out rather than written.

extension OPML {
    /// Writes subscriptions as an OPML 2.0 document, to be saved as UTF-8.
    ///
    /// Each distinct folder becomes one folder outline, placed where its first feed was and
    /// holding its feeds in their order; feeds without a folder stay at top level, in place. A
    /// nested path ("Tech / Swift") is written as one folder of that name: many readers have a
    /// single folder level, and ``parse(_:limits:)`` reads it back as the same path. A feed
    /// without a title is named by its address in `text` (some readers require a name) and has
    /// no `title`, so it reads back untitled.
    ///
    /// `parse(write(x)).subscriptions == x` when each folder's feeds are together in `x`, feed
    /// addresses are distinct, and values carry no surrounding white space or control characters.
    public static func write(title: String, subscriptions: [OPMLSubscription], dateCreated: Date) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0">
              <head>
                <title>\(OPMLWriter.escaped(title))</title>
                <dateCreated>\(OPMLWriter.rfc822(dateCreated))</dateCreated>
              </head>
              <body>

            """
        for item in OPMLWriter.items(subscriptions) {
            switch item {
            case .feed(let subscription):
                OPMLWriter.append(subscription, indent: "    ", to: &out)
            case .folder(let name, let feeds):
                let escapedName = OPMLWriter.escaped(name)
                out += "    <outline text=\"\(escapedName)\" title=\"\(escapedName)\">\n"
                for feed in feeds { OPMLWriter.append(feed, indent: "      ", to: &out) }
                out += "    </outline>\n"
            }
        }
        out += "  </body>\n</opml>\n"
        return out
    }
}

/// The pieces of ``OPML/write(title:subscriptions:dateCreated:)``.
enum OPMLWriter {
    /// A top-level outline: a feed outside any folder, or a folder with its feeds.
    enum Item {
        case feed(OPMLSubscription)
        case folder(String, [OPMLSubscription])
    }

    /// The subscriptions grouped by folder, each folder where its first feed was. Feeds without
    /// an address are dropped: there is nothing to subscribe to.
    static func items(_ subscriptions: [OPMLSubscription]) -> [Item] {
        enum Slot {
            case feed(OPMLSubscription)
            case folder(Int)
        }
        var slots: [Slot] = []
        var folderIndex: [String: Int] = [:]
        var folders: [(name: String, feeds: [OPMLSubscription])] = []
        for subscription in subscriptions where !subscription.feedURL.trimmingASCIIWhitespace.isEmpty {
            guard let folder = subscription.folder?.trimmingASCIIWhitespace, !folder.isEmpty else {
                slots.append(.feed(subscription))
                continue
            }
            if let index = folderIndex[folder] {
                folders[index].feeds.append(subscription)
            } else {
                folderIndex[folder] = folders.count
                slots.append(.folder(folders.count))
                folders.append((folder, [subscription]))
            }
        }
        return slots.map { slot in
            switch slot {
            case .feed(let subscription): .feed(subscription)
            case .folder(let index): .folder(folders[index].name, folders[index].feeds)
            }
        }
    }

    static func append(_ subscription: OPMLSubscription, indent: String, to out: inout String) {
        let feedURL = escaped(subscription.feedURL)
        out += indent
        if let title = subscription.title, !title.trimmingASCIIWhitespace.isEmpty {
            let name = escaped(title)
            out += "<outline text=\"\(name)\" title=\"\(name)\""
        } else {
            out += "<outline text=\"\(feedURL)\""
        }
        out += " type=\"rss\" xmlUrl=\"\(feedURL)\""
        if let siteURL = subscription.siteURL, !siteURL.trimmingASCIIWhitespace.isEmpty {
            out += " htmlUrl=\"\(escaped(siteURL))\""
        }
        out += "/>\n"
    }

    /// Text for an attribute value or element content.
    ///
    /// `&`, `<`, `>` and `"` are references. Tab, line feed and carriage return are numeric
    /// references, because a reader must turn literal ones in an attribute into spaces. Other
    /// control characters, and U+FFFE/U+FFFF, are left out: XML 1.0 forbids C0 controls even as
    /// references (strict readers refuse the whole file), and `&#128;`–`&#159;` are read as
    /// Windows-1252 by browsers and by Kiosk, so no reference would bring a C1 control back.
    static func escaped(_ text: String) -> String {
        let needsWork = text.utf8.contains { byte in
            byte < 0x20 || byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x7F
                || byte == 0xC2 || byte == 0xEF  // lead bytes of U+0080–U+009F and U+FFFE/U+FFFF
        }
        guard needsWork else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;"
            case 0x3C: out += "&lt;"
            case 0x3E: out += "&gt;"
            case 0x22: out += "&quot;"
            case 0x09: out += "&#9;"
            case 0x0A: out += "&#10;"
            case 0x0D: out += "&#13;"
            case 0x00...0x1F, 0x7F...0x9F, 0xFFFE, 0xFFFF: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// RFC 822 in UTC as OPML's `dateCreated` wants it, e.g. `Sun, 24 Nov 2024 10:00:00 GMT`,
    /// with no formatter or locale to vary between machines. Years are kept to 0001–9999.
    static func rfc822(_ date: Date) -> String {
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
