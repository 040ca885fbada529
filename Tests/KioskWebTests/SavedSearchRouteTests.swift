import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskModel
import KioskReader
import KioskSources
import KioskStore
@testable import KioskWeb
import Testing

/// Saved searches in the reader: "Save this search" makes a reading list under Starred with its
/// own unread count (in `/reader/counts`, which the pages reread on every live change), its page
/// lists what the query matches, and it can be deleted.
@Suite struct SavedSearchRouteTests {
    private static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    /// A saved search whose newest word matches are all read still counts its older unread ones
    /// (the index hands over the newest 300 matches, read or not).
    @Test func aSearchCountsUnreadMatchesOlderThanItsNewestReadOnes() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            let entries = (0..<400).map { Entry(id: "w-\($0)", title: "Storm report \($0)", summary: "Wind.") }
            try await kiosk.store.saveSourceState(SourceState(entries: entries), for: .business)
            let all = try await kiosk.store.readingList(EntryFilter(limit: 1_000), user: .owner)
            #expect(all.count == 400)
            // The 350 newest read: 50 unread left, all older than any read one.
            _ = try await kiosk.store.setRead(true, ids: Array(all.prefix(350)).map(\.id), user: .owner)
            let searches = SavedSearches(store: kiosk.store)
            let search = try await searches.save("storm", user: .owner)
            let subscriptions = try await kiosk.dependencies.reader.subscriptions(user: .owner)
            let counts = try await searches.unreadCounts(user: .owner, subscriptions: subscriptions)
            #expect(counts[search.id] == 50)
            let unread = try #require(
                try await searches.entries(of: search, user: .owner, subscriptions: subscriptions, unreadOnly: true))
            #expect(Set(unread.map(\.id)) == Set(all.suffix(50).map(\.id)))
            #expect(unread.map(\.id) == all.suffix(50).map(\.id))
            try await kiosk.run { client, _ in
                // Its page's title counts its own unread entries.
                let page = try await client.text(ReaderLinks.search(search.id))
                #expect(page.contains("<title>(50) storm"))
                // At its cap it reads 100...
                _ = try await kiosk.store.setRead(false, ids: all.suffix(100).map(\.id), user: .owner)
                #expect(try await client.text(ReaderLinks.search(search.id)).contains("<title>(100) storm"))
                // ... past it, "100+" (it was not counted further); All unread is
                // 400, which the title of every other list shows.
                _ = try await kiosk.store.setRead(false, ids: all.map(\.id), user: .owner)
                #expect(try await client.text(ReaderLinks.search(search.id)).contains("<title>(100+) storm"))
                let home = try await client.text("/reader")
                #expect(home.contains(#"data-count-for="search:\#(search.id)" aria-label="100+ unread">100+<"#))
            }
        }
    }

    @Test func aSavedSearchIsAReadingListWithItsOwnUnreadCount() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            let entries = [
                Entry(id: "s-1", title: "Storm hits the coast", summary: "Winds closed the port."),
                Entry(id: "s-2", title: "Port reopens after storm", summary: "Ferries sail again."),
                Entry(id: "s-3", title: "Markets calm", summary: "Nothing about weather."),
            ]
            try await kiosk.store.saveSourceState(SourceState(entries: entries), for: .business)
            try await kiosk.run { client, _ in
                // Discover offers to save a saved-news query that reads, and only such a one.
                let discover = try await client.text("/discover?q=intitle%3Astorm&scope=saved")
                let saveForm = try #require(HTMLInspection.element(id: "save-search", in: discover))
                #expect(!saveForm.contains(" hidden"))
                let broken = try await client.text("/discover?q=%22storm&scope=saved")
                #expect(try #require(HTMLInspection.element(id: "save-search", in: broken)).contains(" hidden"))

                let saved = try await client.execute(
                    uri: "/reader/searches", method: .post, headers: Self.form, body: ByteBuffer(string: "q=intitle%3Astorm"))
                #expect(saved.status == .seeOther)
                let location = try #require(saved.headers[.location])
                #expect(location.hasPrefix("/reader/search/"))
                let id = try #require(location.split(separator: "/").last.map(String.init))

                let list = try await client.text(location)
                #expect(list.contains("Storm hits the coast") && list.contains("Port reopens after storm"))
                #expect(!list.contains("Markets calm"))
                #expect(!list.contains(#"id="mark-all-read""#))

                let home = try await client.text("/reader")
                #expect(home.contains(#"href="/reader/search/\#(id)""#))
                #expect(home.contains(#"data-count-for="search:\#(id)""#))
                struct Counts: Decodable { var searches: [String: Int] }
                func count() async throws -> Int? {
                    try JSONDecoder().decode(Counts.self, from: try await client.get("/reader/counts").data).searches[id]
                }
                #expect(try await count() == 2)
                // Reading one of its entries lowers its count.
                let first = try #require(
                    try await kiosk.store.storedEntry(source: .business, key: EntryIdentity.key(of: entries[0]), user: .owner))
                _ = try await kiosk.store.setRead(true, ids: [first.id], user: .owner)
                #expect(try await count() == 1)
                let unreadOnly = try await client.text(location + "?show=unread")
                #expect(!unreadOnly.contains("Storm hits the coast") && unreadOnly.contains("Port reopens after storm"))

                // A query that does not read is not saved, and says why.
                let refused = try await client.execute(
                    uri: "/reader/searches", method: .post, headers: Self.form, body: ByteBuffer(string: "q=%22storm"))
                #expect(refused.status == .badRequest)
                #expect(String(buffer: refused.body).contains("closing quote missing"))

                let deleted = try await client.execute(uri: "/reader/search/\(id)/delete", method: .post, headers: Self.form)
                #expect(deleted.status == .seeOther)
                #expect(try await client.get(location).status == .notFound)
                #expect(!(try await client.text("/reader")).contains("/reader/search/\(id)"))
            }
        }
    }
}
