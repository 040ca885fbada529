import Hummingbird

/// The request context of every route: Hummingbird's core plus the browser's client id (a
/// cookie), which keeps one joke request and one search in flight per browser.
public struct KioskRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by ``ClientMiddleware`` before any route runs.
    public var clientID = ""
    /// The peer's IP address, which stands in for the client id of a request without the cookie.
    public let remoteAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }
}
