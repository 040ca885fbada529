import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The embedded sample-sources server of demo mode: the captured payloads of Kiosk's original
/// sources on loopback, evolving over time, each source with its own latency and switchable faults.
///
/// Run it as a swift-service-lifecycle `Service` (or call ``run()`` in a task and cancel the task),
/// then read ``baseURL()`` for where it listens.
public struct DemoServer: Service {
    /// The knobs of this server, shared with whoever drives it.
    public let control: DemoControl
    /// How the server binds and how its sources behave by default.
    public let configuration: DemoConfiguration
    private let logger: Logger
    private let address = ServerAddress()
    /// After this long, requests still running at shutdown (a client slowly reading an oversized
    /// body) are cancelled.
    private static let gracefulShutdownLimit: Duration = .seconds(3)

    /// A server; nothing is bound until ``run()``.
    public init(
        configuration: DemoConfiguration = .init(), control: DemoControl = DemoControl(),
        logger: Logger = Logger(label: "kiosk.demo")
    ) {
        self.configuration = configuration
        self.control = control
        self.logger = logger
    }

    /// Binds and serves until the task is cancelled or a graceful shutdown is triggered.
    /// Run it once per value: ``baseURL()`` reports the first binding. If the server fails before
    /// binding, ``baseURL()`` waiters get the configured address rather than waiting forever.
    public func run() async throws {
        do {
            try await serve(port: configuration.port)
        } catch {
            // The preferred port is taken (another Kiosk, another program): any free one will do.
            guard configuration.portIsPreferred, configuration.port != 0, await address.current == nil else {
                throw await failed(error)
            }
            logger.notice("demo sources: port \(configuration.port) is taken, binding another", metadata: ["error": "\(error)"])
            do { try await serve(port: 0) } catch { throw await failed(error) }
        }
    }

    /// `error`, once waiters for the address have one (the configured one) rather than none.
    private func failed(_ error: any Error) async -> any Error {
        if let fallback = ServerAddress.baseURL(host: configuration.host, port: configuration.port) {
            await address.publish(fallback)
        }
        return error
    }

    private func serve(port configuredPort: Int) async throws {
        let resources = try DemoResources.load()
        let responder = try DemoResponder(
            configuration: configuration, control: control, address: address, resources: resources, start: Date())
        let address = address
        let host = configuration.host
        let logger = logger
        let application = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(host, port: configuredPort), serverName: "KioskDemo"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuredPort
                guard let url = ServerAddress.baseURL(host: host, port: port) else { return }
                logger.info("Demo sources listening", metadata: ["url": "\(url.absoluteString)"])
                await address.publish(url)
            },
            logger: logger
        )
        var groupConfiguration = ServiceGroupConfiguration(services: [application], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = Self.gracefulShutdownLimit
        let group = ServiceGroup(configuration: groupConfiguration)
        // Unstructured, so cancelling the caller becomes a graceful shutdown (in-flight requests
        // end, connections close) instead of a hard cancel that Hummingbird logs as an error.
        // Task-locals are inherited, so an enclosing ServiceGroup's graceful shutdown still reaches it.
        let serving = Task { try await group.run() }
        try await withTaskCancellationHandler {
            try await serving.value
        } onCancel: {
            Task { await group.triggerGracefulShutdown() }
        }
    }

    /// The server's base URL, e.g. `http://127.0.0.1:54321`; waits until the server is bound.
    public func baseURL() async -> URL {
        await address.wait()
    }

    /// The URL of `source` on this server (for `newsAPI` and `images`, the prefix of their URLs).
    public func url(for source: DemoSource) async -> URL {
        let base = await baseURL()
        return URL(string: base.absoluteString.trimmingSuffix("/") + source.path) ?? base
    }
}
