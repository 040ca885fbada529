import Crypto
import Foundation

/// Random secrets (session tokens, app passwords, anti-forgery tokens) and the hash the store
/// keeps of them. They carry 128 bits or more from the system's generator, so a fast hash
/// (SHA-256) is the right one to store: nothing is guessed from it, and lookups stay exact.
public enum Secret {
    /// A token of `bytes` random bytes as lowercase hex, safe in cookies, URLs and headers
    /// (the Google Reader API's clients choke on `=`).
    public static func token(bytes: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
            .joined()
    }

    /// An app password a person can type on a phone: five groups of four lowercase letters and
    /// digits (about 103 bits), e.g. `k3fx-9q2m-...`.
    public static func appPassword() -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<20).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return stride(from: 0, to: 20, by: 4).map { String(characters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    /// The Fever API's key for a name and password: MD5 of `name:password`, lowercase hex (Fever's
    /// own scheme; the store keeps only `hash(_:)` of it).
    public static func feverKey(name: String, password: String) -> String {
        Insecure.MD5.hash(data: Data("\(name):\(password)".utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether a token sent by a client is `expected`, compared in constant time (every byte is
    /// looked at whatever matches), so timing tells nothing of how much of it was right.
    public static func matches(_ sent: String, _ expected: String) -> Bool {
        guard sent.utf8.count == expected.utf8.count, !expected.isEmpty else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(sent.utf8, expected.utf8) { difference |= a ^ b }
        return difference == 0
    }

    /// What the store keeps of a secret: SHA-256, hex.
    public static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
