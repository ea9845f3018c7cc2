import Crypto
import Foundation
import MomentumServices
import Testing

/// The server's VAPID token (RFC 8292): an ES256 JWT that verifies with the public key browsers
/// subscribe with, naming the push service, the contact and an expiry.
struct VAPIDKeyTests {
    @Test func theTokenVerifiesWithThePublicKeyAndCarriesItsClaims() throws {
        let key = VAPIDKey.generate()
        let expiry = Date(timeIntervalSince1970: 1_800_000_000.7)
        let header = try key.authorization(
            audience: "https://fcm.googleapis.com", contact: VAPIDContact("mailto:owner@example.org"), expiry: expiry)
        let pattern = /vapid t=([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+), k=([A-Za-z0-9_-]+)/
        let match = try #require(header.wholeMatch(of: pattern))
        #expect(String(match.4) == key.publicKey)
        let publicKey = try P256.Signing.PublicKey(x963Representation: #require(Base64URL.decode(match.4)))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: #require(Base64URL.decode(match.3)))
        #expect(publicKey.isValidSignature(signature, for: Data("\(match.1).\(match.2)".utf8)))
        // A token changed after signing does not verify.
        #expect(!publicKey.isValidSignature(signature, for: Data("\(match.1).\(match.2)x".utf8)))

        let jose = try JSONSerialization.jsonObject(with: #require(Base64URL.decode(match.1))) as? [String: String]
        #expect(jose == ["typ": "JWT", "alg": "ES256"])
        let claims = try JSONSerialization.jsonObject(with: #require(Base64URL.decode(match.2))) as? [String: Any]
        #expect(claims?["aud"] as? String == "https://fcm.googleapis.com")
        #expect(claims?["sub"] as? String == "mailto:owner@example.org")
        #expect((claims?["exp"] as? NSNumber)?.int64Value == 1_800_000_000)
    }

    @Test func aKeptKeyIsTheSameKey() throws {
        let key = VAPIDKey.generate()
        let kept = try VAPIDKey(rawRepresentation: key.rawRepresentation)
        #expect(kept.publicKey == key.publicKey)
        #expect(Base64URL.decode(key.publicKey)?.count == 65)
        #expect(throws: WebPushError.malformedServerKey) { try VAPIDKey(rawRepresentation: Data(count: 5)) }
    }

    @Test(arguments: ["mailto:owner@example.org", "https://momentum.example.org/contact", "  mailto:a@b.de "])
    func aMailtoOrHttpsContactOnAPublicNameIsTaken(_ text: String) throws {
        #expect(try VAPIDContact(text).uri == text.trimmingCharacters(in: .whitespaces))
    }

    @Test(arguments: [
        "", "owner@example.org", "http://example.org", "mailto:owner@localhost", "mailto:owner@pi.local",
        "https://localhost/", "https://pi.local", "https://momentum.LOCAL./x", "mailto:@example.org",
        "mailto:a@b@example.org", "https://user@example.org", "mailto:owner@example.org\n", "https://example",
        "mailto:owner@exa mple.org",
    ])
    func otherContactsAreRefused(_ text: String) {
        #expect(throws: WebPushError.badContact) { try VAPIDContact(text) }
    }
}
