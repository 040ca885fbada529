import AsyncHTTPClient
import Foundation
import KioskDemo
import Logging
import NIOCore
import NIOHTTP1

/// Runs a real ``DemoServer`` on a loopback port for the duration of a test, with an HTTP client.
struct DemoHarness: Sendable {
    let server: DemoServer
    let base: URL
    let client: HTTPClient

    var control: DemoControl { server.control }

    /// Sources answer at once and feeds only change through `addEntry`, so tests that do not
    /// measure time do not spend any.
    static let fast = DemoConfiguration(latencies: DemoConfiguration.uniform(.zero), evolveEvery: [:])

    /// Starts a server with `configuration`, runs `body`, then stops server and client.
    static func run<T: Sendable>(
        _ configuration: DemoConfiguration = fast,
        clientConfiguration: HTTPClient.Configuration = .init(),
        _ body: @Sendable (DemoHarness) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "kiosk.demo.tests")
        logger.logLevel = .warning
        let server = DemoServer(configuration: configuration, logger: logger)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
        do {
            let result = try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                let harness = DemoHarness(server: server, base: await server.baseURL(), client: client)
                let result = try await body(harness)
                group.cancelAll()
                return result
            }
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// `base` + `path` (path may carry a query).
    /// Whether `value` is the ETag of `source`'s edition `version` (in whatever run of the server).
    static func isETag(_ value: String?, of source: DemoSource, version: Int) -> Bool {
        guard let value else { return false }
        return value.hasPrefix("\"\(source.rawValue)-") && value.hasSuffix("-\(version)\"") && value.count > source.rawValue.count + 6
    }

    /// Whether `id` is the guid of `source`'s `ordinal`-th added entry (in whatever run).
    static func isEntryID(_ id: String?, of source: DemoSource, ordinal: Int) -> Bool {
        guard let id else { return false }
        return id.hasPrefix("urn:kiosk-demo:\(source.rawValue):") && id.hasSuffix("-\(ordinal)")
    }

    func url(_ path: String) -> String {
        base.absoluteString + path
    }

    /// GETs `path` and reads the whole body.
    func get(
        _ path: String, headers: [(String, String)] = [], method: HTTPMethod = .GET, timeout: TimeAmount = .seconds(20)
    ) async throws -> Fetched {
        var request = HTTPClientRequest(url: url(path))
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 32 << 20)
        return Fetched(status: Int(response.status.code), headers: response.headers, body: Array(body.readableBytesView))
    }

    /// POSTs to a `/_demo/` control path.
    func post(_ path: String) async throws -> Fetched {
        try await get(path, method: .POST)
    }
}
