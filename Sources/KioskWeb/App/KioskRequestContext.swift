import Hummingbird

/// The request context of every route: Hummingbird's core plus the browser's client id (a
/// cookie), which keeps one joke request and one search in flight per browser.
public struct KioskRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by ``ClientMiddleware`` before any route runs.
    public var clientID = ""

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}
