import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskModel
import KioskSources
import KioskStore
import Synchronization
import Testing

@testable import KioskWeb

/// `/media`, "Load media through Kiosk": the demo episode streamed through Kiosk with the
/// player's ranges (the first bytes, the middle, the end), only for URLs the player signed for
/// media, a few streams per account at once, and the player and Settings that choose it.
@Suite struct MediaRouteTests {
    private static func episodeURL(_ kiosk: KioskHarness) -> String {
        kiosk.sampleBase.absoluteString + "/podcasts/media/episode-1.mp3"
    }

    private static func direct(_ kiosk: KioskHarness, range: String? = nil) async throws -> (HTTPFields, [UInt8]) {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        var request = HTTPClientRequest(url: episodeURL(kiosk))
        if let range { request.headers.add(name: "Range", value: range) }
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            var fields = HTTPFields()
            for header in response.headers {
                if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
            }
            try await client.shutdown()
            return (fields, Array(body.readableBytesView))
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    @Test func theEpisodeStreamsThroughKioskWholeAndByRange() async throws {
        try await withKioskApp { kiosk in
            let path = try #require(kiosk.signer.mediaPath(for: Self.episodeURL(kiosk)))
            #expect(path.hasPrefix("/media?u="))
            let (_, whole) = try await Self.direct(kiosk)
            #expect(whole.count > 1_000)
            try await kiosk.run { client, _ in
                let response = try await client.get(path)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "audio/mpeg")
                #expect(response.headers[.acceptRanges] == "bytes")
                #expect(response.headers[.contentLength] == String(whole.count))
                #expect(Array(response.body.readableBytesView) == whole)
                // Nothing of the publisher's caching or cookies: the account's own choice.
                #expect(response.headers[.cacheControl] == "private, max-age=3600")
                SecurityHeadersRouteTests.expectSecurityHeaders(response, path)

                let count = whole.count
                for (range, first, last) in [("bytes=0-99", 0, 99), ("bytes=500-1499", 500, 1499), ("bytes=-200", count - 200, count - 1)] {
                    let part = try await client.get(path, headers: [.range: range])
                    #expect(part.status == .partialContent, "\(range)")
                    #expect(part.headers[.contentRange] == "bytes \(first)-\(last)/\(count)", "\(range)")
                    #expect(Array(part.body.readableBytesView) == Array(whole[first...last]), "\(range)")
                }
                let beyond = try await client.get(path, headers: [.range: "bytes=\(count + 10)-"])
                #expect(beyond.status == .rangeNotSatisfiable)
            }
        }
    }

    /// A signature is for one purpose: an image's never opens the media proxy (which has no
    /// size cap), nor a media file's the image proxy.
    @Test func onlyAMediaSignatureOpensTheMediaProxy() async throws {
        try await withKioskApp { kiosk in
            let url = Self.episodeURL(kiosk)
            let query = ImageRouteTests.query("u", url)
            let image = ImageRouteTests.query("s", kiosk.signer.signature(url))
            let media = ImageRouteTests.query("s", kiosk.signer.signature(url, for: .media))
            try await kiosk.run { client, _ in
                let statuses = [
                    try await client.get("/media?\(query)&\(image)").status, try await client.get("/media?\(query)").status,
                    try await client.get("/media?\(query)&\(media)").status,
                    // The image proxy refuses the media signature as well.
                    try await client.get("/img?\(query)&\(media)").status,
                ]
                #expect(statuses == [.forbidden, .forbidden, .ok, .forbidden])
            }
        }
    }

    /// A HEAD opens nothing: players only GET.
    @Test func aHeadRequestOpensNothing() async throws {
        try await withKioskApp { kiosk in
            let opened = Mutexed(false)
            var dependencies = kiosk.dependencies
            dependencies.mediaSource = MediaSource { _, _, _ in
                opened.set()
                return StreamedMedia(status: 200, body: .bytes(ByteBuffer(string: "x")))
            }
            let app = buildApplication(kiosk.config, dependencies: dependencies, logger: .quiet)
            let path = try #require(kiosk.signer.mediaPath(for: Self.episodeURL(kiosk)))
            try await app.test(.router) { client in
                let head = try await client.execute(uri: path, method: .head)
                #expect(head.status == .methodNotAllowed)
                #expect(head.headers[.allow] == "GET")
            }
            #expect(!opened.take())
        }
    }

    /// A publisher that fails is a 502 with a sentence, never what it said or why.
    @Test func aFileThatCannotBeHadIsABadGateway() async throws {
        try await withKioskApp { kiosk in
            let path = try #require(kiosk.signer.mediaPath(for: kiosk.sampleBase.absoluteString + "/podcasts/media/missing.mp3"))
            try await kiosk.run { client, _ in
                let response = try await client.get(path, headers: [.accept: "application/json"])
                #expect(response.status == .badGateway)
                #expect(String(buffer: response.body).contains("could not be loaded from its publisher"))
            }
        }
    }

