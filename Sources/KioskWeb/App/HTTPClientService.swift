import AsyncHTTPClient
import ServiceLifecycle

/// Shuts the shared HTTP client down when the application stops (it is listed first, so it
/// stops last, after everything that fetches).
struct HTTPClientService: Service {
    let client: HTTPClient

    func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}
