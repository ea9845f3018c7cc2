import Foundation

/// A one-time code that signs one browser in as one person: `momentum pair --user NAME` (or
/// Settings → People → "Add a device") makes it, the person opens its link on their phone within
/// ten minutes, and it is spent.
///
/// Twelve characters from an alphabet without look-alikes (no 0/O, 1/I/L, U), shown in groups of
/// four (`7KQM-X3HD-R9WE`): about 58 bits, far beyond guessing in ten minutes. Typed codes are
/// read forgivingly (any case, spaces or dashes anywhere).
///
/// ```swift
/// var random = SystemRandomNumberGenerator()
/// let code = PairingCode.make(using: &random)        // "7KQMX3HDR9WE"
/// try PairingCode.normalized(" 7kqm x3hd-r9we ")      // "7KQMX3HDR9WE"
/// ```
public enum PairingCode {
    /// How long a code can be used after it is made.
    public static let lifetime: TimeInterval = 10 * 60
    /// The characters a code is made of.
    public static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTVWXYZ")
    public static let length = 12
    static let groupLength = 4

    /// A fresh code (show it ``grouped(_:)``).
    public static func make<Random: RandomNumberGenerator>(using random: inout Random) -> String {
        String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] })
    }

    /// `text` as the code it names (upper case, without separators), if it can be one.
    public static func normalized(_ text: String) throws(PairingError) -> String {
        guard text.count <= length * 3 else { throw .malformed }
        let kept = text.uppercased().filter { $0 != "-" && $0 != " " }
        guard kept.count == length, kept.allSatisfy(alphabet.contains) else { throw .malformed }
        return kept
    }

    /// `code` in groups of four, joined by dashes.
    public static func grouped(_ code: String) -> String {
        var groups: [Substring] = []
        var rest = Substring(code)
        while !rest.isEmpty {
            groups.append(rest.prefix(groupLength))
            rest = rest.dropFirst(groupLength)
        }
        return groups.joined(separator: "-")
    }

    /// The link that signs a browser in with `code` on the server at `base` (`http://host:port`):
    /// the code rides in the fragment, which a browser never sends, so it stays out of every log.
    public static func link(base: String, code: String) throws(PairingError) -> String {
        guard base.count <= 300, !base.unicodeScalars.contains(where: { TextInput.isRefused($0, lines: .single) }),
            let components = URLComponents(string: base.hasSuffix("/") ? String(base.dropLast()) : base),
            ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
            let host = components.host, !host.isEmpty, components.user == nil, components.password == nil,
            components.path.isEmpty, components.query == nil, components.fragment == nil,
            let url = components.url
        else { throw .badAddress(base) }
        return url.absoluteString + "/pair.html#" + grouped(code.filter { $0 != "-" })
    }

    /// Whether a code made at `createdAt` and not yet used may sign a browser in at `now`.
    public static func isUsable(createdAt: Date, usedAt: Date?, at now: Date) -> Bool {
        usedAt == nil && now >= createdAt && now < createdAt.addingTimeInterval(lifetime)
    }
}

/// Why a pairing code does not sign a browser in. The answer does not say which: an unknown, a
/// spent and an expired code look the same to whoever tries one.
public enum PairingError: Error, Equatable, Sendable {
    /// Not the shape of a code.
    case malformed
    /// Unknown, already used, or older than ten minutes.
    case notUsable
    /// Not an address a phone can open the server at (`http://host:port`).
    case badAddress(String)
}

/// The PIN that keeps a person's profile on the server's own screen (see `docs/people.md`): a lock
/// against a sibling at the same keyboard, not against an attacker (anyone at the server's
/// keyboard can read its files).
public enum PersonPIN {
    public static let digits = 4...8

    /// `text` if it is 4 to 8 ASCII digits.
    public static func validated(_ text: String) throws(PersonError) -> String {
        guard digits.contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .pinFormat(minimum: digits.lowerBound, maximum: digits.upperBound)
        }
        return text
    }
}
