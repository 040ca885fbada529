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

/// Replays NetNewsWire's ReaderAPI account (FreshRSS type) call by call, as its
/// `ReaderAPICaller` and `ReaderAPIAccountDelegate` send them, and decodes every answer with
/// NetNewsWire's own decoders (below, with the strictest field types any shipped version has):
/// a missing field or a number where a string is due fails the whole sync in the app.
@Suite struct GoogleReaderReplayTests {
    // MARK: NetNewsWire's decoders (ReaderAPITag.swift, ReaderAPISubscription.swift,
    // ReaderAPIUnreadEntry.swift, ReaderAPIEntry.swift), required where any version requires.

    struct ReaderAPITagContainer: Decodable { let tags: [ReaderAPITag] }
    struct ReaderAPITag: Decodable {
        let tagID: String
        let type: String?
        enum CodingKeys: String, CodingKey {
            case tagID = "id"
            case type
        }
    }
    struct ReaderAPIQuickAddResult: Decodable {
        let numResults: Int
        let error: String?
        let streamId: String?
    }
    struct ReaderAPISubscriptionContainer: Decodable { let subscriptions: [ReaderAPISubscription] }
    struct ReaderAPISubscription: Decodable {
        let feedID: String
        let name: String?
        let categories: [ReaderAPICategory]
        let feedURL: String  // required in NetNewsWire 6.x
        let homePageURL: String?
        let iconURL: String?
        enum CodingKeys: String, CodingKey {
            case feedID = "id"
            case name = "title"
            case categories
            case feedURL = "url"
            case homePageURL = "htmlUrl"
            case iconURL = "iconUrl"
        }
    }
    struct ReaderAPICategory: Decodable {
        let categoryId: String
        let categoryLabel: String
        enum CodingKeys: String, CodingKey {
            case categoryId = "id"
            case categoryLabel = "label"
        }
    }
    struct ReaderAPIReferenceWrapper: Decodable {
        let itemRefs: [ReaderAPIReference]?
        let continuation: String?
    }
    struct ReaderAPIReference: Decodable {
        let itemId: String  // required in NetNewsWire 6.x
        enum CodingKeys: String, CodingKey { case itemId = "id" }
    }
    struct ReaderAPIEntryWrapper: Decodable {
        let id: String
        let updated: Int
        let entries: [ReaderAPIEntry]
        enum CodingKeys: String, CodingKey {
            case id
            case updated
            case entries = "items"
        }
    }
    struct ReaderAPIEntry: Decodable {
        let articleID: String
        let title: String?
        let author: String?
        let publishedTimestamp: Double?
        let crawledTimestamp: String?
        let timestampUsec: String?
        let summary: ReaderAPIArticleSummary
        let alternates: [ReaderAPIAlternateLocation]  // required in NetNewsWire 6.x
        let categories: [String]
        let origin: ReaderAPIEntryOrigin
        enum CodingKeys: String, CodingKey {
            case articleID = "id"
            case title
            case author
            case summary
            case alternates = "alternate"
            case categories
            case publishedTimestamp = "published"
            case crawledTimestamp = "crawlTimeMsec"
            case origin
            case timestampUsec
        }
        /// NetNewsWire's `uniqueID(variant:)`: the hex after the last `/`, back to decimal.
        var uniqueID: String {
            guard let idPart = articleID.components(separatedBy: "/").last, let number = Int(idPart, radix: 16) else {
                return articleID
            }
            return String(number, radix: 10)
        }
    }
    struct ReaderAPIArticleSummary: Decodable { let content: String? }
    struct ReaderAPIAlternateLocation: Decodable {
        let url: String?
        enum CodingKeys: String, CodingKey { case url = "href" }
    }
    struct ReaderAPIEntryOrigin: Decodable {
        let streamId: String?
        let title: String?
    }

    // MARK: The client

    /// NetNewsWire's transport: the base the user typed, `GoogleLogin auth=` on every call, T
    /// fetched once and sent first in every POST body (raw, as NetNewsWire builds it).
    struct NetNewsWire {
        let client: any TestClientProtocol
        let base = "/api/greader"
        var auth = ""
        var token = ""

