import Crypto
import Foundation
import KioskSources

/// Signs image URLs for the `/img` proxy route, so it only fetches what Kiosk's own pages asked
/// for and is no open proxy: `/img?u=<url>&s=<HMAC-SHA256 of the url, hex>`; and media files for
/// `/media`, signed apart (`media\n` before the url), so an image's signature never opens the
/// media proxy, which has no size cap.
public struct ImageSigner: Sendable {
    private let key: SymmetricKey
    /// `host:port` of the configured sources, whose images are fetched even on a private network
    /// (a self-hosted feed on the LAN, the demo's sample server on loopback).
    private let trustedAuthorities: Set<String>

    public init(key: SymmetricKey, trusting sources: [URL] = []) {
        self.key = key
        trustedAuthorities = Set(sources.compactMap(\.sourceAuthority))
    }


    /// The proxy path for an http(s) image URL from a source; nil for anything else, and for a
    /// host on a private network that is not one of the configured sources.
    public func path(for source: String?) -> String? {
        signedPath(for: source, route: "/img", purpose: .image)
    }

    /// The media proxy's path for an http(s) audio or video URL from a feed; nil as for images.
    public func mediaPath(for source: String?) -> String? {
        signedPath(for: source, route: "/media", purpose: .media)
    }

    /// What a signature is for: the same URL signed for one is refused by the other.
    public enum Purpose: Sendable {
        case image, media

        fileprivate func message(_ url: String) -> Data {
            switch self {
            case .image: Data(url.utf8)
            case .media: Data(("media\n" + url).utf8)
            }
        }
    }

    private func signedPath(for source: String?, route: String, purpose: Purpose) -> String? {
        guard let link = SafeLink.http(source), let url = URL(string: link), let host = url.host,
            PublicHost.isPublic(host) || url.sourceAuthority.map(trustedAuthorities.contains) == true
        else { return nil }
        var components = URLComponents()
        components.path = route
        components.queryItems = [
            URLQueryItem(name: "u", value: link), URLQueryItem(name: "s", value: signature(link, for: purpose)),
        ]
        // URLComponents leaves `+` and `&`-free text as is; `+` would read as a space in a query.
        let query = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B") ?? ""
        return route + "?" + query
    }

    /// Whether `signature` is this installation's signature of `url` for `purpose` (compared in
    /// constant time).
    public func isValid(url: String, signature: String, for purpose: Purpose = .image) -> Bool {
        guard let bytes = Self.bytes(fromHex: signature) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(bytes, authenticating: purpose.message(url), using: key)
    }


    func signature(_ url: String, for purpose: Purpose = .image) -> String {
        HMAC<SHA256>.authenticationCode(for: purpose.message(url), using: key).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    private static func bytes(fromHex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
