import Crypto
import Foundation

/// A browser's push subscription keys (`PushSubscription.toJSON().keys`): the public key its
/// messages are encrypted to, and the secret shared with it alone.
public struct PushSubscriptionKeys: Sendable, Equatable {
    /// The subscriber's P-256 public key, uncompressed (65 bytes, `0x04 ‖ X ‖ Y`).
    public let p256dh: Data
    /// The authentication secret (16 bytes).
    public let auth: Data

    /// The keys as the browser gives them (base64url); refused when either is not a key of its kind.
    public init(p256dh: String, auth: String) throws(WebPushError) {
        guard p256dh.count <= 100, auth.count <= 40, let point = Base64URL.decode(p256dh),
            let secret = Base64URL.decode(auth)
        else { throw .malformedKeys }
        try self.init(p256dh: point, auth: secret)
    }

    public init(p256dh: Data, auth: Data) throws(WebPushError) {
        // An uncompressed point that is on the curve (swift-crypto checks it), and 16 bytes.
        guard p256dh.count == 65, p256dh.first == 0x04, auth.count == 16,
            (try? P256.KeyAgreement.PublicKey(x963Representation: p256dh)) != nil  // try?: refused below
        else { throw .malformedKeys }
        self.p256dh = p256dh
        self.auth = auth
    }
}

/// Why a push could not be made.
public enum WebPushError: Error, Equatable, Sendable {
    /// The subscription's `keys` are not a P-256 public key and a 16-byte secret.
    case malformedKeys
    /// The message does not fit in one push (``WebPushEncryption/maximumPlaintext`` bytes).
    case messageTooLarge(bytes: Int, maximum: Int)
    /// The server's VAPID key could not be read (a damaged database).
    case malformedServerKey
    /// The VAPID contact is not a `mailto:` address or an `https:` page on a public name.
    case badContact
}

/// Message encryption for Web Push (RFC 8291), in the `aes128gcm` content coding (RFC 8188): one
/// record, encrypted with a key agreed between a fresh key pair of the sender's and the
/// subscriber's key, and salted with the subscriber's secret. Every primitive is swift-crypto's.
public enum WebPushEncryption {
    /// The record size written in the header, as browsers' push services expect.
    public static let recordSize = 4096
    /// The largest message that goes in one push: push services take bodies of up to 4,096
    /// bytes, and the header (86 bytes), the padding delimiter (1) and the tag (16) come with it.
    public static let maximumPlaintext = 4096 - 86 - 1 - 16

    /// What one encryption draws at random: the sender's key pair and the salt (RFC 8291 §3.4).
    /// A test passes RFC 8291's own to get its worked example byte for byte.
    public struct Ephemeral: Sendable {
        public var key: P256.KeyAgreement.PrivateKey
        /// 16 bytes.
        public var salt: Data

        public init(key: P256.KeyAgreement.PrivateKey, salt: Data) {
            self.key = key
            self.salt = salt
        }

        /// A new key pair and salt from the system's secure random source.
        public static func random() -> Ephemeral {
            Ephemeral(
                key: P256.KeyAgreement.PrivateKey(), salt: SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) })
        }
    }

    /// The body of a push carrying `plaintext` to the subscriber of `keys`: the `aes128gcm`
    /// header (salt, record size, the sender's public key) and the one encrypted record.
    public static func encrypt(
        _ plaintext: Data, to keys: PushSubscriptionKeys, using ephemeral: Ephemeral = .random()
    ) throws(WebPushError) -> Data {
        guard plaintext.count <= maximumPlaintext else {
            throw .messageTooLarge(bytes: plaintext.count, maximum: maximumPlaintext)
        }
        let subscriber: P256.KeyAgreement.PublicKey
        let shared: SharedSecret
        do {
            subscriber = try P256.KeyAgreement.PublicKey(x963Representation: keys.p256dh)
            shared = try ephemeral.key.sharedSecretFromKeyAgreement(with: subscriber)
        } catch {
            throw .malformedKeys
        }
        let senderPublic = ephemeral.key.publicKey.x963Representation
        // RFC 8291 §3.3–3.4: the input keying material from the ECDH secret and the auth secret.
        let keyInfo = Data("WebPush: info".utf8) + [0] + keys.p256dh + senderPublic
        let secret = shared.withUnsafeBytes { SymmetricKey(data: Data($0)) }
        let keyPRK = HKDF<SHA256>.extract(inputKeyMaterial: secret, salt: keys.auth)
        let ikm = HKDF<SHA256>.expand(pseudoRandomKey: keyPRK, info: keyInfo, outputByteCount: 32)
        // RFC 8188 §2.2–2.3: the content encryption key and nonce from the salt.
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: ephemeral.salt)
        let cek = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        // One record, the last: the message, then the delimiter 0x02 and no padding.
        let sealed: AES.GCM.SealedBox
        do {
            let nonceBytes = nonce.withUnsafeBytes { Data($0) }
            sealed = try AES.GCM.seal(plaintext + [2], using: cek, nonce: AES.GCM.Nonce(data: nonceBytes))
        } catch {
            // Unreachable: a 16-byte key and a 12-byte nonce are what AES-GCM takes.
            throw .malformedKeys
        }
        var body = ephemeral.salt
        withUnsafeBytes(of: UInt32(recordSize).bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(senderPublic.count))
        body += senderPublic
        body += sealed.ciphertext
        body += sealed.tag
        return body
    }
}
