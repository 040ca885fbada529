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
                <dateCreated>\(InternetDate.rfc822(dateCreated))</dateCreated>
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

    /// Text for an attribute value or element content (see `XMLText.escaped`).
    static func escaped(_ text: String) -> String { XMLText.escaped(text) }

}
