import Foundation

/// Base64url without padding (RFC 4648 §5), as Web Push writes keys, salts and tokens.
public enum Base64URL {
    /// `data` in base64url, without `=` padding.
    public static func encode(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url `text` (padding allowed, nothing else: no `+`, `/`, spaces or line
    /// breaks); `nil` when it is not base64url.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var body = Substring(text)
        while body.hasSuffix("=") { body.removeLast() }
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        guard body.allSatisfy(alphabet.contains), body.count % 4 != 1 else { return nil }
        var standard = body.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }
}