    /// Each account has a few streams at once; one more is a 429 saying when to try again, and
    /// a finished stream gives its place back.
    @Test func anAccountHasAFewStreamsAtOnce() async throws {
        try await withKioskApp { kiosk in
            let (opened, openedSink) = AsyncStream.makeStream(of: Void.self)
            let (chunks, chunkSink) = AsyncStream.makeStream(of: ByteBuffer.self)
            let first = Mutexed(true)
            var dependencies = kiosk.dependencies
            dependencies.mediaSource = MediaSource { _, _, _ in
                openedSink.yield()
                // The first stream waits for the test; later ones end at once.
                let body: HTTPClientResponse.Body =
                    first.take() ? .stream(chunks) : .bytes(ByteBuffer(string: "done"))
                return StreamedMedia(
                    status: 200, contentType: "audio/mpeg", contentLength: nil, contentRange: nil, acceptsRanges: true,
                    etag: nil, lastModified: nil, body: body)
            }
            var config = kiosk.config
            config.settings.mediaStreamsPerAccount = 1
            let app = buildApplication(config, dependencies: dependencies, logger: .quiet)
            let path = try #require(kiosk.signer.mediaPath(for: Self.episodeURL(kiosk)))
            try await app.test(.live) { client in
                // Connections of their own: the test client sends one request at a time.
                let base = "http://127.0.0.1:\(try #require(client.port))"
                let http = HTTPClient(eventLoopGroupProvider: .singleton)
                do {
                    let held = Task { try await http.execute(HTTPClientRequest(url: base + path), timeout: .seconds(60)) }
                    var signals = opened.makeAsyncIterator()
                    _ = await signals.next()
                    let refused = try await http.execute(HTTPClientRequest(url: base + path), timeout: .seconds(30))
                    #expect(refused.status.code == 429)
                    #expect(refused.headers.first(name: "Retry-After") == "2")
                    chunkSink.yield(ByteBuffer(string: "held"))
                    chunkSink.finish()
                    let finished = try await held.value
                    #expect(finished.status.code == 200)
                    #expect(String(buffer: try await finished.body.collect(upTo: 1_000)) == "held")
                    // Its place was given back.
                    let next = try await http.execute(HTTPClientRequest(url: base + path), timeout: .seconds(30))
                    #expect(next.status.code == 200)
                    #expect(String(buffer: try await next.body.collect(upTo: 1_000)) == "done")
                } catch {
                    chunkSink.finish()
                    try? await http.shutdown()
                    throw error
                }
                try await http.shutdown()
            }
        }
    }

    /// The player loads the file through Kiosk when the server says so for everyone, and the
    /// owner (no account) follows the server.
    @Test func thePlayerLoadsThroughKioskWhenTheServerSaysSo() async throws {
        try await withKioskApp { kiosk in
            let entry = Entry(
                id: "ep", title: "An episode", link: "https://pod.example/1",
                enclosures: [Enclosure(url: Self.episodeURL(kiosk), type: "audio/mpeg", length: 1_000)])
            try await kiosk.store.saveSourceState(SourceState(entries: [entry]), for: .business)
            let page = "/reader/entry/business/\(EntryIdentity.key(of: entry))"
            let proxied = try #require(kiosk.signer.mediaPath(for: Self.episodeURL(kiosk)))
            try await kiosk.run { client, _ in
                let direct = try await client.text(page)
                #expect(direct.contains(#"src="\#(Self.episodeURL(kiosk))""#))
                // "Save for offline" keeps the copy through Kiosk (same origin, for the worker).
                #expect(direct.contains(#"data-offline-src="\#(Self.attribute(proxied))""#))
                #expect(direct.contains(#"id="player-offline" aria-pressed="false" hidden>Save for offline</button>"#))
            }
            var config = kiosk.config
            config.settings.mediaThroughKiosk = true
            try await kiosk.runApp(config: config) { client in
                let html = try await client.text(page)
                #expect(html.contains(#"src="\#(Self.attribute(proxied))""#))
            }
        }
    }

