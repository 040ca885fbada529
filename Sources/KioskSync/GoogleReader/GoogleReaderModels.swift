// The Google Reader API's JSON answers, with the fields and types NetNewsWire's decoders
// require (every item's `summary`, `categories` and `origin`; `crawlTimeMsec` and
// `timestampUsec` as strings; `id` and `updated` at the top of a contents answer).

import Foundation
import KioskCore

struct UserInfo: Encodable {
    var userId: String
    var userName: String
    var userProfileId: String
    var userEmail: String
}

struct TagList: Encodable {
    struct Tag: Encodable {
        var id: String
        var type: String?
    }
    var tags: [Tag]
}

struct SubscriptionList: Encodable {
    struct Category: Encodable {
        var id: String
        var label: String
    }
    struct Item: Encodable {
        var id: String
        var title: String
        var categories: [Category]
        var url: String
        var htmlUrl: String
        var iconUrl: String
        var firstitemmsec: String
        var sortid: String
    }
    var subscriptions: [Item]
}

struct QuickAddResult: Encodable {
    var numResults: Int
    var query: String?
    var streamId: String?
    var streamName: String?
    var error: String?
}

struct UnreadCounts: Encodable {
    struct Count: Encodable {
        var id: String
        var count: Int
        var newestItemTimestampUsec: String
    }
    var max: Int
    var unreadcounts: [Count]
}

struct ItemIDPage: Encodable {
    struct Ref: Encodable {
        var id: String
        var directStreamIds: [String]
        var timestampUsec: String
    }
    var itemRefs: [Ref]
    /// Absent on the last page (NetNewsWire loops on an empty string).
    var continuation: String?
}

struct ContentsPage: Encodable {
    struct Link: Encodable {
        var href: String
        var type: String?
    }
    struct Summary: Encodable {
        var direction = "ltr"
        var content: String
    }
    struct Origin: Encodable {
        var streamId: String
        var title: String
        var htmlUrl: String
    }
    struct Item: Encodable {
        var id: String
        var crawlTimeMsec: String
        var timestampUsec: String
        var published: Int64
        var updated: Int64
        var title: String
        var author: String?
        var canonical: [Link]
        var alternate: [Link]
        var summary: Summary
        var categories: [String]
        var origin: Origin
        /// The entry's files (podcast audio, video, images), as FreshRSS sends them, so clients
        /// that play enclosures (Reeder...) list them; absent when there are none.
        var enclosure: [Enclosure]?
    }
    /// One file: its address, MIME type (`audio/*` or `video/*` when the feed gave none but the
    /// file is one) and size in bytes when known.
    struct Enclosure: Encodable, Equatable {
        var href: String
        var type: String?
        var length: Int?
    }
    var id: String
    var title: String?
    var updated: Int64
    var items: [Item]
    var continuation: String?
}

extension ContentsPage.Enclosure {
    /// An entry's enclosures and Media RSS files, absolute (a feed may write them relative to
    /// itself), http(s) only; nil when there are none.
    static func list(of entry: Entry, feedURL: String?) -> [ContentsPage.Enclosure]? {
        let files = (entry.enclosures + (entry.media ?? [])).compactMap { file -> ContentsPage.Enclosure? in
            let url = URLResolution.resolve(file.url, against: feedURL)
            guard let scheme = URL(string: url)?.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
            return ContentsPage.Enclosure(href: url, type: file.type ?? file.kind.map { "\($0.rawValue)/*" }, length: file.length)
        }
        return files.isEmpty ? nil : files
    }
}
