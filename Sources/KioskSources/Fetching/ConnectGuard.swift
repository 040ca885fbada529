import KioskModel
import NIOCore
import NIOPosix
import NIOSOCKS

/// The check at connect time, where DNS rebinding cannot slip past: a SOCKS5 proxy on 127.0.0.1
/// (an ephemeral port) that the guarded HTTP client connects through (see ``FetchClients``).
///
/// AsyncHTTPClient has no resolver hook, so ``DestinationGuard``'s check before a request cannot
/// see the address the client then connects to: it resolves the name again. Through this proxy
/// the client never resolves anything. For each CONNECT the guard resolves the name itself (with
/// the ``DestinationGuard``'s resolver), refuses (reply "connection not allowed by ruleset",
/// which the fetcher reports as ``FetchError/refused(_:)``) unless every address is allowed,
/// connects to a vetted address, checks the address the socket is actually connected to, then
/// splices the two connections. The authorities the ``DestinationGuard`` trusts are exempt, as
/// before the request.
///
/// Bounded: a connect timeout per address, and a connection that carries nothing for
/// `idleTimeout` is closed (longer than the client's own pool idle time, so the client closes
/// first). Either side closing closes the other once what it sent is delivered.
///
/// The owner of the client starts it before the client and shuts it down after the client
/// (whose shutdown closes the connections it made through the guard).
public struct ConnectGuard: Sendable {
    /// Whether a connection may go to `address` (a textual IP) on `port`.
    public typealias AddressPolicy = @Sendable (_ address: String, _ port: Int) -> Bool

    /// Only addresses on the public internet (``PublicHost``) that are not this machine's own
    /// (``HostAddresses/live``), whatever the port.
    public static let publicAddresses: AddressPolicy = publicAddresses(excluding: .live)

    /// Only public addresses, none of `own`, whatever the port.
    public static func publicAddresses(excluding own: HostAddresses) -> AddressPolicy {
        { address, _ in PublicHost.isPublic(address) && !own.contains(address) }
    }

    /// The loopback port the guard listens on.
    public let port: Int
    private let listener: any Channel

    private init(port: Int, listener: any Channel) {
        self.port = port
        self.listener = listener
    }

    /// Starts a guard on 127.0.0.1, an ephemeral port.
    ///
    /// - Parameters:
    ///   - destinations: the resolver and the exemptions (trusted authorities, or private hosts allowed).
    ///   - allows: which connected-to addresses are acceptable; tests widen it to one loopback port.
    ///   - connectTimeout: time allowed to connect to each address.
    ///   - idleTimeout: a connection with no traffic either way for this long is closed.
    public static func start(
        destinations: DestinationGuard, allows: @escaping AddressPolicy = publicAddresses,
        connectTimeout: Duration = .seconds(5), idleTimeout: Duration = .seconds(120),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> ConnectGuard {
        let rules = ConnectRules(destinations: destinations, allows: allows, connectTimeout: TimeAmount(connectTimeout))
        let idle = TimeAmount(idleTimeout)
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handlers: [any ChannelHandler] = [
                        IdleStateHandler(allTimeout: idle), SOCKSServerHandshakeHandler(),
                        ConnectGuardHandler(rules: rules),
                    ]
                    try channel.pipeline.syncOperations.addHandlers(handlers)
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = listener.localAddress?.port else {
            try? await listener.close()
            throw FetchError.network("the connect guard has no port")
        }
        return ConnectGuard(port: port, listener: listener)
    }

    /// Stops accepting connections. Those still open end when the client closes them (its own
    /// shutdown does) or after the idle timeout.
    public func shutdown() async {
        try? await listener.close()
    }
}
