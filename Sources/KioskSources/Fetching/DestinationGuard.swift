import Foundation
import KioskModel
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Where a fetch may go. A feed or an image URL comes from a source, so without a guard anyone
/// who controls a feed could make the server fetch from its own network. Checked for the URL
/// asked for and again for every redirect (the fetcher follows them itself): by the host as
/// written (`PublicHost`), then by every address the name resolves to, so a public-looking name
/// that resolves to 127.0.0.1 is refused too, and so is any address of this machine's own
/// interfaces (``HostAddresses``). Authorities Kiosk itself reads sources from (the
/// demo's sample server, configured sources) are always allowed.
///
/// This check runs before the request and gives the clear message, but the HTTP client resolves
/// the name again when it connects: a name whose answer changes between the two lookups (DNS
/// rebinding with a zero TTL) passes it. The backstop is ``ConnectGuard``, which the guarded
/// client (see ``FetchClients``) connects through: it resolves the name itself, with this guard's
/// resolver and rules, connects only to addresses it vetted and checks the address it actually
/// connected to, after the lookup and for every redirect hop.
public struct DestinationGuard: Sendable {
    /// The addresses (textual IPs) a host name resolves to.
    public typealias Resolver = @Sendable (_ host: String, _ port: Int) async throws -> [String]

    public var allowsPrivateHosts: Bool
    /// `host:port` authorities always allowed.
    public var trustedAuthorities: Set<String>
    private let resolve: Resolver
    /// This machine's own addresses, refused like private ones.
    let hostAddresses: HostAddresses

    public init(
        allowsPrivateHosts: Bool = false, trusting sources: [URL] = [], resolve: @escaping Resolver = Self.system,
        hostAddresses: HostAddresses = .live
    ) {
        self.allowsPrivateHosts = allowsPrivateHosts
        self.trustedAuthorities = Set(sources.compactMap(\.sourceAuthority))
        self.resolve = resolve
        self.hostAddresses = hostAddresses
    }


    /// Why `url` may not be fetched, or nil when it may.
    public func refusal(for url: URL) async -> String? {
        guard !allowsPrivateHosts else { return nil }
        guard let host = url.host, !host.isEmpty else { return "the address has no host" }
        if let authority = url.sourceAuthority, trustedAuthorities.contains(authority) { return nil }
        guard PublicHost.isPublic(host) else { return "\(host) is a private or local address" }
        // An IP literal is judged as it stands; a name by every address it resolves to.
        if PublicHost.isIPLiteral(host) {
            return hostAddresses.contains(host) ? "\(host) is this server's own address" : nil
        }
        let addresses: [String]
        do {
            addresses = try await self.addresses(of: host, port: url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))
        } catch {
            return nil  // the fetch itself reports that the name does not resolve
        }
        if let inside = addresses.first(where: { !PublicHost.isPublic($0) }) {
            return "\(host) resolves to \(inside), a private or local address"
        }
        if let own = hostAddresses.first(of: addresses) {
            return "\(host) resolves to \(own), this server's own address"
        }
        return nil
    }

    /// Whether `url` skips every check: the operator allows private hosts, or it is a trusted
    /// source's authority. Such a hop needs no connect-time check either.
    public func exempts(_ url: URL) -> Bool {
        allowsPrivateHosts || url.sourceAuthority.map(trustedAuthorities.contains) == true
    }

    /// Whether `host:port` (as a connection names it: a host name, or an IP address without
    /// brackets) skips every check.
    func exempts(host: String, port: Int) -> Bool {
        guard !allowsPrivateHosts else { return true }
        let name = host.lowercased()
        return trustedAuthorities.contains("\(name):\(port)") || trustedAuthorities.contains("[\(name)]:\(port)")
    }

    /// The addresses `host` resolves to, by this guard's resolver. A fully qualified name's
    /// trailing dot (`inside.example.`) is dropped first: it is the same name, and the verdict
    /// must not hang on whether a resolver answers for both spellings.
    func addresses(of host: String, port: Int) async throws -> [String] {
        let name = host.count > 1 && host.hasSuffix(".") ? String(host.dropLast()) : host
        return try await resolve(name, port)
    }

    /// The system resolver (`getaddrinfo`), run on NIO's blocking-I/O thread pool.
    public static let system: Resolver = { host, port in
        try await NIOThreadPool.singleton.runIfActive { try addresses(of: host, port: port) }
    }

    private static func addresses(of host: String, port: Int) throws -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0 else {
            throw FetchError.network("the host name \(host) does not resolve")
        }
        defer { freeaddrinfo(list) }
        var found: [String] = []
        var next = list
        while let info = next?.pointee {
            next = info.ai_next
            if let address = info.ai_addr, let text = IPText.of(address) { found.append(text) }
        }
        return found
    }
}
