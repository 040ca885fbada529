import Foundation
import KioskCore

/// Addresses found on web pages, made absolute and comparable: only http(s) survives, since
/// anything else (`javascript:`, `data:`, `mailto:`, app links) is nothing a fetcher may follow.
enum DiscoveryURL {
    /// `reference` as an absolute http(s) URL against `base`, or nil when it is none.
    ///
    /// As in browsers, tabs and newlines anywhere are dropped and surrounding whitespace trimmed
    /// (pages wrap long `href`s). `feed://host/path` and `feed:https://...`, the old
    /// "subscribe" links, become the http(s) URL they wrap. The result has a lowercase scheme
    /// and host and no fragment, so the same feed written two ways is deduplicated.
    static func absolute(_ reference: String, against base: String?) -> String? {
        var cleaned = reference
        if cleaned.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            cleaned.removeAll(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        }
        cleaned = cleaned.trimmingASCIIWhitespace
        guard !cleaned.isEmpty, let unwrapped = unwrappingFeedScheme(cleaned) else { return nil }
        let resolved = URLResolution.resolve(unwrapped, against: base)
        // Foundation percent-encodes what may not appear in a URL (spaces, non-ASCII) here.
        guard let url = URL(string: resolved), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { return nil }
        return canonical(url.absoluteString)
    }

    /// The parts of an absolute URL this module reads; nil for anything but `scheme://...`.
    struct Parts {
        var scheme: Substring
        /// Userinfo, host and port, as written.
        var authority: Substring
        /// The host and port, without userinfo.
        var hostAndPort: Substring
        var path: Substring
        var query: Substring?

        init?(_ url: String) {
            guard let colon = url.firstIndex(of: ":") else { return nil }
            let rest = url[url.index(after: colon)...]
            guard rest.hasPrefix("//") else { return nil }
            scheme = url[..<colon]
            let authorityStart = rest.index(rest.startIndex, offsetBy: 2)
            let afterAuthority = rest[authorityStart...]
            let authorityEnd = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" })
                ?? afterAuthority.endIndex
            authority = afterAuthority[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                hostAndPort = authority[authority.index(after: at)...]
            } else {
                hostAndPort = authority
            }
            let tail = afterAuthority[authorityEnd...]
            let tailEnd = tail.firstIndex(of: "#") ?? tail.endIndex
            let beforeFragment = tail[..<tailEnd]
            if let question = beforeFragment.firstIndex(of: "?") {
                path = beforeFragment[..<question]
                query = beforeFragment[beforeFragment.index(after: question)...]
            } else {
                path = beforeFragment
                query = nil
            }
        }

        /// The host alone (no port, IPv6 brackets kept), lowercase as ``canonical(_:)`` makes it.
        var host: Substring {
            if hostAndPort.hasPrefix("["), let close = hostAndPort.firstIndex(of: "]") {
                return hostAndPort[...close]
            }
            return hostAndPort[..<(hostAndPort.firstIndex(of: ":") ?? hostAndPort.endIndex)]
        }

        /// `scheme://host[:port]`: where a site's own paths live. Userinfo is left out: an origin
        /// has none, and credentials have no business in a list of guesses.
        var origin: String {
            "\(scheme)://\(hostAndPort)"
        }
    }

    /// An absolute URL with the fragment removed and the scheme and host lowercased (the parts
    /// that are case-insensitive), so equal addresses compare equal.
    static func canonical(_ url: String) -> String {
        let withoutFragment = url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url
        guard let parts = Parts(withoutFragment) else { return withoutFragment }
        var out = parts.scheme.lowercased() + "://"
        if parts.authority.count != parts.hostAndPort.count {
            out += parts.authority.dropLast(parts.hostAndPort.count)
        }
        out += parts.hostAndPort.lowercased()
        out += parts.path
        if let query = parts.query { out += "?" + query }
        return out
    }

    /// `feed:` links unwrapped to the http(s) URL inside; other references unchanged; nil for a
    /// `feed:` link that wraps nothing usable.
    private static func unwrappingFeedScheme(_ reference: String) -> String? {
        guard hasPrefixIgnoringCase(reference, "feed:") else { return reference }
        let rest = reference.dropFirst(5)
        if rest.hasPrefix("//") { return "http:" + rest }
        if hasPrefixIgnoringCase(rest, "http://") || hasPrefixIgnoringCase(rest, "https://") {
            return String(rest)
        }
        return nil
    }

    /// ASCII case-insensitive prefix test (`prefix` lowercase).
    static func hasPrefixIgnoringCase<S: StringProtocol>(_ text: S, _ prefix: String) -> Bool {
        var textBytes = text.utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = textBytes.next() else { return false }
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            if lower != expected { return false }
        }
        return true
    }
}
