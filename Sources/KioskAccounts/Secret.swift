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

    /// What the store keeps of a secret: SHA-256, hex.
    public static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
