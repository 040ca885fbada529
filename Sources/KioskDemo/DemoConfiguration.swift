import KioskCore

/// How the demo server binds and how its sources behave before any ``DemoControl`` override.
public struct DemoConfiguration: Sendable {
    /// Realistic and deliberately different, so a slow source visibly never delays a fast one.
    public static let defaultLatencies: [DemoSource: Duration] = [
        .business: .milliseconds(100), .entertainment: .milliseconds(800), .environment: .seconds(2),
        .facts: .milliseconds(300), .albums: .milliseconds(500), .newsAPI: .milliseconds(400),
        .jokes: .milliseconds(700), .images: .milliseconds(30),
        .samples: .milliseconds(20), .kinds: .milliseconds(40),
    ]

    /// Different primes, so the three feeds change at different moments.
    public static let defaultEvolveEvery: [DemoSource: Duration] = [
        .business: .seconds(7), .entertainment: .seconds(11), .environment: .seconds(13),
    ]

    /// Interface to bind; loopback unless told otherwise.
    public var host: String
    /// Port to bind; 0 asks the system for any free port (read it back with ``DemoServer/baseURL()``).
    public var port: Int
    /// Whether `port` is only a preference: taken, any free port is bound instead (`kiosk --demo`
    /// without `--demo-port`, which prefers the same port on every start, see ``preferredPort(beside:)``).
    public var portIsPreferred = false
    /// Time each source waits before answering. A missing source uses ``defaultLatencies``.
    public var latencies: [DemoSource: Duration]
    /// How often each RSS feed gains a new entry. A feed missing here (or with a zero period) only
    /// changes through ``DemoControl/addEntry(to:)``.
    public var evolveEvery: [DemoSource: Duration]
    /// The only key the NewsAPI endpoints accept.
    public var newsAPIKey: String
    /// The kinds of source whose demo samples are served (`/kinds/<kind>`).
    public var kinds: SourceKinds

    /// A configuration; every argument has the demo-mode default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        latencies: [DemoSource: Duration] = DemoConfiguration.defaultLatencies,
        evolveEvery: [DemoSource: Duration] = DemoConfiguration.defaultEvolveEvery,
        newsAPIKey: String = "demo",
        kinds: SourceKinds = .builtIn
    ) {
        self.host = host
        self.port = port
        self.latencies = latencies
        self.evolveEvery = evolveEvery
        self.newsAPIKey = newsAPIKey
        self.kinds = kinds
    }

    /// The port `kiosk --demo` serving on `appPort` prefers for its sample sources: the next one
    /// (8081 beside 8080), the same on every start, so feeds added from the demo's sites (their
    /// addresses name the port) still answer after a restart; 0 (any) beside a port of the system's choosing.
    public static func preferredPort(beside appPort: Int) -> Int {
        (1..<65_535).contains(appPort) ? appPort + 1 : 0
    }

    /// The same latency for every source (handy in tests where timing does not matter).
    public static func uniform(_ latency: Duration) -> [DemoSource: Duration] {
        Dictionary(uniqueKeysWithValues: DemoSource.allCases.map { ($0, latency) })
    }

    /// The configured latency of `source`, falling back to the default.
    public func latency(for source: DemoSource) -> Duration {
        latencies[source] ?? DemoConfiguration.defaultLatencies[source] ?? .zero
    }
}
