import KioskModel

/// A request-driven source's value as last read, and the error of the latest attempt if it
/// failed: the last good data is kept and shown with the error, never replaced by nothing.
public struct Loaded<Value: Sendable>: Sendable {
    public var value: Value?
    public var error: SourceError?
    /// A refresh is under way: this is the value as last read, shown meanwhile.
    public var refreshing: Bool

    public init(value: Value?, error: SourceError?, refreshing: Bool = false) {
        self.value = value
        self.error = error
        self.refreshing = refreshing
    }
}
