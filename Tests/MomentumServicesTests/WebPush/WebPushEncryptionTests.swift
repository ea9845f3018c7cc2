import Crypto
import Foundation
import MomentumServices
import Testing

/// RFC 8291's message encryption, checked against the RFC's own worked example (Appendix A) byte
/// for byte, and against AES-GCM opened with the subscriber's side of the agreement.
struct WebPushEncryptionTests {
    /// RFC 8291 Appendix A, every value as the RFC prints it.
    enum Example {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let senderPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let senderPublic =
            "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        static let subscriberPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let subscriberPublic =
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let auth = "BTBZMqHH6r4Tts7J_aSIgg"
        static let body =
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    private func data(_ base64url: String) throws -> Data { try #require(Base64URL.decode(base64url)) }

    @Test func theRFCsWorkedExampleComesOutByteForByte() throws {
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: data(Example.senderPrivate))
        #expect(Base64URL.encode(sender.publicKey.x963Representation) == Example.senderPublic)
        let keys = try PushSubscriptionKeys(p256dh: Example.subscriberPublic, auth: Example.auth)
        let body = try WebPushEncryption.encrypt(
            Data(Example.plaintext.utf8), to: keys,
            using: .init(key: sender, salt: data(Example.salt)))
        #expect(Base64URL.encode(body) == Example.body)
    }

    /// A push made with fresh random keys opens on the subscriber's side: the header carries the
    /// salt, the record size and the sender's key, and the record ends with the delimiter 0x02.
    @Test func aPushWithFreshKeysOpensWithTheSubscribersKey() throws {
        let subscriber = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { UInt8($0 * 7) })
        let keys = try PushSubscriptionKeys(p256dh: subscriber.publicKey.x963Representation, auth: auth)
        let message = Data(#"{"title":"Time to sit","url":"/#meditate"}"#.utf8)
        let body = try WebPushEncryption.encrypt(message, to: keys)
        let salt = body.prefix(16)
        #expect(body[16..<20] == Data([0, 0, 0x10, 0]))
        #expect(body[20] == 65)
        let senderKey = try P256.KeyAgreement.PublicKey(x963Representation: body[21..<86])
        // The subscriber's derivation, written from RFC 8291 §3.4 and RFC 8188 §2 again.
        let shared = try subscriber.sharedSecretFromKeyAgreement(with: senderKey)
        let keyInfo = Data("WebPush: info".utf8) + [0] + keys.p256dh + senderKey.x963Representation
        let ikm = HKDF<SHA256>.expand(
            pseudoRandomKey: HKDF<SHA256>.extract(
                inputKeyMaterial: shared.withUnsafeBytes { SymmetricKey(data: Data($0)) }, salt: auth),
            info: keyInfo, outputByteCount: 32)
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let cek = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        let record = body[86...]
        let box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }), ciphertext: record.dropLast(16),
            tag: record.suffix(16))
        #expect(try AES.GCM.open(box, using: cek) == message + [2])
        // Another push of the same message is another body: a new key pair and salt each time.
        #expect(try WebPushEncryption.encrypt(message, to: keys) != body)
    }

    @Test func aMessageTooLargeForOnePushIsRefused() throws {
        let keys = try PushSubscriptionKeys(p256dh: Example.subscriberPublic, auth: Example.auth)
        let largest = Data(repeating: 0x41, count: WebPushEncryption.maximumPlaintext)
        #expect(try WebPushEncryption.encrypt(largest, to: keys).count == 4096)
        #expect(throws: WebPushError.messageTooLarge(bytes: 3994, maximum: 3993)) {
            try WebPushEncryption.encrypt(largest + [0x41], to: keys)
        }
    }

    @Test(arguments: [
        ("", Example.auth),
        (Example.subscriberPublic, ""),
        (Example.subscriberPublic, "BTBZMqHH6r4Tts7J_aSI"),  // 15 bytes
        (String(Example.subscriberPublic.dropLast(2)), Example.auth),  // 64 bytes
        ("A" + Example.subscriberPublic.dropFirst(), Example.auth),  // not an uncompressed point
        (Example.subscriberPublic.replacingOccurrences(of: "BCVx", with: "BCVy"), Example.auth),  // off the curve
        (Example.subscriberPublic + " ", Example.auth),
        (Example.subscriberPublic.replacingOccurrences(of: "_", with: "/"), Example.auth),
        (String(repeating: "A", count: 10_000), Example.auth),
    ])
    func keysThatAreNotAP256PointAndA16ByteSecretAreRefused(p256dh: String, auth: String) {
        #expect(throws: WebPushError.malformedKeys) { try PushSubscriptionKeys(p256dh: p256dh, auth: auth) }
    }

    @Test func base64urlRoundTripsAndRefusesOtherAlphabets() {
        for length in 0..<40 {
            let bytes = Data((0..<length).map { UInt8(($0 * 37 + 251) % 256) })
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
        }
        #expect(Base64URL.decode("ab+c") == nil)
        #expect(Base64URL.decode("ab c") == nil)
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("YQ==") == Data("a".utf8))
    }
}
