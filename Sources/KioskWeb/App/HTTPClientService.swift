import KioskSources
import ServiceLifecycle

/// Shuts the shared HTTP clients and their connect guard down when the application stops (it is
/// listed first, so it stops last, after everything that fetches).
struct HTTPClientService: Service {
    let clients: FetchClients

    func run() async throws {
        try? await gracefulShutdown()
        try await clients.shutdown()
    }
}
