import AsyncHTTPClient
import Foundation

/// The HTTP clients an application's fetchers share, and the ``ConnectGuard`` they need: a
/// direct client for the sources Kiosk trusts (the demo's sample server, configured sources, or
/// any feed when the operator allows private hosts), which skip the proxy hop; and a client that
/// connects only through the guard, for everything else. Whoever owns it calls ``shutdown()``.
public struct FetchClients: Sendable {
    /// Connects directly; used only for hops `DestinationGuard` exempts.
    public let direct: HTTPClient
    /// Connects through ``connectGuard``.
    public let guarded: HTTPClient
    /// The media proxy's own pair (direct, guarded): long streams in a pool of their own, so they
    /// never queue a feed check or an image of the same host, and a stream that stops moving for
    /// ``mediaReadTimeout`` is let go.
    public let mediaDirect: HTTPClient
    public let mediaGuarded: HTTPClient
    public let connectGuard: ConnectGuard
    private let trusted: [URL]
    private let resolve: DestinationGuard.Resolver
    private let hostAddresses: HostAddresses

    /// Starts the guard, then builds both clients (see ``HTTPFetcher/makeClient(connectTimeout:decompressionRatioLimit:connectionsPerHost:through:)``).
    ///
    /// - Parameters:
    ///   - sources: the trusted sources, exempt from both checks.
    ///   - resolve: how names are resolved, before a request and at connect time.
    ///   - hostAddresses: this machine's own addresses, refused before a request and at connect.
    ///   - allows: which addresses the guard may connect to (by default public ones that are not
    ///     `hostAddresses`); tests widen it to one loopback port.
    public static func start(
        trusting sources: [URL] = [], resolve: @escaping DestinationGuard.Resolver = DestinationGuard.system,
        hostAddresses: HostAddresses = .live, allows: ConnectGuard.AddressPolicy? = nil, connectionsPerHost: Int = HTTPFetcher.defaultConnectionsPerHost
    ) async throws -> FetchClients {
        let connectGuard = try await ConnectGuard.start(
            destinations: DestinationGuard(trusting: sources, resolve: resolve, hostAddresses: hostAddresses),
            allows: allows ?? ConnectGuard.publicAddresses(excluding: hostAddresses))
        return FetchClients(
            direct: HTTPFetcher.makeClient(connectionsPerHost: connectionsPerHost),
            guarded: HTTPFetcher.makeClient(connectionsPerHost: connectionsPerHost, through: connectGuard),
            mediaDirect: HTTPFetcher.makeClient(readTimeout: mediaReadTimeout),
            mediaGuarded: HTTPFetcher.makeClient(through: connectGuard, readTimeout: mediaReadTimeout),
            connectGuard: connectGuard, trusted: sources, resolve: resolve, hostAddresses: hostAddresses)
    }

    /// How long a media stream may go without a byte read before it is let go.
    public static let mediaReadTimeout: Duration = .seconds(30)

    /// The media proxy's fetcher: the images' guard (never private hosts, the sources trusted)
    /// on the media clients.
    public func mediaFetcher() -> HTTPFetcher {
        HTTPFetcher(
            client: mediaDirect, guardedClient: mediaGuarded,
            destinations: DestinationGuard(trusting: trusted, resolve: resolve, hostAddresses: hostAddresses))
    }

    /// A fetcher checking each destination before it is asked and, unless exempt, where it
    /// connects. `allowsPrivateHosts` is the operator's choice for feeds; images never have it.
    public func fetcher(allowsPrivateHosts: Bool = false) -> HTTPFetcher {
        HTTPFetcher(
            client: direct, guardedClient: guarded,
            destinations: DestinationGuard(
                allowsPrivateHosts: allowsPrivateHosts, trusting: trusted, resolve: resolve, hostAddresses: hostAddresses))
    }

    /// Shuts both clients down (closing their connections), then the guard; the first failure
    /// is thrown after every step has run.
    public func shutdown() async throws {
        var failure: (any Error)?
        for client in [direct, guarded, mediaDirect, mediaGuarded] {
            do { try await client.shutdown() } catch { failure = failure ?? error }
        }
        await connectGuard.shutdown()
        if let failure { throw failure }
    }
}
