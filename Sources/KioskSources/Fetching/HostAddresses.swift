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
        guard let bytes = PublicHost.addressBytes(address) else { return false }
        return list().contains(bytes)
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
            guard let address = entry.ifa_addr else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                var ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                guard inet_ntop(AF_INET, &ipv4, &text, socklen_t(text.count)) != nil else { continue }
            case AF_INET6:
                var ipv6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                guard inet_ntop(AF_INET6, &ipv6, &text, socklen_t(text.count)) != nil else { continue }
            default:
                continue
            }
            found.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return found
    }
}
