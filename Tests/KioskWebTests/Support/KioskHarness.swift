import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskDemo
import KioskHTML
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting
@testable import KioskWeb
import Logging
import Testing

/// A whole Kiosk web app for tests: `buildApplication` over an in-memory store, a hub the test
/// feeds by hand (no engine), and the on-demand sources read from the sample server on loopback.
struct KioskHarness: Sendable {
    let hub: EventHub
    let store: SQLiteStore
    let signer: ImageSigner
    /// Where the sample-sources server listens.
    let sampleBase: URL
    var config: AppConfig
    let dependencies: WebDependencies

    /// Builds the app and runs `body` against it (`.router` sends requests straight to the
    /// router; `.live` runs a real server on a free port). The app's services, the live
    /// broadcaster among them, run for the duration; `live` is the broadcaster the app built.
    func run<Value: Sendable>(
        _ setup: TestingSetup = .router,
        _ body: @Sendable (_ client: any TestClientProtocol, _ live: LiveBroadcaster) async throws -> Value
    ) async throws -> Value {
        let (app, live) = composeApplication(config, dependencies: dependencies, logger: .quiet)
        return try await app.test(setup) { client in try await body(client, live) }
    }
}

/// Waits until `live` listens to the hub, so events published from now on reach it as events (not
/// folded into its first snapshot): the broadcaster's own signal, not a count of the hub's
/// subscribers (which the metrics join too).
func waitUntilListening(_ live: LiveBroadcaster) async throws {
    let listening = try await eventually { await live.isListening }
    try #require(listening, "the live broadcaster never listened to the hub")
}

extension Logger {
    /// A logger that says nothing (the tests read what they need from responses).
    static let quiet = Logger(label: "kiosk.webtests") { _ in SwiftLogNoOpLogHandler() }
}

/// Runs `body` with a ``KioskHarness`` over a fresh sample-sources server, then stops the server
/// and the HTTP client (also when `body` throws).
/// - Parameters:
///   - newsAPIKey: the key Discover sends; the sample server only accepts `demo`.
///   - kinds: the kinds of source the app reads and draws; each with a demo sample adds its
///     `demo-<kind>` source to the catalogue, as in demo mode.
///   - siteRules: the per-site rules Full article reads pages with, as `--site-rules` gives them.
func withKioskApp(
    newsAPIKey: String = "demo", kinds: SourceKinds = .builtIn, siteRules: SiteRules? = nil,
    _ body: (KioskHarness) async throws -> Void
) async throws {
    // First: nothing is running yet if it cannot be made.
    let store = try SQLiteStore.inMemoryDatabase()
    let server = DemoServer(
        configuration: DemoConfiguration(latencies: DemoConfiguration.uniform(.milliseconds(5)), evolveEvery: [:]),
        logger: .quiet)
    let serverTask = Task { try await server.run() }
    let base = await server.baseURL()
    let client = HTTPFetcher.makeClient()
    let fetcher = HTTPFetcher(client: client)
    let catalogue = SourceCatalogue.demo(base: base, newsAPIKey: newsAPIKey, kinds: kinds)
    let signer = ImageSigner(key: SymmetricKey(size: .bits256), trusting: catalogue.trustedSources)

    let harness: KioskHarness
    do {
        var config = AppConfig(
            catalogue: catalogue,
            dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-webtests-\(UUID())"))
        config.ownerName = "Test Owner"
        config.port = 0
        // The tests are the local owner, as in demo mode (OwnerAccessTests try the link).
        config.ownerAccess = .loopback
        // The fastest bcrypt: hashing is hummingbird-auth's, and these tests are about the rest.
        config.passwordCost = 4
        // No engine: the tests feed the hub by hand.
        var parts = WebDependencies.Parts(store: store, fetcher: fetcher, signer: signer)
        parts.kinds = kinds
        if let siteRules { parts.extractArticle = WebDependencies.Parts.extractor(siteRules: siteRules) }
        let dependencies = try await WebDependencies.assemble(config, parts, logger: .quiet)
        harness = KioskHarness(
            hub: dependencies.hub, store: store, signer: signer, sampleBase: base, config: config,
            dependencies: dependencies)
    } catch {
        try? await client.shutdown()
        serverTask.cancel()
        _ = await serverTask.result
        throw error
    }

    do {
        try await body(harness)
    } catch {
        try? await client.shutdown()
        serverTask.cancel()
        _ = await serverTask.result
        throw error
    }
    try await client.shutdown()
    serverTask.cancel()
    _ = await serverTask.result
}

extension TestClientProtocol {
    /// `GET uri`.
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }

    /// The body of `GET uri` as text.
    func text(_ uri: String, headers: HTTPFields = [:]) async throws -> String {
        String(buffer: try await get(uri, headers: headers).body)
    }
}

extension TestResponse {
    /// The body as `Data`, for JSON decoding.
    var data: Data { Data(body.readableBytesView) }
}

extension TestClientProtocol {
    /// What a detail page's script sends once the page is open: `POST /opened`.
    func reportOpened(_ path: String, client: String = "00000000-0000-4000-8000-000000000001") async throws -> TestResponse {
        try await execute(
            uri: "/opened", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "kiosk_client=\(client)"],
            body: ByteBuffer(string: "path=" + (path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")))
    }
}
