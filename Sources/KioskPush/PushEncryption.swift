import Crypto
import Foundation

/// Web Push payload encryption (RFC 8291: aes128gcm content coding, RFC 8188), built on
/// swift-crypto's P-256 key agreement, HKDF-SHA-256 and AES-128-GCM: one record, the sender's
/// ephemeral public key as the key id.
public enum PushEncryption {
    /// The record size written in the header; the whole message is one record.
    public static let recordSize: UInt32 = 4_096
    /// The largest plaintext one message holds: 4,096 octets less the header (86), the tag (16)
    /// and the delimiter (RFC 8291 §4: 3,993).
    public static let largestPlaintext = Int(recordSize) - 86 - 16 - 1

    /// The encrypted body for `subscription`: salt (16) ‖ record size (4) ‖ key id length (1) ‖
    /// the sender's public key (65) ‖ ciphertext. A fresh key pair and salt unless given (the
    /// RFC's example fixes both).
    public static func encrypt(
        _ plaintext: [UInt8], for subscription: PushSubscription,
        senderKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
        salt: [UInt8]? = nil
    ) throws(PushError) -> [UInt8] {
        guard plaintext.count <= largestPlaintext else { throw .tooLarge(plaintext.count) }
        let salt = salt ?? randomBytes(16)
        guard salt.count == 16 else { throw .crypto("the salt is not 16 bytes") }
        let receiverKey: P256.KeyAgreement.PublicKey
        do {
            receiverKey = try P256.KeyAgreement.PublicKey(x963Representation: subscription.p256dh)
        } catch {
            throw .invalidSubscription("its p256dh key is not a point on P-256")
        }
        let shared: SharedSecret
        do {
            shared = try senderKey.sharedSecretFromKeyAgreement(with: receiverKey)
        } catch {
            throw .crypto("the key agreement failed")
        }
        let senderPublic = Array(senderKey.publicKey.x963Representation)
        let sealed: AES.GCM.SealedBox
        do {
            let (contentKey, nonce) = try contentKey(
                shared: shared, auth: subscription.auth, receiverPublic: subscription.p256dh, senderPublic: senderPublic,
                salt: salt)
            // The last (and only) record ends with the delimiter 2, no padding.
            sealed = try AES.GCM.seal(plaintext + [2], using: contentKey, nonce: nonce)
        } catch {
            throw .crypto("AES-GCM failed")
        }
        var body = salt
        body += withUnsafeBytes(of: recordSize.bigEndian, Array.init)
        body.append(UInt8(senderPublic.count))
        body += senderPublic
        body += sealed.ciphertext
        body += sealed.tag
        return body
    }

    /// The record's key and nonce (RFC 8291 §3.3-3.4, RFC 8188 §2.2-2.3), the same for the
    /// sender and the device: IKM = HKDF(salt: auth, ikm: the ECDH secret, info: "WebPush: info"
    /// ‖ 0 ‖ the device's public key ‖ the sender's), then the key and nonce from it and `salt`.
    static func contentKey(
        shared: SharedSecret, auth: [UInt8], receiverPublic: [UInt8], senderPublic: [UInt8], salt: [UInt8]
    ) throws -> (key: SymmetricKey, nonce: AES.GCM.Nonce) {
        let keyInfo = Array("WebPush: info".utf8) + [0] + receiverPublic + senderPublic
        let ikm = shared.withUnsafeBytes { secret in
            HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: secret), salt: auth, info: keyInfo, outputByteCount: 32)
        }
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let key = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        return (key, try nonce.withUnsafeBytes { try AES.GCM.Nonce(data: Array($0)) })
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
