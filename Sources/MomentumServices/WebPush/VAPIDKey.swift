import Crypto
import Foundation

/// The server's application-server key for Web Push (RFC 8292, VAPID): a P-256 signing key made
/// on first use and kept in the household's database. Browsers subscribe with its public key,
/// and every push carries a token signed with it, so a push service accepts pushes to those
/// subscriptions from this server only.
public struct VAPIDKey: Sendable {
    public let privateKey: P256.Signing.PrivateKey

    public init(privateKey: P256.Signing.PrivateKey) { self.privateKey = privateKey }

    /// A key kept as its 32 raw bytes (``rawRepresentation``).
    public init(rawRepresentation: Data) throws(WebPushError) {
        do {
            privateKey = try P256.Signing.PrivateKey(rawRepresentation: rawRepresentation)
        } catch {
            throw .malformedServerKey
        }
    }

    /// A new key from the system's secure random source.
    public static func generate() -> VAPIDKey { VAPIDKey(privateKey: P256.Signing.PrivateKey()) }

    /// The 32 bytes to keep.
    public var rawRepresentation: Data { privateKey.rawRepresentation }

    /// The public key as browsers take it (`applicationServerKey`, and the `k` of a push's
    /// authorization): the uncompressed point in base64url.
    public var publicKey: String { Base64URL.encode(privateKey.publicKey.x963Representation) }

    /// The `Authorization` header of a push to `audience` (the push service's origin, such as
    /// `https://fcm.googleapis.com`): `vapid t=<JWT>, k=<public key>`, the token signed with
    /// ES256 and valid until `expiry` (at most 24 hours ahead, RFC 8292 §2).
    public func authorization(audience: String, contact: VAPIDContact?, expiry: Date) throws(WebPushError) -> String {
        let header = #"{"typ":"JWT","alg":"ES256"}"#
        let claims = VAPIDClaims(
            aud: audience, exp: Int64(expiry.timeIntervalSince1970.rounded(.down)), sub: contact?.uri)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let payload: Data
        do {
            payload = try encoder.encode(claims)
        } catch {
            // Unreachable: two strings and an integer always encode.
            throw .malformedServerKey
        }
        let signingInput = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(payload)
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try privateKey.signature(for: Data(signingInput.utf8))
        } catch {
            throw .malformedServerKey
        }
        // JWS ES256: the signature is r ‖ s, 64 bytes (RFC 7518 §3.4), not DER.
        return "vapid t=\(signingInput).\(Base64URL.encode(signature.rawRepresentation)), k=\(publicKey)"
    }
}

/// The claims of a VAPID token (RFC 8292 §2).
struct VAPIDClaims: Codable, Equatable {
    var aud: String
    var exp: Int64
    /// Left out when the owner named no contact (Apple's push service may then refuse the push).
    var sub: String?
}

/// Who a push service may contact about this server's pushes (the token's `sub`): a `mailto:`
/// address or an `https:` page. Apple refuses tokens naming `localhost` or a `.local` name.
public struct VAPIDContact: Sendable, Equatable {
    public let uri: String

    public init(_ text: String) throws(WebPushError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count <= 320, trimmed.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw .badContact
        }
        let lower = trimmed.lowercased()
        let host: Substring
        if lower.hasPrefix("mailto:") {
            let address = lower.dropFirst("mailto:".count)
            let parts = address.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else { throw .badContact }
            host = parts[1]
        } else if lower.hasPrefix("https://") {
            let rest = lower.dropFirst("https://".count)
            host = rest.prefix { $0 != "/" && $0 != ":" && $0 != "?" && $0 != "#" }
            guard !rest.contains("@") else { throw .badContact }
        } else {
            throw .badContact
        }
        let name = host.hasSuffix(".") ? host.dropLast() : host
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }),
            let last = labels.last, last != "local", last != "localhost"
        else { throw .badContact }
        uri = trimmed
    }
}
