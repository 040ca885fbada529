import Foundation
import KioskModel
@testable import KioskReader
import KioskSources

/// A web of canned answers, by URL: what the finder fetches in these tests.
struct CannedWeb: Fetching {
    var pages: [String: (body: String, contentType: String)]

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        guard let page = pages[request.url.absoluteString] else {
            throw .status(code: 404, message: nil, retryAfter: nil)
        }
        if page.body == "TIMEOUT" { throw .timeout }
        return .fetched(FetchedBody(bytes: Array(page.body.utf8), contentType: page.contentType, finalURL: request.url))
    }
}

/// Records what the reader asks the engine to poll.
actor RecordingScheduler: FeedScheduler {
    private(set) var polled: [SourceID: PolledSource] = [:]

    func subscribe(_ feed: PolledSource) { polled[feed.id] = feed }
    func unsubscribe(_ id: SourceID) { polled[id] = nil }
}

/// Collects the reader's announcements.
actor AnnouncedChanges {
    private(set) var changes: [ReaderChange] = []
    func append(_ change: ReaderChange) { changes.append(change) }
}

enum Pages {
    static func rss(_ title: String, items: Int = 3) -> (body: String, contentType: String) {
        let entries = (0..<items).map { "<item><title>\(title) \($0)</title><guid>\(title)-\($0)</guid></item>" }.joined()
        return (
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title><link>https://example.com/</link>\(entries)</channel></rss>",
            "application/rss+xml"
        )
    }

    static func html(links: [String]) -> (body: String, contentType: String) {
        let tags = links.map { #"<link rel="alternate" type="application/rss+xml" href="\#($0)">"# }.joined()
        return ("<!doctype html><html><head><title>Site</title>\(tags)</head><body><p>Hello</p></body></html>", "text/html")
    }
}
