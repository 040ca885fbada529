#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// Whether a URL's host is on the public internet, judged from the text alone: IP literals in
/// loopback, private, link-local, shared (CGNAT), unspecified or multicast ranges, and names
/// that only mean something inside a network (`localhost`, `*.local`, `*.internal`, dotless
/// names), are not. The image proxy signs nothing else from a source, so a feed cannot make the
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

    private static func isPublic(ipv4 octets: [Int]) -> Bool {
        let (a, b) = (octets[0], octets[1])
        switch a {
        case 0, 10, 127: return false
        case 100 where (64...127).contains(b): return false  // shared address space (CGNAT)
        case 169 where b == 254: return false  // link-local, cloud metadata
        case 172 where (16...31).contains(b): return false
        case 192 where b == 168: return false
        case 192 where b == 0 && octets[2] == 0: return false
        case 198 where b == 18 || b == 19: return false  // benchmarking
        case 224...255: return false  // multicast, reserved, broadcast
        default: return true
        }
    }

    private static func isPublic(ipv6 text: String) -> Bool {
        let address = text.split(separator: "%").first.map(String.init) ?? text  // zone id
        guard let bytes = ipv6(address) else { return false }
        let group = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        // IPv4 carried in IPv6 is judged as that IPv4 address: NAT64 (64:ff9b::/96 and the local
        // 64:ff9b:1::/48) and 6to4 (2002::/16) reach it through a gateway.
        if Array(bytes[0..<12]) == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {
            return isPublic(ipv4: bytes[12..<16].map(Int.init))
        }
        if Array(bytes[0..<6]) == [0, 0x64, 0xFF, 0x9B, 0, 1] { return false }
        if group == 0x2002 { return isPublic(ipv4: bytes[2..<6].map(Int.init)) }
        if group & 0xFE00 == 0xFC00 { return false }  // unique local fc00::/7
        if group & 0xFFC0 == 0xFE80 { return false }  // link-local fe80::/10
        if group & 0xFF00 == 0xFF00 { return false }  // multicast
        // ::/16 holds the unspecified, loopback, IPv4-mapped and -compatible forms: none is public
        // (a mapped address reaches the IPv4 one directly, judged as such by its resolver's answer).
        if group == 0 {
            let mapped = Array(bytes[0..<12]) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
            return mapped && isPublic(ipv4: bytes[12..<16].map(Int.init))
        }
        if group == 0x2001 && bytes[2] == 0x0D && bytes[3] == 0xB8 { return false }  // documentation
        if group == 0x2001 && bytes[2] == 0 && bytes[3] == 0 { return false }  // Teredo
        return true
    }

    /// The 16 bytes of an IPv6 address in text, or nil when `text` is not one.
    private static func ipv6(_ text: String) -> [UInt8]? {
        guard text.contains(":"), text.utf8.count <= 64 else { return nil }
        var storage = in6_addr()
        guard inet_pton(AF_INET6, text, &storage) == 1 else { return nil }
        return withUnsafeBytes(of: &storage) { Array($0) }
    }
}
