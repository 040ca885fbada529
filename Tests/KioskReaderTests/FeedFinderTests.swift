import Foundation
import KioskCore
import KioskSources
import Testing
@testable import KioskReader

/// From what a person types to feeds they can subscribe to.
@Suite struct FeedFinderTests {
    private func finder(_ pages: [String: (body: String, contentType: String)], policy: AddressPolicy = AddressPolicy())
        -> FeedFinder
    {
        FeedFinder(fetcher: CannedWeb(pages: pages), policy: policy)
    }

    @Test func aFeedAddressIsReadAsAFeedWithAPreview() async throws {
        let search = try await finder(["https://example.com/feed.xml": Pages.rss("Example", items: 8)])
            .find("https://example.com/feed.xml")
        guard case .feed(let feed) = search else { Issue.record("expected one feed, got \(search)"); return }
        #expect(feed.title == "Example")
        #expect(feed.siteURL == "https://example.com/")
        #expect(feed.entryCount == 8)
        #expect(feed.entries.count == 5)
    }

    @Test func aSiteAddressFindsTheFeedItLinks() async throws {
        let web = [
            "https://example.com/": Pages.html(links: ["/feed.xml"]),
            "https://example.com/feed.xml": Pages.rss("Linked"),
        ]
        // Typed without a scheme, as people do.
        let search = try await finder(web).find("example.com/")
        #expect(search.feeds.map(\.title) == ["Linked"])
    }

    @Test func severalLinkedFeedsAreOfferedInPageOrderAndBrokenOnesLeftOut() async throws {
        let web = [
            "https://example.com/": Pages.html(links: ["/posts.xml", "/missing.xml", "/comments.xml"]),
            "https://example.com/posts.xml": Pages.rss("Posts"),
            "https://example.com/comments.xml": Pages.rss("Comments"),
        ]
        let search = try await finder(web).find("https://example.com/")
        guard case .choices(let feeds) = search else { Issue.record("expected choices, got \(search)"); return }
        #expect(feeds.map(\.title) == ["Posts", "Comments"])
    }

    @Test func aPageThatLinksNothingHasTheUsualPathsTried() async throws {
        let web = [
            "https://example.com/blog": Pages.html(links: []),
            "https://example.com/index.xml": Pages.rss("Hugo"),
        ]
        let search = try await finder(web).find("https://example.com/blog")
        #expect(search.feeds.map(\.url.absoluteString) == ["https://example.com/index.xml"])
    }

    @Test func eachFailureHasItsOwnMessage() async throws {
        let web = [
            "https://example.com/": Pages.html(links: []),
            "https://example.com/plain.txt": ("just some text", "text/plain"),
            "https://slow.example.com/": ("TIMEOUT", "text/html"),
        ]
        let cases: [(String, FeedFinderError)] = [
            ("https://example.com/", .nothingFound("example.com")),
            ("https://example.com/plain.txt", .notAFeed("neither XML nor JSON")),
            ("https://slow.example.com/", .timedOut),
            ("https://example.com/gone", .status(code: 404)),
            ("not an address", .invalidAddress("not an address")),
            ("ftp://example.com/feed", .addressRefused("only http and https addresses can be subscribed to")),
            ("javascript:alert(1)", .addressRefused("only http and https addresses can be subscribed to")),
            ("mailto:someone@example.com", .addressRefused("only http and https addresses can be subscribed to")),
            ("http://127.0.0.1:8080/feed", .addressRefused("127.0.0.1 is a private or local address, which this Kiosk does not fetch")),
            ("http://169.254.169.254/latest", .addressRefused("169.254.169.254 is a private or local address, which this Kiosk does not fetch")),
        ]
        for (address, expected) in cases {
            await #expect(throws: expected, "\(address)") { try await finder(web).find(address) }
            #expect(!expected.message.isEmpty)
        }
    }

    @Test func aPageCannotSendTheFinderIntoThePrivateNetwork() async throws {
        let web = [
            "https://example.com/": Pages.html(links: ["http://192.168.1.1/feed.xml", "http://localhost/feed.xml"]),
            "http://192.168.1.1/feed.xml": Pages.rss("Router"),
            "http://localhost/feed.xml": Pages.rss("Local"),
        ]
        await #expect(throws: FeedFinderError.nothingFound("example.com")) {
            try await finder(web).find("https://example.com/")
        }
    }

    @Test func trustedSourcesAndAnOperatorsChoiceAllowLocalFeeds() async throws {
        let web = ["http://127.0.0.1:9000/feed.xml": Pages.rss("Demo")]
        let demo = try #require(URL(string: "http://127.0.0.1:9000/"))
        let trusted = try await finder(web, policy: AddressPolicy(trusting: [demo])).find("http://127.0.0.1:9000/feed.xml")
        #expect(trusted.feeds.count == 1)
        let open = try await finder(web, policy: AddressPolicy(allowsPrivateHosts: true)).find("http://127.0.0.1:9000/feed.xml")
        #expect(open.feeds.count == 1)
        await #expect(throws: FeedFinderError.self) {
            try await finder(web, policy: AddressPolicy(trusting: [demo])).find("http://127.0.0.1:9001/feed.xml")
        }
    }

    @Test func feedSchemesAreUnwrapped() throws {
        #expect(try FeedFinder.url(from: "feed://example.com/rss").absoluteString == "http://example.com/rss")
        #expect(try FeedFinder.url(from: "feed:https://example.com/rss").absoluteString == "https://example.com/rss")
        #expect(try FeedFinder.url(from: "  https://example.com/a  ").absoluteString == "https://example.com/a")
        #expect(try FeedFinder.url(from: "example.com:8080/feed").absoluteString == "https://example.com:8080/feed")
    }
}
