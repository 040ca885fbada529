import Foundation

/// Why a seed source's response could not be read. Every failure of the seed parsers is one of these.
public enum SeedError: Error, Sendable, Hashable {
    /// The bytes are not JSON at all: empty, an HTML error page, truncated or otherwise malformed.
    /// The string says which, in words fit to show a user.
    case notJSON(String)
    /// The JSON is well-formed but is not the document this parser reads (e.g. an array where an
    /// object was expected, or no `results`). The string says what was expected.
    case unexpectedShape(String)
    /// NewsAPI answered with `{"status": "error", ...}`.
    case newsAPI(NewsAPIError)
    /// The Switter joke API answered with `{"error": true, "reason": ...}`.
    case joke(JokeError)

    /// The message a service put in its error body, unchanged; nil for errors Kiosk detected itself.
    public var apiMessage: String? {
        switch self {
        case .newsAPI(let error): error.message
        case .joke(let error): error.reason
        case .notJSON, .unexpectedShape: nil
        }
    }
}

extension SeedError: CustomStringConvertible {
    /// A sentence fit to show a user; for API errors, the service's own message unchanged.
    public var description: String {
        switch self {
        case .notJSON(let why): "The response is not JSON: \(why)."
        case .unexpectedShape(let what): "The response is not in the expected format: \(what)."
        case .newsAPI(let error): error.description
        case .joke(let error): error.description
        }
    }
}

extension SeedError: LocalizedError {
    /// Same as ``description``, so `localizedDescription` shows it too.
    public var errorDescription: String? { description }
}
