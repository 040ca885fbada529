import Foundation

/// An error NewsAPI reported in its body: `{"status": "error", "code": ..., "message": ...}`.
public struct NewsAPIError: Error, Sendable, Hashable, Codable {
    /// NewsAPI's machine-readable code, e.g. `apiKeyInvalid` or `maximumResultsReached`.
    public var code: String?
    /// NewsAPI's own human-readable message, unchanged.
    public var message: String

    /// Creates the error from NewsAPI's code and message.
    public init(code: String?, message: String) {
        self.code = code
        self.message = message
    }
}

extension NewsAPIError: CustomStringConvertible {
    /// The API's own message, unchanged: it already tells the user what to do.
    public var description: String { message }
}

extension NewsAPIError: LocalizedError {
    /// NewsAPI's own message, unchanged.
    public var errorDescription: String? { message }
}
