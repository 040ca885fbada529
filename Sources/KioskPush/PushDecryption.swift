import Crypto
import Foundation

/// The receiving side of RFC 8291, what a browser's push stack does with a message: for the demo
/// push service (which stands in for a browser's on loopback) and the tests. One record, as
/// `PushEncryption` writes it; built on swift-crypto as the sending side is.
public enum PushDecryption {
    /// The plaintext of `body`, sent to the device whose key pair is `privateKey` and whose
    /// authentication secret is `auth`; a body that is not one aes128gcm record for them is
    /// refused with a sentence.
    public static func decrypt(
        _ body: [UInt8], privateKey: P256.KeyAgreement.PrivateKey, auth: [UInt8]
    ) throws(PushError) -> [UInt8] {
        // salt (16) ‖ record size (4) ‖ key id length (1) ‖ key id (the sender's public key)
        guard body.count > 21 else { throw .crypto("the message is shorter than its header") }
        let salt = Array(body[0..<16])
        let idLength = Int(body[20])
        guard idLength == 65, body.count >= 21 + idLength + 16 else {
            throw .crypto("the message's key id is not a P-256 public key")
        }
        let senderPublic = Array(body[21..<(21 + idLength)])
        let sealed = Array(body[(21 + idLength)...])
        let senderKey: P256.KeyAgreement.PublicKey
        let shared: SharedSecret
        do {
            senderKey = try P256.KeyAgreement.PublicKey(x963Representation: senderPublic)
            shared = try privateKey.sharedSecretFromKeyAgreement(with: senderKey)
        } catch {
            throw .crypto("the sender's key is not a point on P-256")
        }
        let padded: [UInt8]
        do {
            let (contentKey, nonce) = try PushEncryption.contentKey(
                shared: shared, auth: auth, receiverPublic: Array(privateKey.publicKey.x963Representation),
                senderPublic: senderPublic, salt: salt)
            let box = try AES.GCM.SealedBox(nonce: nonce, ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
            padded = Array(try AES.GCM.open(box, using: contentKey))
        } catch {
            throw .crypto("the message does not open with this device's keys")
        }
        // The last record: its data, then the delimiter 2, then any zero padding.
        guard let delimiter = padded.lastIndex(where: { $0 != 0 }), padded[delimiter] == 2 else {
            throw .crypto("the message's last record has no delimiter")
        }
        return Array(padded[..<delimiter])
    }
}

/// A device's side of Web Push: its key pair and authentication secret, what it hands a sender
/// (`p256dh`, `auth`, base64url as a browser's `PushSubscription.toJSON()` writes them), and the
/// messages it opens. The demo push service keeps one per device it stands in for.
public struct PushReceiver: Sendable {
    private let key: P256.KeyAgreement.PrivateKey
    private let secret: [UInt8]

    public init() {
        key = P256.KeyAgreement.PrivateKey()
        secret = PushEncryption.randomBytes(16)
    }

    public var p256dh: String { Base64URL.encode(key.publicKey.x963Representation) }
    public var auth: String { Base64URL.encode(secret) }

    /// The plaintext of a message sent to this device.
    public func open(_ body: [UInt8]) throws(PushError) -> [UInt8] {
        try PushDecryption.decrypt(body, privateKey: key, auth: secret)
    }
}
