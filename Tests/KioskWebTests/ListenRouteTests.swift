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

/// Your place in an episode, everywhere: the player posts it, the episode's page on any device
/// resumes there and says where ("Paused at 23:10 on iPhone"), the account's other pages hear
/// it live, an episode played to its end counts as read, and "Listen" lists what is in progress
/// and unplayed, newest first, with the time left.
@Suite struct ListenRouteTests {
    private static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"

    private static func episode(_ number: Int, minutes: Int, hoursAgo: Double) -> Entry {
        Entry(
            id: "ep-\(number)", title: "Episode \(number)", link: "https://pod.example/\(number)",
            published: Date(timeIntervalSinceNow: -hoursAgo * 3_600), summary: "Notes \(number).",
            enclosures: [Enclosure(url: "https://pod.example/\(number).mp3", type: "audio/mpeg", length: 1_000)],
            episode: Episode(duration: minutes * 60))
    }

    private static let old = episode(1, minutes: 60, hoursAgo: 48)
    private static let new = episode(2, minutes: 30, hoursAgo: 1)
    private static let middle = episode(3, minutes: 45, hoursAgo: 24)
    private static let article = Entry(id: "text", title: "Just words", link: "https://pod.example/text", summary: "Words.")

    private static func save(
        _ client: some TestClientProtocol, _ entry: Entry, _ fields: String, agent: String = iPhone
    ) async throws -> TestResponse {
        try await client.execute(
            uri: "/reader/entry/business/\(EntryIdentity.key(of: entry))/position", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded", .userAgent: agent, .accept: "application/json"],
            body: ByteBuffer(string: fields))
    }

    @Test func aPlaceSavedOnOneDeviceIsWhereTheEpisodeResumesOnAnother() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            try await kiosk.store.saveSourceState(
                SourceState(entries: [Self.old, Self.new, Self.middle, Self.article]), for: .business)
            let changes = await kiosk.dependencies.readerChanges.subscribe()
            try await kiosk.run { client, _ in
                let path = "/reader/entry/business/\(EntryIdentity.key(of: Self.old))"
                let fresh = try await client.text(path)
                #expect(fresh.contains(#"data-position-url="\#(path)/position""#))
                #expect(fresh.contains(#"data-resume="0.0""#))
                #expect(fresh.contains(#"id="player-elsewhere""#) && !fresh.contains("Paused at"))
                #expect(fresh.contains(#"id="player-played""#))

                let saved = try await Self.save(client, Self.old, "seconds=1390.4&duration=3600&playing=false&client=page-1")
                #expect(saved.status == .ok)
                #expect(String(decoding: saved.data, as: UTF8.self).contains(#""device":"iPhone""#))
                // Another device opens it: it resumes there and says where it was left.
                let page = try await client.text(path)
                #expect(page.contains(#"data-resume="1390.4""#))
                #expect(page.contains("Paused at 23:10 on iPhone"))

                // The account's open pages hear it at once (the page that saved it knows its own id).
                var heard: PlaybackPosition?
                var from = ""
                for await change in changes {
                    if case .position(let user, let position, let client) = change {
                        #expect(user == .owner)
                        heard = position
                        from = client
                        break
                    }
                }
                #expect(heard?.seconds == 1390.4 && heard?.device == "iPhone" && from == "page-1")

                // Figures that cannot be a place are refused with a sentence; so is an entry of
                // a feed this account does not follow.
                for bad in ["seconds=-1", "seconds=nan", "seconds=1e12", "seconds=5&duration=0", "seconds=abc"] {
                    #expect(try await Self.save(client, Self.old, bad).status == .badRequest, "\(bad)")
                }
                let missing = try await client.execute(
                    uri: "/reader/entry/nowhere/abc/position", method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "seconds=1"))
                #expect(missing.status == .notFound)
                #expect(try await client.text(path).contains(#"data-resume="1390.4""#))

                // A place queued offline and sent late, taken before the one kept: the newer stays.
                let late = Date().timeIntervalSince1970 - 600
                let stale = try await Self.save(client, Self.old, "seconds=12&duration=3600&at=\(late)")
                #expect(stale.status == .ok)
                #expect(String(decoding: stale.data, as: UTF8.self).contains(#""seconds":1390.4"#))
                #expect(try await client.text(path).contains(#"data-resume="1390.4""#))

                // Listen: in progress and unplayed, newest first, with the time left; no article.
                #expect(try await Self.save(client, Self.middle, "seconds=600&duration=2700&playing=true").status == .ok)
                let listen = try await client.text("/reader/listen")
                let order = ["Episode 2", "Episode 3", "Episode 1"].compactMap { listen.range(of: $0)?.lowerBound }
                #expect(order.count == 3 && order == order.sorted())
                #expect(!listen.contains("Just words"))
                #expect(listen.contains("Unplayed · 30:00"))
                #expect(listen.contains("36:50 left of 1:00:00 · on iPhone"))
                #expect(listen.contains("35:00 left of 45:00 · on iPhone"))
                #expect(try await client.text("/reader").contains(#"href="/reader/listen""#))

                // Played to its last seconds: read, and out of Listen; opened again it starts over.
                let end = try await Self.save(
                    client, Self.old, "seconds=3590&duration=3600&playing=true",
                    agent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36")
                #expect(String(decoding: end.data, as: UTF8.self).contains(#""finished":true"#))
                let entry = try #require(try await kiosk.store.storedEntry(
                    source: .business, key: EntryIdentity.key(of: Self.old), user: .owner))
                #expect(entry.isRead)
                #expect(!(try await client.text("/reader/listen")).contains("Episode 1"))
                let again = try await client.text(path)
                #expect(again.contains(#"data-resume="0.0""#) && again.contains("Played to the end on Chrome on Linux"))
                // "Mark as played" from a player: finished wherever it was.
                #expect(try await Self.save(client, Self.middle, "seconds=5&finished=true").status == .ok)
                #expect(!(try await client.text("/reader/listen")).contains("Episode 3"))
            }
        }
    }

    @Test func aShortClipIsNotFinishedAsSoonAsItStarts() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            let clip = Entry(
                id: "clip", title: "Clip", link: "https://pod.example/clip", summary: "A clip.",
                enclosures: [Enclosure(url: "https://pod.example/clip.mp3", type: "audio/mpeg")])
            try await kiosk.store.saveSourceState(SourceState(entries: [clip]), for: .business)
            try await kiosk.run { client, _ in
                let started = try await Self.save(client, clip, "seconds=4&duration=19.3&playing=true")
                #expect(String(decoding: started.data, as: UTF8.self).contains(#""finished":false"#))
                let ended = try await Self.save(client, clip, "seconds=18&duration=19.3")
                #expect(String(decoding: ended.data, as: UTF8.self).contains(#""finished":true"#))
            }
        }
    }

    @Test(arguments: [
        (ListenRouteTests.iPhone, "iPhone"),
        ("Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1", "iPad"),
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36", "Android phone"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 Version/17.1 Safari/605.1.15", "Safari on Mac"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0", "Firefox on Windows"),
        ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/142.0 Safari/537.36 Edg/142.0", "Edge on Linux"),
        ("<script>alert(1)</script>", "another device"),
        ("", "another device"),
    ])
    func devicesAreNamedAsTheirOwnersCallThem(agent: String, name: String) {
        #expect(DeviceName.from(userAgent: agent) == name)
    }
}
