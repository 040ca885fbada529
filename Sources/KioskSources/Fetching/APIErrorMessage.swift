import Foundation
import KioskCore

/// Finds a service's own words in an error body, so a 401 says "Your API key is invalid" rather than "HTTP 401".
enum APIErrorMessage {
    /// Most of an error body read; the message is near the start and the rest is not worth waiting for.
    static let bodyPrefixLimit = 64 << 10

    /// The message of a NewsAPI `{status, code, message}` or Switter `{error, reason}` body; nil for anything else.
    static func message(in bytes: [UInt8]) -> String? {
        guard !bytes.isEmpty else { return nil }
        let data = Data(bytes)
        do {
            _ = try NewsAPIParser.parse(data)
        } catch {
            if let message = error.apiMessage { return message }
        }
        do {
            _ = try JokeParser.parse(data)
        } catch {
            if let message = error.apiMessage { return message }
        }
        return nil
    }
}
