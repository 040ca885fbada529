/// A way a source can misbehave, switched on per source through ``DemoControl``.
public enum DemoFault: String, CaseIterable, Sendable, Hashable {
    /// Behaves normally.
    case none
    /// Headers at once, then the body a few bytes every 500 ms.
    case slowBody
    /// HTTP 500, with the API's own error shape where it has one (NewsAPI, Switter).
    case serverError
    /// The connection is torn down after a few bytes of the body.
    case connectionReset
    /// HTTP 200 with random bytes.
    case garbageBody
    /// HTTP 200 streaming about 64 MB.
    case oversizedBody
    /// HTTP 302 back to the same URL.
    case redirectLoop
    /// HTTP 301 to the `https://` form of the same URL, on the same host and port, where only
    /// plain HTTP is spoken: what a client sees when TLS is stripped or unavailable. A client that
    /// follows it fails its TLS handshake; one that falls back to plain HTTP is the bug.
    case tlsDowngrade
    /// No answer at all until the client gives up or the server stops.
    case neverAnswer

    /// The fault named `name`, case-insensitively (`serverError`, `servererror`).
    public init?(name: String) {
        let lowered = name.lowercased()
        guard let fault = DemoFault.allCases.first(where: { $0.rawValue.lowercased() == lowered }) else { return nil }
        self = fault
    }
}
