/// A request-driven source's value as last read, and the error of the latest attempt if it
/// failed: the last good data is kept and shown with the error, never replaced by nothing.
public struct Loaded<Value: Sendable>: Sendable {
    public var value: Value?
    public var error: SourceError?

    public init(value: Value?, error: SourceError?) {
        self.value = value
        self.error = error
    }
}
