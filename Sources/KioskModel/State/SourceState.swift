import Foundation
import KioskCore

/// What the engine remembers of a feed between checks. A type of its own, not the engine's,
/// because the store keeps it and the web app's tests seed it.
public struct SourceState: Sendable, Hashable {
    public var entries: [Entry]?
    public var validators = Validators()
    public var failures = 0
    public var lastError: SourceError?
    /// When the source last answered. A 304 that changes nothing else updates it in memory
    /// only: writing it for every source on every check would be the store's whole load.
    public var lastSuccess: Date?
    /// When the source last failed (`lastError` says why, `failures` drives the backoff).
    public var lastFailure: Date?

    public init(
        entries: [Entry]? = nil, validators: Validators = Validators(), failures: Int = 0,
        lastError: SourceError? = nil, lastSuccess: Date? = nil, lastFailure: Date? = nil
    ) {
        self.entries = entries
        self.validators = validators
        self.failures = failures
        self.lastError = lastError
        self.lastSuccess = lastSuccess
        self.lastFailure = lastFailure
    }
}
