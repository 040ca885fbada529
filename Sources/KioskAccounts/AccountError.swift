import Foundation

/// Why an account operation did not happen, in words shown to the person who tried.
public enum AccountError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidName(String)
    case invalidPassword(String)
    case nameTaken(String)
    case unknownAccount(String)
    /// Wrong name or password; which of the two is never said.
    case wrongCredentials
    /// Too many failed attempts; try again after this long.
    case throttled(retryAfter: Duration)
    case storage(String)

    public var description: String {
        switch self {
        case .invalidName(let message), .invalidPassword(let message): message
        case .nameTaken(let name): "There is already an account named \(name)."
        case .unknownAccount(let name): "There is no account named \(name)."
        case .wrongCredentials: "The name or the password is wrong."
        case .throttled(let wait):
            "Too many sign-in attempts. Try again in \(Self.minutes(wait))."
        case .storage(let message): "The account could not be saved: \(message)"
        }
    }

    private static func minutes(_ wait: Duration) -> String {
        let minutes = max(1, Int((Double(wait.components.seconds) / 60).rounded(.up)))
        return minutes == 1 ? "a minute" : "\(minutes) minutes"
    }
}
