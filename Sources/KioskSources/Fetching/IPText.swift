import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A socket address's IP as text, the way the guards compare them: for what the resolver
/// answers and what the interfaces have.
enum IPText {
    /// The IPv4 or IPv6 address of `address`; nil for any other family.
    static func of(_ address: UnsafeMutablePointer<sockaddr>) -> String? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            SocketAddress(address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }, host: "").ipAddress
        case AF_INET6:
            SocketAddress(address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }, host: "").ipAddress
        default:
            nil
        }
    }
}
