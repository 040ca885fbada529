import Foundation

/// An error the Switter joke API reported in its body: `{"error": true, "reason": ...}`.
public struct JokeError: Error, Sendable, Hashable, Codable {
    /// The server's own reason, unchanged.
    public var reason: String

    /// Creates the error from the server's reason.
    public init(reason: String) {
        self.reason = reason
    }
}

extension JokeError: CustomStringConvertible {
    /// The server's own reason, unchanged.
    public var description: String { reason }
}

extension JokeError: LocalizedError {
    /// The server's own reason, unchanged.
    public var errorDescription: String? { reason }
}
