import Hummingbird

/// What the sync APIs need of a request's context beyond Hummingbird's: the client's address
/// (sign-in attempts are throttled per address).
public protocol SyncRequestContext: RequestContext {
    var clientAddress: String? { get }
}
