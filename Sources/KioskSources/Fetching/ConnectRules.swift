import NIOCore
import NIOPosix
import NIOSOCKS

#if canImport(Glibc)
    import Glibc
#endif

/// What ``ConnectGuard`` decides for one CONNECT: where it may go, or why not.
struct ConnectRules: Sendable {
    /// The answer to a CONNECT request.
    enum Verdict: Sendable {
        /// Connect to one of `addresses` (Happy Eyeballs, as the client would have), named `host`
        /// in errors; `checked`: judge the connected address too.
        case connect(host: String, addresses: [SocketAddress], checked: Bool)
        /// Answer with `reply` and close.
        case refuse(SOCKSServerReply)
    }

    let destinations: DestinationGuard
    let allows: ConnectGuard.AddressPolicy
    let connectTimeout: TimeAmount

    /// Where `target` may be connected. A name is judged as written, then by every address it
    /// resolves to now, which are the only addresses tried.
    func verdict(for target: SOCKSAddress) async -> Verdict {
        switch target {
        case .address(let address):
            guard let ip = address.ipAddress, let port = address.port else { return .refuse(.addressUnsupported) }
            if destinations.exempts(host: ip, port: port) { return .connect(host: ip, addresses: [address], checked: false) }
            return allows(ip, port) ? .connect(host: ip, addresses: [address], checked: true) : .refuse(.notAllowed)
        case .domain(let name, let port):
            let exempt = destinations.exempts(host: name, port: port)
            guard exempt || PublicHost.isPublic(name) else { return .refuse(.notAllowed) }
            let addresses: [SocketAddress]
            do {
                addresses = try await destinations.addresses(of: name, port: port).compactMap {
                    try? SocketAddress(ipAddress: $0, port: port)
                }
            } catch {
                return .refuse(.hostUnreachable)
            }
            guard !addresses.isEmpty else { return .refuse(.hostUnreachable) }
            if exempt { return .connect(host: name, addresses: addresses, checked: false) }
            guard addresses.allSatisfy(isAllowed) else { return .refuse(.notAllowed) }
            return .connect(host: name, addresses: addresses, checked: true)
        }
    }

    /// Whether a connected socket's peer is acceptable.
    func isAllowed(_ address: SocketAddress) -> Bool {
        guard let ip = address.ipAddress, let port = address.port else { return false }
        return allows(ip, port)
    }

    /// The SOCKS reply for a failed connection attempt.
    static func reply(for error: any Error) -> SOCKSServerReply {
        if let error = error as? ChannelError, case .connectTimeout = error { return .ttlExpired }
        if let error = error as? NIOConnectionError {
            return error.connectionErrors.last.map { reply(for: $0.error) } ?? .hostUnreachable
        }
        switch (error as? IOError)?.errnoCode {
        case ECONNREFUSED: return .refused
        case ENETUNREACH: return .networkUnreachable
        case ETIMEDOUT: return .ttlExpired
        default: return .hostUnreachable
        }
    }
}

/// The addresses ``ConnectRules`` vetted, as NIO's resolver: Happy Eyeballs connects to these
/// and to nothing else, without a lookup of its own.
struct VettedAddresses: Resolver, Sendable {
    let addresses: [SocketAddress]
    let eventLoop: any EventLoop

    func initiateAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        eventLoop.makeSucceededFuture(addresses.filter { $0.protocol == .inet })
    }

    func initiateAAAAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        eventLoop.makeSucceededFuture(addresses.filter { $0.protocol == .inet6 })
    }

    func cancelQueries() {}
}
