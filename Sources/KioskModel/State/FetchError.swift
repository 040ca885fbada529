/// Why a fetch failed. Every failure of a fetcher is one of these (Codable: see `SourceError`).
public enum FetchError: Error, Sendable, Hashable, Codable {
    /// No complete answer within the request's timeout (connect, headers or body).
    case timeout
    /// A non-2xx, non-304 status. `message` is the API's own message when the body has a known
    /// error shape (NewsAPI `{status, code, message}`, Switter `{error, reason}`);
    /// `retryAfter` is the server's `Retry-After`, when it sent one.
    case status(code: Int, message: String?, retryAfter: Duration?)
    /// The body is larger than the request's `maxBytes` (after decompression).
    case tooLarge(limit: Int)
    /// More redirects than allowed, or a redirect loop.
    case tooManyRedirects
    /// The connection failed or was reset, DNS failed...
    case network(String)
    /// The secure (TLS) connection of an `https` URL could not be made: the server does not
    /// speak TLS there (stripped or unavailable), or its certificate is not trusted. The fetch
    /// never falls back to plain HTTP.
    case tls(String)
    /// The URL cannot be fetched (not http or https).
    case invalidURL(String)
    /// The destination (the URL asked for, or a redirect) is on a private or local network, or a
    /// redirect would leave `https` for plain `http`; the reason says which host and why (see
    /// `DestinationGuard` and `HTTPFetcher.downgradeRefusal(from:to:)`).
    case refused(String)
}

extension FetchError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .timeout: "the source did not answer in time"
        case .status(let code, let message?, _): "HTTP \(code): \(message)"
        case .status(let code, nil, _): "HTTP \(code)"
        case .tooLarge(let limit): "the answer is larger than \(Self.size(limit))"
        case .tooManyRedirects: "too many redirects"
        case .network(let why): "network error: \(why)"
        case .tls(let why): "the secure connection failed: \(why)"
        case .invalidURL(let url): "not an http(s) URL: \(url)"
        case .refused(let why): "address refused: \(why)"
        }
    }

    /// `bytes` as a reader would say it: whole MB or KB when it is one, else bytes.
    public static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }
}