        /// Signed in with ClientLogin's `form`, its token fetched: NetNewsWire after adding the account.
        static func signedIn(_ client: any TestClientProtocol, form: String) async throws -> NetNewsWire {
            let login = try await client.execute(
                uri: "/api/greader/accounts/ClientLogin", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: form))
            let auth = try #require(String(buffer: login.body).split(separator: "\n").first { $0.hasPrefix("Auth=") }?.dropFirst(5))
            var nnw = NetNewsWire(client: client)
            nnw.auth = String(auth)
            nnw.token = String(buffer: try await nnw.call(.get, "/reader/api/0/token").body)
            return nnw
        }

        func call(_ method: HTTPRequest.Method, _ path: String, body: String? = nil) async throws -> TestResponse {
            var headers: HTTPFields = [.authorization: "GoogleLogin auth=\(auth)"]
            if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
            return try await client.execute(
                uri: base + path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        }

        func decode<T: Decodable>(_ type: T.Type, _ method: HTTPRequest.Method, _ path: String, body: String? = nil)
            async throws -> T
        {
            let response = try await call(method, path, body: body)
            #expect(response.status == .ok, "\(path)")
            return try JSONDecoder().decode(T.self, from: response.data)
        }

        /// `retrieveItemIDs`: every page, following `c` until there is no continuation.
        func itemIDs(_ query: String) async throws -> (ids: [String], firstDate: String?) {
            var ids: [String] = []
            var continuation: String?
            var firstDate: String?
            var pages = 0
            repeat {
                let path = "/reader/api/0/stream/items/ids?" + query + (continuation.map { "&c=\($0)" } ?? "")
                let response = try await call(.get, path)
                #expect(response.status == .ok)
                if firstDate == nil { firstDate = response.headers[.date] }
                let page = try JSONDecoder().decode(ReaderAPIReferenceWrapper.self, from: response.data)
                let refs = page.itemRefs ?? []
                if pages == 0 && refs.isEmpty { break }
                ids += refs.map(\.itemId)
                continuation = page.continuation
                pages += 1
                #expect(pages < 100, "the continuation never ends")
            } while continuation != nil && pages < 100
            return (ids, firstDate)
        }

        func editTag(_ ids: [Int], _ change: String) async throws {
            // Chunks of 1,000, ids as NetNewsWire writes them here: 16 zero-padded hex digits.
            for start in stride(from: 0, to: ids.count, by: 1_000) {
                let chunk = ids[start..<min(start + 1_000, ids.count)]
                let items = chunk.map { "i=tag:google.com,2005:reader/item/" + String(format: "%.16llx", $0) }
                let response = try await call(
                    .post, "/reader/api/0/edit-tag", body: (["T=\(token)"] + items + [change]).joined(separator: "&"))
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "OK")
            }
        }
    }

    private static let read = "user/-/state/com.google/read"
    private static let starred = "user/-/state/com.google/starred"
    private static let readingList = "user/-/state/com.google/reading-list"

    @Test func netNewsWireSyncsCallByCall() async throws {
        try await withKioskApp { kiosk in
            _ = try await kiosk.dependencies.accounts.add(name: "nnw", password: "sync-password", isAdmin: false)
            // 1,210 entries in Business (two pages of ids at NetNewsWire's n=1000), 3 in Environment.
            let many = (1...1_210).map { Entry(id: "urn:b\($0)", title: "Business \($0)", link: "https://example.com/b\($0)", summary: "<p>Story \($0)</p>") }
            try await kiosk.store.saveSourceState(SourceState(entries: many), for: .business)
            try await kiosk.store.saveSourceState(
                SourceState(entries: (1...3).map { Entry(id: "urn:e\($0)", title: "Environment \($0)") }), for: .environment)
            try await kiosk.run { client, _ in
                var nnw = NetNewsWire(client: client)

                // Sign in: lines split on "\n", then on "=" (exactly two parts), key "Auth".
                let login = try await client.execute(
                    uri: "/api/greader/accounts/ClientLogin", method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "Email=nnw&Passwd=sync-password"))
                #expect(login.status == .ok)
                var fields: [String: String] = [:]
                for line in String(buffer: login.body).split(separator: "\n") {
                    let parts = line.split(separator: "=").map(String.init)
                    #expect(parts.count == 2, "a ClientLogin line NetNewsWire 6 would crash on: \(line)")
                    if parts.count == 2 { fields[parts[0]] = parts[1] }
                }
                nnw.auth = try #require(fields["Auth"])
                let wrong = try await client.execute(
                    uri: "/api/greader/accounts/ClientLogin", method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "Email=nnw&Passwd=nope"))
                #expect(wrong.status == .unauthorized)

                // 1. tag/list, 2. subscription/list: every category is a tag.
                let tags = try await nnw.decode(ReaderAPITagContainer.self, .get, "/reader/api/0/tag/list?output=json")
                let subscriptions = try await nnw.decode(
                    ReaderAPISubscriptionContainer.self, .get, "/reader/api/0/subscription/list?output=json"
                ).subscriptions
                #expect(Set(subscriptions.map(\.feedID)) == ["feed/business", "feed/entertainment", "feed/environment"])
                let tagIDs = Set(tags.tags.map(\.tagID))
                for category in subscriptions.flatMap(\.categories) {
                    #expect(tagIDs.contains(category.categoryId))
                    #expect(category.categoryId == "user/-/label/" + category.categoryLabel)
                }

                // 3. The write token: fetched once, no trailing newline.
                let token = String(buffer: try await nnw.call(.get, "/reader/api/0/token").body)
                #expect(!token.isEmpty && !token.hasSuffix("\n") && !token.contains("="))
                nnw.token = token

                // 4. Everything from the last three months: two pages, decimal ids, a Date header.
                let ot = Int(Date().timeIntervalSince1970) - 90 * 86_400
                let all = try await nnw.itemIDs("n=1000&output=json&ot=\(ot)&s=\(Self.readingList)")
                #expect(all.ids.count == 1_213)
                #expect(all.ids.allSatisfy { Int($0) != nil }, "NetNewsWire does Int(articleID)!")
                let formatter = DateFormatter()
                formatter.dateFormat = "EEEE, dd LLL yyyy HH:mm:ss zzz"
                #expect(all.firstDate.flatMap(formatter.date(from:)) != nil, "NetNewsWire's HTTPDateInfo must read the Date header")

                // 5. Unread and 6. starred ids.
                var unread = try await nnw.itemIDs("n=1000&output=json&s=\(Self.readingList)&xt=\(Self.read)")
                #expect(unread.ids.count == 1_213)
                #expect(try await nnw.itemIDs("n=1000&output=json&s=\(Self.starred)").ids.isEmpty)

                // 7. Contents in chunks of 150, ids as NetNewsWire writes them there (unpadded hex).
                var entries: [ReaderAPIEntry] = []
                let numbers = all.ids.compactMap { Int($0) }
                for start in stride(from: 0, to: numbers.count, by: 150) {
                    let chunk = numbers[start..<min(start + 150, numbers.count)]
                    let body = (["T=\(token)", "output=json"]
                        + chunk.map { "i=tag:google.com,2005:reader/item/" + String($0, radix: 16) }).joined(separator: "&")
                    let page = try await nnw.decode(ReaderAPIEntryWrapper.self, .post, "/reader/api/0/stream/items/contents", body: body)
                    #expect(page.entries.count == chunk.count)
                    entries += page.entries
                }
                #expect(Set(entries.map(\.uniqueID)) == Set(all.ids), "every id comes back as the same number")
                let feedIDs = Set(subscriptions.map(\.feedID))
                #expect(entries.allSatisfy { $0.origin.streamId.map(feedIDs.contains) == true })
                let first = try #require(entries.first { $0.title == "Business 1" })
                #expect(first.summary.content?.contains("Story 1") == true)
                #expect(first.alternates.first?.url == "https://example.com/b1")
                #expect(first.crawledTimestamp.flatMap { Int64($0) } != nil)

                // The pending statuses, in NetNewsWire's order: unread, read, starred, unstarred.
                let business = entries.filter { $0.origin.streamId == "feed/business" }.compactMap { Int($0.uniqueID) }
                try await nnw.editTag(Array(business.prefix(1_100)), "a=\(Self.read)")
                try await nnw.editTag(Array(business.prefix(10)), "r=\(Self.read)")
                try await nnw.editTag(Array(business.prefix(3)), "a=\(Self.starred)")
                try await nnw.editTag(Array(business.prefix(1)), "r=\(Self.starred)")
                unread = try await nnw.itemIDs("n=1000&output=json&s=\(Self.readingList)&xt=\(Self.read)")
                #expect(unread.ids.count == 1_213 - 1_100 + 10)
                #expect(try await nnw.itemIDs("n=1000&output=json&s=\(Self.starred)").ids.count == 2)
                // The web reader sees the same state.
                #expect(try await kiosk.store.unreadCounts(user: UserID(1))[.business] == 1_210 - 1_100 + 10)

                // A bad T is 401 with the bad-token header (NetNewsWire then fetches a new one).
                let stale = try await nnw.call(.post, "/reader/api/0/edit-tag", body: "T=stale&i=1&a=\(Self.read)")
                #expect(stale.status == .unauthorized)
                #expect(stale.headers[HTTPField.Name("X-Reader-Google-Bad-Token")!] == "true")

                // Adding a feed: quickadd, the list names it, then into a folder, then a name.
                let address = kiosk.sampleBase.appendingPathComponent("reuters/business.xml").absoluteString + "?via=nnw"
                let added = try await nnw.decode(
                    ReaderAPIQuickAddResult.self, .post, "/reader/api/0/subscription/quickadd",
                    body: "T=\(token)&quickadd=" + (address.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
                #expect(added.numResults == 1)
                let stream = try #require(added.streamId)
                var listed = try await nnw.decode(
                    ReaderAPISubscriptionContainer.self, .get, "/reader/api/0/subscription/list?output=json"
                ).subscriptions
                // NetNewsWire's FreshRSS account keeps every feed in a folder: a top-level feed is
                // in "Uncategorized" (as FreshRSS's default category), and that label is a tag.
                let fresh = try #require(listed.first { $0.feedID == stream })
                #expect(fresh.categories.map(\.categoryId) == ["user/-/label/Uncategorized"])
                let withDefault = try await nnw.decode(ReaderAPITagContainer.self, .get, "/reader/api/0/tag/list?output=json")
                #expect(withDefault.tags.map(\.tagID).contains("user/-/label/Uncategorized"))
                for body in ["T=\(token)&s=\(stream)&ac=edit&a=user/-/label/Money%20Matters", "T=\(token)&s=\(stream)&ac=edit&t=Desk"] {
                    let edit = try await nnw.call(.post, "/reader/api/0/subscription/edit", body: body)
                    #expect(String(buffer: edit.body) == "OK")
                }
                listed = try await nnw.decode(
                    ReaderAPISubscriptionContainer.self, .get, "/reader/api/0/subscription/list?output=json"
                ).subscriptions
                let desk = try #require(listed.first { $0.feedID == stream })
                #expect(desk.name == "Desk")
                #expect(desk.categories.map(\.categoryId) == ["user/-/label/Money Matters"])
                let tagsNow = try await nnw.decode(ReaderAPITagContainer.self, .get, "/reader/api/0/tag/list?output=json")
                #expect(tagsNow.tags.map(\.tagID).contains("user/-/label/Money Matters"))

                // Rename the folder, move the feed back to News, unsubscribe it.
                for body in [
                    "T=\(token)&s=user/-/label/Money Matters&dest=user/-/label/Finance",
                ] {
                    #expect(String(buffer: try await nnw.call(.post, "/reader/api/0/rename-tag", body: body).body) == "OK")
                }
                let move = "T=\(token)&s=\(stream)&ac=edit&r=user/-/label/Finance&a=user/-/label/News"
                #expect(String(buffer: try await nnw.call(.post, "/reader/api/0/subscription/edit", body: move).body) == "OK")
                listed = try await nnw.decode(
                    ReaderAPISubscriptionContainer.self, .get, "/reader/api/0/subscription/list?output=json"
                ).subscriptions
                #expect(listed.first { $0.feedID == stream }?.categories.map(\.categoryLabel) == ["News"])
                // Filed in "Uncategorized": back to the top level; renaming that label files the
                // top-level feeds.
                let toTop = "T=\(token)&s=\(stream)&ac=edit&r=user/-/label/News&a=user/-/label/Uncategorized"
                #expect(String(buffer: try await nnw.call(.post, "/reader/api/0/subscription/edit", body: toTop).body) == "OK")
                #expect(try await kiosk.store.subscriptions(user: UserID(1)).first { "feed/" + $0.id.rawValue == stream }?.folder == nil)
                let fileTop = "T=\(token)&s=user/-/label/Uncategorized&dest=user/-/label/Desks"
                #expect(String(buffer: try await nnw.call(.post, "/reader/api/0/rename-tag", body: fileTop).body) == "OK")
                #expect(try await kiosk.store.subscriptions(user: UserID(1)).first { "feed/" + $0.id.rawValue == stream }?.folder == "Desks")
                let gone = "T=\(token)&s=\(stream)&ac=unsubscribe"
                #expect(String(buffer: try await nnw.call(.post, "/reader/api/0/subscription/edit", body: gone).body) == "OK")
                listed = try await nnw.decode(
                    ReaderAPISubscriptionContainer.self, .get, "/reader/api/0/subscription/list?output=json"
                ).subscriptions
                #expect(!listed.contains { $0.feedID == stream })
            }
        }
    }

    @Test func listsCarryValidatorsAndEveryIdFormIsAccepted() async throws {
        try await withKioskApp { kiosk in
            _ = try await kiosk.dependencies.accounts.add(name: "ids", password: "sync-password", isAdmin: false)
            try await kiosk.store.saveSourceState(
                SourceState(entries: (1...3).map { Entry(id: "urn:\($0)", title: "Entry \($0)") }), for: .business)
            try await kiosk.run { client, _ in
                let nnw = try await NetNewsWire.signedIn(client, form: "Email=ids&Passwd=sync-password&service=reader&accountType=HOSTED_OR_GOOGLE")
                let auth = nnw.auth

                // ETag and 304; an edit changes the subscription list's ETag.
                let list = try await nnw.call(.get, "/reader/api/0/subscription/list?output=json")
                let tag = try #require(list.headers[.eTag])
                let again = try await client.execute(
                    uri: "/api/greader/reader/api/0/subscription/list?output=json", method: .get,
                    headers: [.authorization: "GoogleLogin auth=\(auth)", .ifNoneMatch: tag])
                #expect(again.status == .notModified)
                _ = try await nnw.call(.post, "/reader/api/0/subscription/edit", body: "T=\(nnw.token)&s=feed/business&ac=edit&t=Markets")
                let edited = try await nnw.call(.get, "/reader/api/0/subscription/list?output=json")
                #expect(edited.headers[.eTag] != tag)

                // A change undone before the next sync leaves the same list, but never the same
                // validator (main: the old ETag got 304, and NetNewsWire, taking that as "no
                // list", lost the feed it had re-added).
                struct Listed: Decodable {
                    struct Item: Decodable { var id: String; var title: String }
                    var subscriptions: [Item]
                }
                let original = try JSONDecoder().decode(Listed.self, from: Data(buffer: list.body))
                let title = try #require(original.subscriptions.first { $0.id == "feed/business" }?.title)
                let tags = try await nnw.call(.get, "/reader/api/0/tag/list?output=json")
                let tagsTag = try #require(tags.headers[.eTag])
                _ = try await nnw.call(
                    .post, "/reader/api/0/subscription/edit",
                    body: "T=\(nnw.token)&s=feed/business&ac=edit&t=\(title.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? title)")
                let undone = try await client.execute(
                    uri: "/api/greader/reader/api/0/subscription/list?output=json", method: .get,
                    headers: [.authorization: "GoogleLogin auth=\(auth)", .ifNoneMatch: tag])
                #expect(undone.status == .ok)
                #expect(undone.body == list.body, "the list is the one first sent")
                #expect(undone.headers[.eTag] != tag)
                let tagsAgain = try await client.execute(
                    uri: "/api/greader/reader/api/0/tag/list?output=json", method: .get,
                    headers: [.authorization: "GoogleLogin auth=\(auth)", .ifNoneMatch: tagsTag])
                #expect(tagsAgain.status == .ok)
                // Nothing changed since: 304 again.
                let unchanged = try await client.execute(
                    uri: "/api/greader/reader/api/0/subscription/list?output=json", method: .get,
                    headers: [.authorization: "GoogleLogin auth=\(auth)", .ifNoneMatch: try #require(undone.headers[.eTag])])
                #expect(unchanged.status == .notModified)

                // Long padded, long unpadded, short hex and decimal all name the same entries.
                let ids = try await nnw.itemIDs("n=10&s=\(Self.readingList)").ids.compactMap { Int($0) }.sorted()
                #expect(ids.count == 3)
                let forms = [
                    "i=tag:google.com,2005:reader/item/" + String(format: "%.16llx", ids[0]),
                    "i=tag:google.com,2005:reader/item/" + String(ids[1], radix: 16),
                    "i=" + String(format: "%.16llx", ids[2]),
                ]
                _ = try await nnw.call(.post, "/reader/api/0/edit-tag", body: (["T=\(nnw.token)"] + forms + ["a=\(Self.read)"]).joined(separator: "&"))
                #expect(try await nnw.itemIDs("n=10&s=\(Self.readingList)&xt=\(Self.read)").ids.isEmpty)
                _ = try await nnw.call(.post, "/reader/api/0/edit-tag", body: "T=\(nnw.token)&i=\(ids[0])&r=\(Self.read)")
                #expect(try await nnw.itemIDs("n=10&s=\(Self.readingList)&xt=\(Self.read)").ids == [String(ids[0])])

                // Pages of 1 follow the continuation; the last page has none.
                let paged = try await nnw.itemIDs("n=1&s=\(Self.readingList)")
                #expect(paged.ids.count == 3)

                // No token, or a made-up one: 401 with the bad-token header, never 400.
                for headers: HTTPFields in [[:], [.authorization: "GoogleLogin auth=made-up"]] {
                    let refused = try await client.execute(
                        uri: "/api/greader/reader/api/0/subscription/list?output=json", method: .get, headers: headers)
                    #expect(refused.status == .unauthorized)
                    #expect(refused.headers[HTTPField.Name("X-Reader-Google-Bad-Token")!] == "true")
                }
            }
        }
    }

    /// NetNewsWire adds a feed with quickadd, then asks for the subscription list with the ETag
    /// it holds, and looks for the new stream in the answer. A feed the account already has (a
    /// News feed, which cannot be unsubscribed) changed nothing, so the list answered 304 and
    /// NetNewsWire reported the feed as not found: the add must give the list a new validator.
    /// FreshRSS sends an item's files as `enclosure` (`href`, `type`, `length`); Reeder and other
    /// clients that play podcasts list them from there, and newsboat's Atom gets `rel="enclosure"`.
    @Test func anEpisodeReachesClientsWithItsEnclosure() async throws {
        struct Contents: Decodable {
            struct Item: Decodable {
                struct File: Decodable, Equatable {
                    var href: String
                    var type: String?
                    var length: Int?
                }
                var title: String
                var enclosure: [File]?
            }
            var items: [Item]
        }
        try await withKioskApp { kiosk in
            let episode = Entry(
                id: "ep-1", title: "Episode 1", published: Date(timeIntervalSince1970: 1_700_000_100), summary: "Notes",
                enclosures: [Enclosure(url: "media/ep1.mp3", type: "audio/mpeg", length: 1234)],
                media: [Enclosure(url: "https://v.example/ep1.webm", medium: "video")])
            let plain = Entry(id: "plain", title: "Plain", published: Date(timeIntervalSince1970: 1_700_000_000), summary: "x")
            try await kiosk.store.saveSourceState(SourceState(entries: [episode, plain]), for: .business)
            _ = try await kiosk.dependencies.accounts.add(name: "listener", password: "sync-password", isAdmin: false)
            try await kiosk.run { client, _ in
                let nnw = try await NetNewsWire.signedIn(client, form: "Email=listener&Passwd=sync-password")
                let contents = try await nnw.decode(
                    Contents.self, .get, "/reader/api/0/stream/contents/feed%2Fbusiness?n=10&output=json")
                let feedURL = kiosk.sampleBase.appendingPathComponent("reuters/business.xml")
                let resolved = try #require(URL(string: "media/ep1.mp3", relativeTo: feedURL)).absoluteString
                let item = try #require(contents.items.first { $0.title == "Episode 1" })
                #expect(
                    item.enclosure == [
                        .init(href: resolved, type: "audio/mpeg", length: 1234),
                        .init(href: "https://v.example/ep1.webm", type: "video/*", length: nil),
                    ])
                #expect(contents.items.first { $0.title == "Plain" }?.enclosure == nil)

                let atom = String(buffer: try await nnw.call(.get, "/reader/atom/feed%2Fbusiness?n=10").body)
                #expect(atom.contains(#"<link rel="enclosure" href="\#(resolved)" type="audio/mpeg" length="1234"/>"#), "\(atom.prefix(900))")
                #expect(atom.contains(#"<link rel="enclosure" href="https://v.example/ep1.webm" type="video/*"/>"#))
            }
        }
    }

    @Test func addingAFeedTheAccountAlreadyHasGivesTheListANewValidator() async throws {
        try await withKioskApp { kiosk in
            _ = try await kiosk.dependencies.accounts.add(name: "again", password: "sync-password", isAdmin: false)
            try await kiosk.run { client, _ in
                let nnw = try await NetNewsWire.signedIn(client, form: "Email=again&Passwd=sync-password")
                let auth = nnw.auth
                let list = try await nnw.call(.get, "/reader/api/0/subscription/list?output=json")
                let tag = try #require(list.headers[.eTag])

                let address = kiosk.sampleBase.appendingPathComponent("reuters/business.xml").absoluteString
                let added = try await nnw.decode(
                    ReaderAPIQuickAddResult.self, .post, "/reader/api/0/subscription/quickadd",
                    body: "T=\(nnw.token)&quickadd=" + (address.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
                #expect(added.numResults == 1)
                #expect(added.streamId == "feed/business")

                // NetNewsWire's conditional request for the list it then searches for the stream.
                let after = try await client.execute(
                    uri: "/api/greader/reader/api/0/subscription/list?output=json", method: .get,
                    headers: [.authorization: "GoogleLogin auth=\(auth)", .ifNoneMatch: tag])
                #expect(after.status == .ok, "the list must not be 'not modified' after an add")
                #expect(after.headers[.eTag] != tag)
                let listed = try JSONDecoder().decode(ReaderAPISubscriptionContainer.self, from: after.data).subscriptions
                #expect(listed.contains { $0.feedID == "feed/business" })

                // An edit that asks to subscribe to a feed already followed is a write too.
                let current = try #require(after.headers[.eTag])
                _ = try await nnw.call(.post, "/reader/api/0/subscription/edit", body: "T=\(nnw.token)&s=feed/business&ac=subscribe")
                let resubscribed = try await client.execute(
                    uri: "/api/greader/reader/api/0/subscription/list?output=json", method: .get,
                    headers: [.authorization: "GoogleLogin auth=\(auth)", .ifNoneMatch: current])
                #expect(resubscribed.status == .ok)
            }
        }
    }
}
