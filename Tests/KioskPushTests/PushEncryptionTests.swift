import Crypto
import Foundation
import JWTKit
import KioskPush
import Testing

/// Web Push encryption against RFC 8291's worked example (§5, every value from the RFC), both
/// ways (`PushDecryption`, the receiving side, opens it), a round trip, and the VAPID header a push
/// service checks (RFC 8292).
@Suite struct PushEncryptionTests {
    private static func bytes(_ text: String) throws -> [UInt8] { try #require(Base64URL.decode(text)) }

    @Test func theRFCExampleIsMatchedByteForByte() throws {
        let sender = try P256.KeyAgreement.PrivateKey(
            rawRepresentation: try Self.bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
        #expect(
            Base64URL.encode(sender.publicKey.x963Representation)
                == "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
        let subscription = try PushSubscription(
            endpoint: "https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV",
            p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
            auth: "BTBZMqHH6r4Tts7J_aSIgg")
        let body = try PushEncryption.encrypt(
            Array("When I grow up, I want to be a watermelon".utf8), for: subscription, senderKey: sender,
            salt: try Self.bytes("DGv6ra1nlYgDCS1FRnbzlw"))
        #expect(
            Base64URL.encode(body)
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
        // The receiver's side (the demo push service's): the RFC's message opens with its key.
        let receiver = try P256.KeyAgreement.PrivateKey(
            rawRepresentation: try Self.bytes("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"))
        #expect(Array(receiver.publicKey.x963Representation) == subscription.p256dh)
        let plain = try PushDecryption.decrypt(body, privateKey: receiver, auth: subscription.auth)
        #expect(String(decoding: plain, as: UTF8.self) == "When I grow up, I want to be a watermelon")
        #expect(throws: PushError.self) { try PushDecryption.decrypt(Array(body.prefix(40)), privateKey: receiver, auth: subscription.auth) }
    }

    @Test func aFreshMessageIsReadByItsReceiverAndByNoOtherKey() throws {
        let receiver = P256.KeyAgreement.PrivateKey()
        let auth = Array((0..<16).map { UInt8($0 * 7 % 256) })
        let subscription = PushSubscription(
            endpoint: URL(string: "https://push.example.net/x")!, p256dh: Array(receiver.publicKey.x963Representation),
            auth: auth)
        let message = Array(#"{"title":"Storm warning é 🌧"}"#.utf8)
        let body = try PushEncryption.encrypt(message, for: subscription)
        #expect(try PushDecryption.decrypt(body, privateKey: receiver, auth: auth) == message)
        #expect(throws: (any Error).self) { try PushDecryption.decrypt(body, privateKey: P256.KeyAgreement.PrivateKey(), auth: auth) }
        // Two messages of the same text differ (fresh key and salt each time).
        #expect(try PushEncryption.encrypt(message, for: subscription) != body)
        #expect(throws: PushError.tooLarge(3_994)) {
            try PushEncryption.encrypt(Array(repeating: 1, count: 3_994), for: subscription)
        }
        // The largest that fits makes a body of exactly 4,096 octets.
        #expect(try PushEncryption.encrypt(Array(repeating: 1, count: 3_993), for: subscription).count == 4_096)
    }

    @Test func aSubscriptionThatCannotBeEncryptedForIsRefusedWithASentence() {
        #expect(throws: PushError.self) { try PushSubscription(endpoint: "not a url", p256dh: "BA", auth: "AA") }
        #expect(throws: PushError.self) {
            try PushSubscription(endpoint: "https://push.example/x", p256dh: Base64URL.encode([4] + [UInt8](repeating: 1, count: 64)), auth: "short")
        }
        let notOnCurve = PushSubscription(
            endpoint: URL(string: "https://push.example/x")!, p256dh: [4] + [UInt8](repeating: 1, count: 64),
            auth: [UInt8](repeating: 0, count: 16))
        #expect(throws: PushError.self) { try PushEncryption.encrypt([1], for: notOnCurve) }
    }

    @Test func theVAPIDHeaderCarriesAJWTForTheEndpointsOriginSignedByTheKeptKey() async throws {
        let key = VAPIDKey()
        let kept = try #require(VAPIDKey(pem: key.pem))
        #expect(kept.publicKey == key.publicKey)
        #expect(try Self.bytes(key.publicKey).count == 65)
        let now = Date()
        let header = try await kept.authorization(
            for: URL(string: "https://fcm.example.com:8443/wp/abc?x=1")!, subject: "mailto:owner@kiosk.example", now: now)
        #expect(header.hasPrefix("vapid t=") && header.hasSuffix(",k=\(key.publicKey)"))
        let token = try #require(header.firstMatch(of: /t=([^,]+),/).map { String($0.1) })

        struct Claims: JWTPayload {
            var aud: String
            var exp: ExpirationClaim
            var sub: String
            func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
        }
        let verifier = await JWTKeyCollection().add(
            ecdsa: try ES256PublicKey(backing: P256.Signing.PublicKey(x963Representation: try Self.bytes(key.publicKey))))
        let claims = try await verifier.verify(token, as: Claims.self)
        #expect(claims.aud == "https://fcm.example.com:8443")
        #expect(claims.sub == "mailto:owner@kiosk.example")
        #expect(abs(claims.exp.value.timeIntervalSince(now) - 12 * 3_600) < 2)
        // Signed by another key: refused.
        let other = await JWTKeyCollection().add(ecdsa: try ES256PublicKey(backing: P256.Signing.PrivateKey().publicKey))
        await #expect(throws: (any Error).self) { try await other.verify(token, as: Claims.self) }
    }
}
