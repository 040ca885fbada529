import Foundation
import KioskCore
import KioskModel
import KioskStore
@testable import KioskWeb
import Testing

/// An entry with audio or video shows the player above its text; one without shows none.
@Suite struct EpisodePlayerTests {
    private static let episode = Entry(
        id: "ep-1", title: "Episode 1", published: Date(timeIntervalSince1970: 1_700_000_000), summary: "<p>Notes</p>",
        enclosures: [
            Enclosure(url: "https://pod.example/cover.jpg", type: "image/jpeg"),
            Enclosure(url: "media/ep1.mp3", type: "audio/mpeg", length: 1_000),
        ],
        image: "https://pod.example/ep1.jpg",
        episode: Episode(duration: 3723, number: 12, season: 2, explicit: true))
    private static let video = Entry(
        id: "clip-1", title: "Clip", summary: "A clip",
        media: [Enclosure(url: "https://v.example/clip.webm", type: "video/webm", medium: "video", duration: 95)])
    private static let hostile = Entry(
        id: "bad", title: "Bad", summary: "x", enclosures: [Enclosure(url: "javascript:alert(1)//.mp3", type: "audio/mpeg")])
    private static let plain = Entry(id: "plain", title: "Plain", summary: "Just text")

    @Test func anEpisodeShowsItsPlayerWithWhatTheFeedSaysOfIt() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.store.saveSourceState(
                SourceState(entries: [Self.episode, Self.video, Self.hostile, Self.plain]), for: .business)
            try await kiosk.run { client, _ in
                let feedURL = kiosk.sampleBase.appendingPathComponent("reuters/business.xml")
                let resolved = try #require(URL(string: "media/ep1.mp3", relativeTo: feedURL)).absoluteString

                let html = try await client.text("/reader/entry/business/\(EntryIdentity.key(of: Self.episode))")
                // The audio file, not the image enclosure before it; relative to the feed's URL.
                #expect(html.contains(#"<audio id="player-media" src="\#(resolved)" controls preload="metadata">"#))
                #expect(html.contains("Season 2 · Episode 12 · 1:02:03 · Explicit"))
                #expect(html.contains(#"data-feed="business""#))
                #expect(html.contains(#"data-artwork="/img?u="#), "artwork goes through the image proxy")
                let player = try #require(html.range(of: #"id="player""#))
                let text = try #require(html.range(of: #"id="entry-description""#))
                #expect(player.lowerBound < text.lowerBound)

                let clip = try await client.text("/reader/entry/business/\(EntryIdentity.key(of: Self.video))")
                #expect(clip.contains(#"<video id="player-media" src="https://v.example/clip.webm""#))
                #expect(clip.contains("1:35"))

                for entry in [Self.hostile, Self.plain] {
                    let html = try await client.text("/reader/entry/business/\(EntryIdentity.key(of: entry))")
                    #expect(!html.contains(#"id="player""#), "\(entry.id ?? "")")
                    #expect(!html.contains("javascript:alert"))
                }
            }
        }
    }

    private static func withChapters(id: String, _ link: MediaLink) -> Entry {
        var entry = episode
        entry.id = id
        entry.episode?.chapters = link
        return entry
    }

    @Test func anEpisodesChaptersAreFetchedThroughKioskForItsPlayer() async throws {
        try await withKioskApp { kiosk in
            let chapters = kiosk.sampleBase.appendingPathComponent("podcasts/episode-1.chapters.json").absoluteString
            let missing = kiosk.sampleBase.appendingPathComponent("podcasts/nothing.json").absoluteString
            let withChapters = Self.withChapters(id: "ep-chapters", MediaLink(url: chapters, type: "application/json+chapters"))
            let broken = Self.withChapters(id: "ep-broken", MediaLink(url: missing))
            try await kiosk.store.saveSourceState(SourceState(entries: [withChapters, broken, Self.episode]), for: .business)
            try await kiosk.run { client, _ in
                let path = "/reader/entry/business/\(EntryIdentity.key(of: withChapters))"
                #expect(try await client.text(path).contains(#"data-src="\#(path)/chapters""#))
                let answer = try await client.get(path + "/chapters")
                #expect(answer.status == .ok)
                let json = try #require(try JSONSerialization.jsonObject(with: answer.data) as? [String: Any])
                let titles = (json["chapters"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
                #expect(titles == ["Welcome", "Skips and speed", "Goodbye"])

                let failed = try await client.get("/reader/entry/business/\(EntryIdentity.key(of: broken))/chapters")
                #expect(failed.status == .badGateway)
                #expect(String(decoding: failed.data, as: UTF8.self).contains("No chapters"))

                // An episode without chapters has no list and no such address.
                let plain = "/reader/entry/business/\(EntryIdentity.key(of: Self.episode))"
                #expect(!(try await client.text(plain)).contains(#"id="chapters""#))
                #expect(try await client.get(plain + "/chapters").status == .notFound)
            }
        }
    }

    @Test func anEpisodesTimedTranscriptIsFetchedThroughKiosk() async throws {
        try await withKioskApp { kiosk in
            let vtt = kiosk.sampleBase.appendingPathComponent("podcasts/episode-1.vtt").absoluteString
            var entry = Self.episode
            entry.id = "ep-transcript"
            entry.episode?.transcripts = [
                MediaLink(url: "https://pod.example/ep1.txt", type: "text/plain"),
                MediaLink(url: vtt, type: "text/vtt", language: "en"),
            ]
            let withTranscript = entry
            try await kiosk.store.saveSourceState(SourceState(entries: [withTranscript, Self.episode]), for: .business)
            try await kiosk.run { client, _ in
                let path = "/reader/entry/business/\(EntryIdentity.key(of: withTranscript))"
                #expect(try await client.text(path).contains(#"data-src="\#(path)/transcript""#))
                let answer = try await client.get(path + "/transcript")
                #expect(answer.status == .ok)
                let json = try #require(try JSONSerialization.jsonObject(with: answer.data) as? [String: Any])
                let cues = try #require(json["cues"] as? [[String: Any]])
                #expect(cues.count == 5)
                #expect(cues.first?["text"] as? String == "Welcome to the Kiosk demo podcast.")
                // Untimed transcripts only: nothing to follow.
                let plain = "/reader/entry/business/\(EntryIdentity.key(of: Self.episode))"
                #expect(try await client.get(plain + "/transcript").status == .notFound)
            }
        }
    }

    @Test func pagesMayPlayMediaFromPublishersButNothingElse() {
        let policy = SecurityHeadersMiddleware.contentSecurityPolicy
        #expect(policy.contains("media-src 'self' https: http:"))
        #expect(policy.contains("script-src 'self'") && policy.contains("object-src 'none'"))
    }

    @Test(arguments: [(0, "0:00"), (95, "1:35"), (3723, "1:02:03"), (36_000, "10:00:00")])
    func durationsReadAsClocks(seconds: Int, text: String) {
        #expect(EpisodePlayer.clock(seconds) == text)
    }
}
