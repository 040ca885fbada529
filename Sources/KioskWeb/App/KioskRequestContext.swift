import Hummingbird
import KioskStore
import KioskSync

/// The request context of every route: Hummingbird's core, the browser's client id (a cookie),
/// which keeps one joke request and one search in flight per browser, and who is signed in.
public struct KioskRequestContext: RequestContext, SyncRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by ``ClientMiddleware`` before any route runs.
    public var clientID = ""
    /// The peer's IP address (a reverse proxy's, when there is one).
    public let remoteAddress: String?
    /// The client's address: the peer's, or what a configured proxy says in `X-Forwarded-For`
    /// (``ForwardedForMiddleware``). Sign-in throttling counts by it; it stands in for the client
    /// id of a request without the cookie.
    public var clientAddress: String?
    /// Whose request this is: set by ``SignInMiddleware`` (the local owner when Kiosk has no
    /// accounts and listens on loopback only).
    public var user: UserID = .owner
    /// The signed-in account; nil for the local owner.
    public var account: Account?
    /// The web session's anti-forgery token (nil for the local owner, who has no session).
    public var csrf: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
        clientAddress = remoteAddress
    }

    /// What a page shows of who is reading it.
    var viewer: Viewer? { account.map { Viewer(name: $0.name, csrf: csrf ?? "") } }
}

/// The signed-in person a page is drawn for: named in the shell, and the page carries their
/// anti-forgery token for the script's requests and the forms.
struct Viewer: Sendable, Hashable {
    var name: String
    var csrf: String
}

/// Sent to the child task that answers a request (`ChildTaskResponder`).
extension KioskRequestContext: Sendable {}
