import Foundation
import KioskSources

/// Which addresses a user may subscribe to. A feed reader fetches what its users type, so
/// without a policy anyone who can add a feed can make the server probe its own network:
/// loopback, private and link-local hosts are refused unless the operator allows them, or the
/// host is one Kiosk itself serves sources from (the demo's sample server).
public struct AddressPolicy: Sendable, Hashable {
    /// Allow private and loopback hosts (an operator reading feeds on their own network).
    public var allowsPrivateHosts: Bool
    /// `host:port` authorities always allowed (the configured and demo sources).
    public var trustedAuthorities: Set<String>

    public init(allowsPrivateHosts: Bool = false, trusting sources: [URL] = []) {
        self.allowsPrivateHosts = allowsPrivateHosts
        self.trustedAuthorities = Set(sources.compactMap(\.sourceAuthority))
    }

    /// Why `url` may not be fetched, or nil when it may.
    public func refusal(for url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "only http and https addresses can be subscribed to"
        }
        guard let host = url.host, !host.isEmpty else { return "the address has no host" }
        if allowsPrivateHosts || PublicHost.isPublic(host) { return nil }
        if let authority = url.sourceAuthority, trustedAuthorities.contains(authority) { return nil }
        return "\(host) is a private or local address, which this Kiosk does not fetch"
    }

}
