import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskModel
import KioskSources
import KioskStore
@testable import KioskWeb
import Testing

/// The Fever API as Reeder and Unread use it: `api_key` = MD5 of `name:password` (the account's
/// or an app password), reads named in the query, marks in the body.
@Suite struct FeverAPITests {
    private static func key(_ name: String, _ password: String) -> String {
        Insecure.MD5.hash(data: Data("\(name):\(password)".utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private func fever(_ client: any TestClientProtocol, _ query: String, key: String, body: String = "") async throws
        -> [String: Any]
    {
        let response = try await client.execute(
            uri: "/api/fever?api" + (query.isEmpty ? "" : "&" + query), method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: "api_key=\(key)" + (body.isEmpty ? "" : "&" + body)))
        #expect(response.status == .ok)
        return try #require(try JSONSerialization.jsonObject(with: response.data) as? [String: Any])
    }

    private func numbers(_ text: Any?) -> [Int64] {
        ((text as? String) ?? "").split(separator: ",").compactMap { Int64($0) }
    }

    @Test func readerAndUnreadSyncThroughFever() async throws {
        try await withKioskApp { kiosk in
            let account = try await kiosk.dependencies.accounts.add(name: "reeder", password: "fever-password", isAdmin: false)
            try await kiosk.store.saveSourceState(
                SourceState(entries: (1...120).map { Entry(id: "urn:\($0)", title: "Story \($0)", link: "https://example.com/\($0)") }),
                for: .business)
            let app = try await kiosk.dependencies.accounts.createAppPassword(name: "iPad", user: account.id)
            let key = Self.key("reeder", app.secret)
            try await kiosk.run { client, _ in
                // A wrong key: auth 0 and nothing else. The account's own password has no Fever
                // key (it would be a fast hash of it): app passwords only.
                let refused = try await fever(client, "items", key: Self.key("reeder", "wrong"))
                #expect(refused["auth"] as? Int == 0 && refused["items"] == nil)
                #expect(refused["api_version"] as? Int == 3)
                #expect(try await fever(client, "", key: Self.key("reeder", "fever-password"))["auth"] as? Int == 0)

                let lists = try await fever(client, "groups&feeds", key: key)
                #expect(lists["auth"] as? Int == 1)
                let groups = try #require(lists["groups"] as? [[String: Any]])
                #expect(groups.map { $0["title"] as? String } == ["News"])
                let feeds = try #require(lists["feeds"] as? [[String: Any]])
                let business = try #require(feeds.first { $0["title"] as? String == "Business" }?["id"] as? Int64)
                let links = try #require(lists["feeds_groups"] as? [[String: Any]])
                let grouped = numbers(links.first?["feed_ids"])
                #expect(grouped.contains(business))

                // Items in pages of 50 after since_id, oldest first, then the rest.
                var since: Int64 = 0
                var seen: [Int64] = []
                for _ in 0..<5 {
                    let page = try await fever(client, "items&since_id=\(since)", key: key)
                    let items = try #require(page["items"] as? [[String: Any]])
                    if items.isEmpty { break }
                    #expect(items.count <= 50)
                    let ids = items.compactMap { $0["id"] as? Int64 }
                    #expect(ids == ids.sorted())
                    seen += ids
                    since = ids.last ?? since
                    #expect(items.allSatisfy { $0["feed_id"] as? Int64 != nil && $0["html"] is String })
                }
                #expect(seen.count == 120)
                let total = try await fever(client, "items&max_id=0", key: key)
                #expect(total["total_items"] as? Int == 120)

                // Marks: an item read, one saved, the feed read before a time.
                var unread = numbers(try await fever(client, "unread_item_ids", key: key)["unread_item_ids"])
                #expect(unread.count == 120)
                _ = try await fever(client, "", key: key, body: "mark=item&as=read&id=\(seen[0])")
                _ = try await fever(client, "", key: key, body: "mark=item&as=saved&id=\(seen[1])")
                unread = numbers(try await fever(client, "unread_item_ids", key: key)["unread_item_ids"])
                #expect(unread.count == 119 && !unread.contains(seen[0]))
                #expect(numbers(try await fever(client, "saved_item_ids", key: key)["saved_item_ids"]) == [seen[1]])
                #expect(try await kiosk.store.unreadCounts(user: account.id)[.business] == 119)
                let now = Int(Date().timeIntervalSince1970) + 5
                _ = try await fever(client, "", key: key, body: "mark=feed&as=read&id=\(business)&before=\(now)")
                #expect(numbers(try await fever(client, "unread_item_ids", key: key)["unread_item_ids"]).isEmpty)
                _ = try await fever(client, "", key: key, body: "mark=item&as=unread&id=\(seen[5])")
                #expect(numbers(try await fever(client, "unread_item_ids", key: key)["unread_item_ids"]) == [seen[5]])

                // Revoked, the app password's key is refused at once.
                try await kiosk.dependencies.accounts.revokeAppPassword(app.password.id, user: account.id)
                #expect(try await fever(client, "", key: key)["auth"] as? Int == 0)
            }
        }
    }
}
