import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskModel
import KioskSources
import KioskStore
@testable import KioskWeb
import Testing

/// With "Show full articles" on, the apps that sync get the whole article as an item's content;
/// with it off (another reader of the same feed), the feed's own summary.
@Suite struct SyncFullArticleTests {
    @Test func feverServesTheArticleToAReaderWhoReadsTheFeedAsFullArticles() async throws {
        try await withKioskApp { kiosk in
            let account = try await kiosk.dependencies.accounts.add(name: "reeder", password: "fever-password", isAdmin: false)
            let app = try await kiosk.dependencies.accounts.createAppPassword(name: "iPad", user: account.id)
            let key = Insecure.MD5.hash(data: Data("reeder:\(app.secret)".utf8)).map { String(format: "%02x", $0) }.joined()
            try await kiosk.store.saveSourceState(
                SourceState(entries: [Entry(id: "one", title: "One", link: "https://example.com/1", summary: "Just a summary.")]),
                for: .business)
            let entry = try #require(try await kiosk.store.readingList(EntryFilter(sources: [.business]), user: account.id).first)
            let article = ReaderArticle(
                title: "One", html: "<p>The whole <em>article</em>, every word.</p><script>alert(1)</script>",
                text: "The whole article, every word.", wordCount: 5)
            try await kiosk.store.saveArticle(StoredArticle(.found(article), url: "https://example.com/1", fetchedAt: Date()), entry: entry.id)

            try await kiosk.run { client, _ in
                func html() async throws -> String {
                    let response = try await client.execute(
                        uri: "/api/fever?api&items&with_ids=\(entry.id)", method: .post,
                        headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "api_key=\(key)"))
                    let json = try #require(try JSONSerialization.jsonObject(with: response.data) as? [String: Any])
                    let items = try #require(json["items"] as? [[String: Any]])
                    return try #require(items.first?["html"] as? String)
                }
                #expect(try await html().contains("Just a summary."))
                try await kiosk.dependencies.reader.update(.business, fullArticles: true, user: account.id)
                let full = try await html()
                #expect(full.contains("The whole <em>article</em>, every word."))
                #expect(!full.contains("<script"))
                #expect(!full.contains("Just a summary."))
            }
        }
    }
}
