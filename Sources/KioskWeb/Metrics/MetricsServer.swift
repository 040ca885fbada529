import Hummingbird
import Logging

/// `/metrics` on a listener of its own, bound to loopback only: what Kiosk counts is for the
/// machine's own Prometheus (or an SSH tunnel), never for whoever reaches the app's port.
enum MetricsServer {
    /// The listener, run as one of the app's services.
    static func application(metrics: KioskMetrics, live: LiveBroadcaster, port: Int, logger: Logger) -> some ApplicationProtocol {
        Application(
            router: router(metrics: metrics, live: live),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "Kiosk metrics"),
            logger: logger)
    }

    /// `GET /metrics`: Prometheus' text format.
    static func router(metrics: KioskMetrics, live: LiveBroadcaster) -> Router<BasicRequestContext> {
        let router = Router()
        // Loopback names only: a page that points a name of its own at 127.0.0.1 (DNS rebinding)
        // would otherwise read the figures from its visitor's browser.
        router.add(middleware: HostCheckMiddleware(policy: HostPolicy(boundHost: "127.0.0.1")))
        router.get("metrics") { _, _ in
            // Sampled now rather than counted as streams come and go.
            metrics.eventStreams(await live.clientCount)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        return router
    }
}
