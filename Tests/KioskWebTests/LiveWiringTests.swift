import Foundation
import KioskModel
import KioskReader
import KioskSettings
import KioskSources
import KioskStore
@testable import KioskWeb
import Logging
import ServiceLifecycle
import Testing

/// The destination guards as `kiosk serve` wires them (`WebDependencies.live`), not as the test
/// harness builds its own fetcher: the feed fetcher and the image fetcher each refuse a name that
/// resolves into this machine's network; allowing private feeds opens the feed fetcher only.
/// (The article fetcher is the image fetcher, `Parts.imageFetcher`; a test of it through a stored
/// entry is still to write.)
@Suite struct LiveWiringTests {
    /// Answers as a hostile DNS server would: a public-looking name pointing at loopback.
    static let resolver: DestinationGuard.Resolver = { host, _ in
        switch host.lowercased() {
        case "inward.example": ["127.0.0.1"]
        default: throw FetchError.network("unknown name")
        }
    }

    /// The live dependencies over a fresh data directory, their services running (the HTTP
    /// clients must be shut down by their service), stopped afterwards.
    static func withLive(allowPrivateFeeds: Bool = false, _ body: (WebDependencies) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-wiring-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var settings = Settings(dataDirectory: directory)
        settings.allowPrivateFeeds = allowPrivateFeeds
        settings.port = 0
        // Sources on a port nobody listens on: the engine's checks fail quietly meanwhile.
        let catalogue = SourceCatalogue.demo(base: try #require(URL(string: "http://127.0.0.1:9")), newsAPIKey: "demo")
        var config = AppConfig(settings: settings, catalogue: catalogue)
        config.passwordCost = 4
        let dependencies = try await WebDependencies.live(config, logger: .quiet, resolve: resolver)
        let group = ServiceGroup(services: dependencies.services, logger: .quiet)
        let running = Task { try await group.run() }
        do {
            try await body(dependencies)
        } catch {
            await group.triggerGracefulShutdown()
            _ = await running.result
            throw error
        }
        await group.triggerGracefulShutdown()
        _ = await running.result
    }

    @Test func everyFetcherRefusesANameThatResolvesInward() async throws {
        try await Self.withLive { live in
            do throws(FeedFinderError) {
                _ = try await live.reader.find("http://inward.example:8123/feed.xml")
                Issue.record("the feed fetcher fetched a name that resolves to loopback")
            } catch {
                guard case .addressRefused(let why) = error else {
                    Issue.record("the feed fetcher failed otherwise: \(error)")
                    return
                }
                #expect(why.contains("127.0.0.1"), "\(why)")
            }
            let image = try #require(URL(string: "http://inward.example:8123/a.png"))
            do throws(ImageError) {
                _ = try await live.images.image(for: image)
                Issue.record("the image fetcher fetched a name that resolves to loopback")
            } catch {
                guard case .fetch(.refused(let why)) = error else {
                    Issue.record("the image fetcher failed otherwise: \(error)")
                    return
                }
                #expect(why.contains("127.0.0.1"), "\(why)")
            }
        }
    }

    @Test func allowingPrivateFeedsOpensTheFeedFetcherOnly() async throws {
        try await Self.withLive(allowPrivateFeeds: true) { live in
            do throws(FeedFinderError) {
                _ = try await live.reader.find("http://inward.example:9/feed.xml")
                Issue.record("nothing listens there, yet a feed was found")
            } catch {
                if case .addressRefused(let why) = error { Issue.record("private feeds are allowed, yet: \(why)") }
            }
            let image = try #require(URL(string: "http://inward.example:9/a.png"))
            do throws(ImageError) {
                _ = try await live.images.image(for: image)
                Issue.record("the image fetcher fetched a name that resolves to loopback")
            } catch {
                guard case .fetch(.refused) = error else {
                    Issue.record("images must stay refused whatever feeds may do: \(error)")
                    return
                }
            }
        }
    }
}
