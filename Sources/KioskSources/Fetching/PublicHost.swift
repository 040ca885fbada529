#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// Whether a URL's host is on the public internet, judged from the text alone: IP literals in
/// any block IANA's special-purpose registries mark as not globally reachable (loopback,
/// private, link-local, shared, documentation, benchmarking, reserved...; see ``refusedIPv4``
/// and ``refusedIPv6``), multicast, and names that only mean something inside a network
/// (`localhost`, `*.local`, `*.internal`, dotless names), are not. The server's own interface
/// addresses are judged apart (``HostAddresses``): they may be public. The image proxy signs nothing else from a source, so a feed cannot make the
/// server fetch from its own network (unless that host is one of the configured sources).
public enum PublicHost {
    public static func isPublic(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name = String(name.dropLast()) }
        if let octets = ipv4(name) { return isPublic(ipv4: octets) }
        if name.contains(":") { return isPublic(ipv6: name) }
        guard name.contains(".") else { return false }  // intranet names, `localhost`
        for suffix in [".localhost", ".local", ".internal", ".lan", ".home.arpa", ".intranet", ".corp"]
        where name.hasSuffix(suffix) {
            return false
        }
        // Names that are numbers in disguise (`2130706433`, `0x7f.1`) are refused outright.
        return !name.split(separator: ".").allSatisfy { part in
            part.allSatisfy(\.isNumber) || (part.hasPrefix("0x") && part.dropFirst(2).allSatisfy(\.isHexDigit))
        }
    }

    /// Whether `host` is an IPv4 or IPv6 address (bracketed or not) rather than a name.
    public static func isIPLiteral(_ host: String) -> Bool {
        let text = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return ipv4(text) != nil || ipv6(text) != nil
    }

    private static func ipv4(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let octets = parts.compactMap { part -> Int? in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isNumber), let value = Int(part), value <= 255 else {
                return nil
            }
            return value
        }
        return octets.count == 4 ? octets : nil
    }

    /// IPv4 blocks that are not globally reachable: every entry of IANA's IPv4 Special-Purpose
    /// Address Registry marked so (RFC 6890 and its updates), plus multicast. 192.0.0.0/24 is
    /// refused whole (its two anycast /32s serve no feeds).
    static let refusedIPv4: [(prefix: [UInt8], length: Int, name: String)] = [
        ([0, 0, 0, 0], 8, "\"this network\""),
        ([10, 0, 0, 0], 8, "private-use"),
        ([100, 64, 0, 0], 10, "shared address space (CGNAT)"),
        ([127, 0, 0, 0], 8, "loopback"),
        ([169, 254, 0, 0], 16, "link-local (cloud metadata)"),
        ([172, 16, 0, 0], 12, "private-use"),
        ([192, 0, 0, 0], 24, "IETF protocol assignments"),
        ([192, 0, 2, 0], 24, "documentation (TEST-NET-1)"),
        ([192, 88, 99, 0], 24, "6to4 relay anycast (deprecated)"),
        ([192, 168, 0, 0], 16, "private-use"),
        ([198, 18, 0, 0], 15, "benchmarking"),
        ([198, 51, 100, 0], 24, "documentation (TEST-NET-2)"),
        ([203, 0, 113, 0], 24, "documentation (TEST-NET-3)"),
        ([224, 0, 0, 0], 4, "multicast"),
        ([240, 0, 0, 0], 4, "reserved, and the limited broadcast address"),
    ]

    /// IPv6 blocks refused inside the global unicast space 2000::/3 (everything outside it is
    /// refused, but for NAT64's 64:ff9b::/96, judged as the IPv4 address it carries): IANA's
    /// IPv6 Special-Purpose Address Registry's entries there that are not globally reachable.
    /// Outside 2000::/3 that registry's ::1, ::, ::ffff:0:0/96, 64:ff9b:1::/48, 100::/64,
    /// 100:0:0:1::/64, 5f00::/16, fc00::/7 and fe80::/10 fall, with fec0::/10 (site-local) and
    /// ff00::/8 (multicast).
    static let refusedIPv6: [(prefix: [UInt8], length: Int, name: String)] = [
        ([0x20, 0x01, 0x00, 0x00], 23, "IETF protocol assignments (Teredo, ORCHID...)"),
        ([0x20, 0x01, 0x0D, 0xB8], 32, "documentation"),
        ([0x3F, 0xFF, 0x00, 0x00], 20, "documentation"),
    ]

    private static func isPublic(ipv4 octets: [Int]) -> Bool {
        let bytes = octets.map { UInt8(clamping: $0) }
        return !refusedIPv4.contains { within(bytes, $0.prefix, $0.length) }
    }

    private static func isPublic(ipv6 text: String) -> Bool {
        let address = text.split(separator: "%").first.map(String.init) ?? text  // zone id
        guard let bytes = ipv6(address) else { return false }
        // IPv4 carried in IPv6 is judged as that IPv4 address: NAT64 (64:ff9b::/96) and 6to4
        // (2002::/16) reach it through a gateway.
        if Array(bytes[0..<12]) == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {
            return isPublic(ipv4: bytes[12..<16].map(Int.init))
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 { return isPublic(ipv4: bytes[2..<6].map(Int.init)) }
        guard bytes[0] & 0xE0 == 0x20 else { return false }  // not global unicast (2000::/3)
        return !refusedIPv6.contains { within(bytes, $0.prefix, $0.length) }
    }

    /// Whether the first `length` bits of `address` are those of `prefix`.
    private static func within(_ address: [UInt8], _ prefix: [UInt8], _ length: Int) -> Bool {
        var left = length
        for (index, byte) in prefix.enumerated() where left > 0 {
            guard index < address.count else { return false }
            let bits = min(8, left)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if address[index] & mask != byte & mask { return false }
            left -= bits
        }
        return true
    }

    /// The bytes of an IP address in text (4 or 16, brackets and an IPv6 zone id allowed), or
    /// nil when `text` is not one: the form addresses are compared in.
    public static func addressBytes(_ text: String) -> [UInt8]? {
        var name = text
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if let octets = ipv4(name) { return octets.map { UInt8(clamping: $0) } }
        return ipv6(name.split(separator: "%").first.map(String.init) ?? name)
    }

    /// The 16 bytes of an IPv6 address in text, or nil when `text` is not one.
    private static func ipv6(_ text: String) -> [UInt8]? {
        guard text.contains(":"), text.utf8.count <= 64 else { return nil }
        var storage = in6_addr()
        guard inet_pton(AF_INET6, text, &storage) == 1 else { return nil }
        return withUnsafeBytes(of: &storage) { Array($0) }
    }
}
