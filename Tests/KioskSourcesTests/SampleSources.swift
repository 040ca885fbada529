import AsyncHTTPClient
import Foundation
import KioskDemo
@testable import KioskSources

/// Runs `body` against a sample-sources server on loopback and a real fetcher, then stops both
/// (also when `body` throws).
func withSampleSources(
    latencies: [DemoSource: Duration] = DemoConfiguration.uniform(.milliseconds(5)),
    evolveEvery: [DemoSource: Duration] = [:],
    _ body: (DemoServer, SourceCatalogue, HTTPFetcher) async throws -> Void
) async throws {
    let server = DemoServer(configuration: DemoConfiguration(latencies: latencies, evolveEvery: evolveEvery))
    let serverTask = Task { try await server.run() }
    let client = HTTPFetcher.makeClient()
    let catalogue = SourceCatalogue.demo(base: await server.baseURL())
    do {
        try await body(server, catalogue, HTTPFetcher(client: client))
    } catch {
        serverTask.cancel()
        try? await client.shutdown()
        throw error
    }
    serverTask.cancel()
    try await client.shutdown()
}
