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

/// A rule's hide in the web app: the new entry is in no list, count or sync page but Hidden,
/// is found by search only with `is:hidden`, says on its page that a rule hid it, and can be
/// shown again.
@Suite struct HiddenRouteTests {
    private static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    @Test func aHiddenEntryIsOnlyUnderHiddenAndFoundByIsHidden() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            try await kiosk.run { client, _ in
                #expect(!(try await client.text("/reader")).contains(#"href="/reader/hidden""#))
                let saved = try await client.execute(
                    uri: "/reader/rules", method: .post, headers: Self.form,
                    body: ByteBuffer(string: "query=intitle%3Asponsored&scope=all&hide=on&name=Ads"))
                #expect(saved.status == .seeOther)
                #expect(try await client.text("/reader/rules").contains("Hide"))
                try await kiosk.store.saveSourceState(
                    SourceState(entries: [
                        Entry(id: "h-1", title: "Sponsored: a cruise", summary: "Sail away."),
                        Entry(id: "h-2", title: "Ports reopen", summary: "Ferries sail again."),
                    ]), for: .business)
                for list in ["/reader/all", "/reader/feed/business?show=all", "/reader/starred"] {
                    #expect(!(try await client.text(list)).contains("Sponsored: a cruise"), "\(list)")
                }
                let hidden = try await client.text("/reader/hidden")
                #expect(hidden.contains("Sponsored: a cruise") && !hidden.contains("Ports reopen"))
                #expect(try await client.text("/reader").contains(#"href="/reader/hidden""#))
                // Search finds it only when asked for.
                #expect(!(try await client.text("/discover?q=sail&scope=saved")).contains("Sponsored: a cruise"))
                #expect(try await client.text("/discover?q=sail%20is%3Ahidden&scope=saved").contains("Sponsored: a cruise"))

                let entry = try #require(
                    try await kiosk.store.readingList(EntryFilter(hidden: true), user: .owner).first)
                let path = "/reader/entry/business/\(entry.key)"
                let page = try await client.text(path)
                #expect(page.contains(#"id="hidden-banner""#) && page.contains("A rule hid this entry"))
                // Marked unread while hidden, it stays read: no badge counts what no list shows.
                let unreadBefore = try await kiosk.dependencies.reader.counts(user: .owner).unread[.business]
                _ = try await client.execute(
                    uri: "/reader/read", method: .post, headers: Self.form, body: ByteBuffer(string: "ids=\(entry.id)&read=false"))
                #expect(try await kiosk.dependencies.reader.counts(user: .owner).unread[.business] == unreadBefore)
                let shown = try await client.execute(
                    uri: "/reader/hide", method: .post, headers: Self.form,
                    body: ByteBuffer(string: "ids=\(entry.id)&hidden=false&back=\(path)"))
                #expect(shown.status == .seeOther)
                #expect(try await client.text("/reader/feed/business?show=all").contains("Sponsored: a cruise"))
                #expect(!(try await client.text(path)).contains(#"id="hidden-banner""#))
            }
        }
    }
}
