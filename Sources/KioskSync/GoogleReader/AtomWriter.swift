import Foundation
import KioskCore
import KioskModel
import KioskStore

/// The Atom newsboat reads a stream as (its `feedhq` backend): entry ids in the long item-id
/// form (sent back as `i=`), and each entry's state as a category in Google Reader's scheme with
/// the label newsboat looks for: `read`, else `kept-unread` and `fresh`.
enum AtomWriter {
    static let scheme = "http://www.google.com/reader/"

    static func feed(
        id: String, title: String, siteURL: String?, updated: Date, entries: [StoredEntry], names: [SourceID: String],
        feedURLs: [SourceID: String] = [:], articles: [Int64: StoredArticle] = [:]
    ) -> String {
        var out = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
        out += #"<feed xmlns="http://www.w3.org/2005/Atom">"#
        out += "<id>tag:kiosk,2026:\(XMLText.escaped(id))</id>"
        out += "<title>\(XMLText.escaped(title))</title>"
        if let siteURL { out += #"<link rel="alternate" href="\#(XMLText.escaped(siteURL))"/>"# }
        out += "<updated>\(iso(updated))</updated>"
        for stored in entries {
            out += entry(stored, feedName: names[stored.source], feedURL: feedURLs[stored.source], articles: articles)
        }
        out += "</feed>\n"
        return out
    }

    private static func entry(_ stored: StoredEntry, feedName: String?, feedURL: String?, articles: [Int64: StoredArticle])
        -> String
    {
        let entry = stored.entry
        let published = stored.syncPublished
        var out = "<entry>"
        out += "<id>\(ItemID.long(stored.id))</id>"
        out += "<title type=\"text\">\(XMLText.escaped(stored.syncTitle))</title>"
        out += "<published>\(iso(published))</published><updated>\(iso(entry.updated ?? published))</updated>"
        if let link = entry.link { out += #"<link rel="alternate" type="text/html" href="\#(XMLText.escaped(link))"/>"# }
        // Podcast clients (newsboat's podboat) download what `rel="enclosure"` names.
        for file in ContentsPage.Enclosure.list(of: entry, feedURL: feedURL) ?? [] {
            out += #"<link rel="enclosure" href="\#(XMLText.escaped(file.href))""#
            if let type = file.type { out += #" type="\#(XMLText.escaped(type))""# }
            if let length = file.length { out += #" length="\#(length)""# }
            out += "/>"
        }
        if let author = stored.syncAuthor {
            out += "<author><name>\(XMLText.escaped(author))</name></author>"
        }
        out += category("user/-/state/com.google/reading-list", label: "reading-list")
        if stored.isRead {
            out += category("user/-/state/com.google/read", label: "read")
        } else {
            out += category("user/-/state/com.google/kept-unread", label: "kept-unread")
            out += category("user/-/state/com.google/fresh", label: "fresh")
        }
        if stored.isStarred { out += category("user/-/state/com.google/starred", label: "starred") }
        out += "<content type=\"html\">\(XMLText.escaped(stored.syncHTML(articles: articles)))</content>"
        if let feedName { out += "<source><title>\(XMLText.escaped(feedName))</title></source>" }
        out += "</entry>"
        return out
    }

    private static func category(_ term: String, label: String) -> String {
        #"<category term="\#(term)" scheme="\#(scheme)" label="\#(label)"/>"#
    }

    private static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
