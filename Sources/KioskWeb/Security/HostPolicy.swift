import Foundation
import HTTPTypes
import Hummingbird

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The host names Kiosk answers to. A page on any site can point a name it controls at
/// 127.0.0.1 (DNS rebinding) and then read a loopback Kiosk from its visitor's browser as its
/// own origin; the browser still names the page's host in `Host`, so a server that answers only
/// its own names gives that page nothing. Allowed: the loopback names (`localhost`, `127.0.0.1`,
/// `[::1]`), the address or name Kiosk listens on, and the config file's `allowedHosts`; any port.
public struct HostPolicy: Sendable {
    /// The names a browser on this machine reaches a loopback server by.
    static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    /// Allowed names, as ``hostName(ofAuthority:)`` writes them.
    let names: Set<String>

    /// - Parameters:
    ///   - boundHost: the address or name Kiosk listens on; a wildcard (`0.0.0.0`, `::`) names nothing.
    ///   - allowedHosts: more names or addresses (a port, if given, is ignored).
    public init(boundHost: String, allowedHosts: [String] = []) {
        var names = Self.loopbackNames
        for host in [boundHost] + allowedHosts where !Self.isWildcard(host) {
            if let name = Self.name(of: host) { names.insert(name) }
        }
        self.names = names
    }

    enum Verdict: Equatable {
        case allowed
        /// A name this Kiosk does not answer to (421).
        case misdirected
        /// Not a host at all (400).
        case malformed
    }

    /// What to do with a request whose Host (authority) is `authority`. A request without one is
    /// allowed: the HTTP/1 channel (``HTTP1MannersHandler``) only lets HTTP/1.0 requests through
    /// without it, and those come from tools, not from browsers.
    func verdict(for authority: String?) -> Verdict {
        guard let authority else { return .allowed }
        guard let name = Self.hostName(ofAuthority: authority) else { return .malformed }
        return names.contains(name) ? .allowed : .misdirected
    }

    /// The host of an authority (`host`, `host:port`, `[v6]:port`), lowercased and without a
    /// final dot, the way names are compared; nil when it is not one.
    static func hostName(ofAuthority authority: String) -> String? {
        let host: Substring
        let port: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            port = authority[authority.index(after: close)...]
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            port = authority[colon...]
        } else {
            host = authority[...]
            port = ""
        }
        guard port.isEmpty || (port.first == ":" && port.count <= 6 && port.dropFirst().allSatisfy(\.isASCIIDigit)) else {
            return nil
        }
        var name = host.lowercased()
        if name.count > 1, name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCIIAlphanumeric || "-._~:[]%".contains($0) }) else { return nil }
        return name
    }

    /// A name or address as an operator writes it, as a Host names it: `::1` is `[::1]`.
    static func name(of host: String) -> String? {
        let trimmed = host.trimmingCharacters(in: .whitespaces)
        let bareIPv6 = !trimmed.hasPrefix("[") && trimmed.filter { $0 == ":" }.count > 1
        return hostName(ofAuthority: bareIPv6 ? "[\(trimmed)]" : trimmed)
    }

    /// Whether listening on `host` serves this machine alone: `localhost`, 127.0.0.0/8, `::1`.
    public static func isLoopback(_ host: String) -> Bool {
        let address = unbracketed(host)
        if ["localhost", "localhost."].contains(address) { return true }
        if let bytes = ipv4(address) { return bytes[0] == 127 }
        guard let bytes = ipv6(address) else { return false }
        let mappedIPv4 = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        return (bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1) || (mappedIPv4 && bytes[12] == 127)
    }

    /// Whether `host` is the any-address (`0.0.0.0`, `::`), which listens everywhere and names nothing.
    static func isWildcard(_ host: String) -> Bool {
        let address = unbracketed(host)
        return address.isEmpty || (ipv4(address) ?? ipv6(address))?.allSatisfy { $0 == 0 } == true
    }

    private static func unbracketed(_ host: String) -> String {
        let name = host.trimmingCharacters(in: .whitespaces).lowercased()
        return name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
    }

    private static func ipv4(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }

    private static func ipv6(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }
}

/// Answers 421 Misdirected Request, in plain text, to a request for a host name Kiosk does not
/// answer to (``HostPolicy``), before any route or cookie, and 400 to a Host that is no host.
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: HostPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        switch policy.verdict(for: request.head.authority) {
        case .allowed:
            return try await next(request, context)
        case .misdirected:
            context.logger.debug("refused a request for another host", metadata: ["host": "\(request.head.authority ?? "")"])
            return Self.plain(
                .misdirectedRequest, "Kiosk does not answer to this host name (its operator can add it to allowedHosts).\n")
        case .malformed:
            return Self.plain(.badRequest, "The Host header does not name a host.\n")
        }
    }

    private static func plain(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: message)))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
    fileprivate var isASCIIAlphanumeric: Bool { isASCII && (isLetter || isNumber) }
}
