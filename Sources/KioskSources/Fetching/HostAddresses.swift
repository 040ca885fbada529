#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The addresses of this machine's own network interfaces. A feed must not make the server fetch
/// from itself by one of them: a service listening on all interfaces answers there as it would
/// on loopback, and an interface may have a public address that ``PublicHost`` cannot know is
/// ours. Read anew at every check (interfaces come and go: DHCP, VPNs); a test passes its own.
public struct HostAddresses: Sendable {
    private let list: @Sendable () -> [[UInt8]]

    /// Addresses as text (IPv4 or IPv6); unreadable ones are ignored.
    public init(_ addresses: @escaping @Sendable () -> [String]) {
        list = { addresses().compactMap(PublicHost.addressBytes) }
    }

    /// The machine's interfaces, as `getifaddrs` lists them now.
    public static let live = HostAddresses(interfaceAddresses)

    /// No address is the server's own: for tests of everything else.
    public static let none = HostAddresses { [] }

    /// Whether `address` (an IP in text, brackets or a zone id allowed) is one of this machine's.
    public func contains(_ address: String) -> Bool {
        first(of: [address]) != nil
    }

    /// The first of `addresses` that is one of this machine's (the interfaces read once).
    public func first(of addresses: [String]) -> String? {
        let own = list()
        return addresses.first { PublicHost.addressBytes($0).map(own.contains) ?? false }
    }

    /// Every address of every interface, loopback included, as text.
    public static func interfaceAddresses() -> [String] {
        var head: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&head) == 0 else { return [] }
        defer { freeifaddrs(head) }
        var found: [String] = []
        var next = head
        while let entry = next?.pointee {
            next = entry.ifa_next
            if let address = entry.ifa_addr, let text = IPText.of(address) { found.append(text) }
        }
        return found
    }
}