    /// "Load media through Kiosk" in Settings: each account's own choice, over the server's.
    @Test func anAccountChoosesInSettingsWhereItsEpisodesPlayFrom() async throws {
        try await withKioskApp { kiosk in
            let entry = Entry(
                id: "ep", title: "An episode", link: "https://pod.example/1",
                enclosures: [Enclosure(url: Self.episodeURL(kiosk), type: "audio/mpeg", length: 1_000)])
            try await kiosk.store.saveSourceState(SourceState(entries: [entry]), for: .business)
            try await kiosk.accounts.add(name: "ada", password: "a long sample password", isAdmin: false)
            let page = "/reader/entry/business/\(EntryIdentity.key(of: entry))"
            let proxied = #"src="\#(Self.attribute(try #require(kiosk.signer.mediaPath(for: Self.episodeURL(kiosk)))))""#
            let direct = #"src="\#(Self.episodeURL(kiosk))""#
            try await kiosk.run { client, _ in
                let ada = try await client.signIn(name: "ada", password: "a long sample password")
                let settings = try await client.text("/settings", headers: ada.pageHeaders)
                #expect(settings.contains(#"id="media-through-kiosk""#))
                #expect(!settings.contains(#"name="through" checked"#))
                #expect(try await client.text(page, headers: ada.pageHeaders).contains(direct))

                let on = try await client.execute(
                    uri: "/settings/media", method: .post, headers: ada.headers(json: false), body: ByteBuffer(string: "through=on"))
                #expect(on.status == .seeOther)
                #expect(try await client.text("/settings", headers: ada.pageHeaders).contains(#"name="through" checked"#))
                #expect(try await client.text(page, headers: ada.pageHeaders).contains(proxied))
                #expect(try await kiosk.store.accounts().first?.mediaThroughKiosk == true)

                let off = try await client.execute(
                    uri: "/settings/media", method: .post, headers: ada.headers(json: false), body: ByteBuffer(string: ""))
                #expect(off.status == .seeOther)
                #expect(try await client.text(page, headers: ada.pageHeaders).contains(direct))
            }
        }
    }

    /// "Keep the next 3 unplayed": a feed's newest episodes not played to the end, each with its page
    /// and its file through Kiosk; the feed's settings offer it only when it has episodes.
    @Test func aFeedsNextUnplayedEpisodesAreListedForADeviceToKeep() async throws {
        try await withKioskApp { kiosk in
            let episodes = (1...5).map { number in
                Entry(
                    id: "ep-\(number)", title: "Episode \(number)", link: "https://pod.example/\(number)",
                    published: Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 3_600),
                    enclosures: [Enclosure(url: "/podcasts/media/episode-\(number).mp3", type: "audio/mpeg")])
            }
            let words = Entry(id: "words", title: "Words", published: Date(timeIntervalSince1970: 1_800_000_000))
            try await kiosk.store.saveSourceState(SourceState(entries: episodes + [words]), for: .business)
            let newest = try #require(
                try await kiosk.store.storedEntry(source: .business, key: EntryIdentity.key(of: episodes[4]), user: .owner))
            // The newest is played to the end; the next one only opened (read), which is no playing.
            _ = try await kiosk.store.savePosition(
                PlaybackPosition(
                    entryID: newest.id, seconds: 60, duration: 60, isPlaying: false, isFinished: true, device: "iPhone",
                    savedAt: Date()),
                user: .owner)
            let opened = try #require(
                try await kiosk.store.storedEntry(source: .business, key: EntryIdentity.key(of: episodes[3]), user: .owner))
            _ = try await kiosk.dependencies.reader.setRead(true, ids: [opened.id], user: .owner)
            try await kiosk.run { client, _ in
                let response = try await client.get("/reader/feed/business/episodes.json")
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "no-store")
                struct List: Decodable {
                    struct Kept: Decodable { var page: String; var media: String }
                    var episodes: [Kept]
                }
                let list = try JSONDecoder().decode(List.self, from: response.data)
                // Episodes 4, 3, 2: the newest not played to the end, with a file (5 is finished, 4
                // read but unplayed, "Words" has no file).
                #expect(list.episodes.map(\.page) == [3, 2, 1].map {
                    "/reader/entry/business/\(EntryIdentity.key(of: episodes[$0]))"
                })
                let resolved = try #require(
                    URL(string: "/podcasts/media/episode-4.mp3", relativeTo: kiosk.sampleBase.appendingPathComponent("reuters/business.xml")))
                #expect(list.episodes.first?.media == kiosk.signer.mediaPath(for: resolved.absoluteString))
                #expect(try await client.get("/reader/feed/nothing/episodes.json").status == .notFound)

                let settings = try await client.text("/reader/feed/business/settings")
                #expect(settings.contains(#"id="keep-episodes" data-feed="business" hidden"#))
                #expect(settings.contains(#"id="feed-keep-episodes""#))
                // A feed without episodes offers nothing to keep.
                #expect(!(try await client.text("/reader/feed/entertainment/settings")).contains("keep-episodes"))
            }
        }
    }

    /// `text` as an attribute's value is written (`&` escaped).
    private static func attribute(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
    }
}

/// A flag several tasks read and clear under a lock.
private final class Mutexed: Sendable {
    private let value: Mutex<Bool>
    init(_ value: Bool) { self.value = Mutex(value) }

    /// The value, cleared.
    func take() -> Bool { value.withLock { value in defer { value = false }; return value } }

    func set() { value.withLock { $0 = true } }
}
