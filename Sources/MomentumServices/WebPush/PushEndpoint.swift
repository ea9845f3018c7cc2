import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A subscription's endpoint: the URL the server will POST pushes to. Because the server sends
/// to it, it must not reach into the household's network (server-side request forgery): it is
/// `https:` on port 443, at most 1,024 characters, with no credentials, and its host is a public
/// DNS name or a public address — unless its origin is one the owner admitted
/// (``PushOrigins``, `--push-allow`). Where a name resolves to is checked again right before
/// each send (``PushAddress/isPublic``), as DNS can change.
///
/// Parsed strictly by hand rather than by a URL type: the host checked here is the host the
/// sender connects to, so no spelling (a `\`, an `@`, `%2e`, a decimal `2130706433`, a trailing
/// dot) can mean one host to the check and another to the connection.
public struct PushEndpoint: Sendable, Hashable {
    /// The URL as given.
    public let url: String
    /// `https` (or `http` for an admitted origin).
    public let scheme: String
    /// The host in lower case, without a trailing dot; an IPv6 address without its brackets.
    public let host: String
    public let port: Int
    /// The path and query, from its `/`.
    public let target: String

    public static let maximumLength = 1024

    /// `scheme://host[:port]`, as ``PushOrigins`` and a VAPID token's `aud` name it.
    public var origin: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let isDefault = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
        return isDefault ? "\(scheme)://\(shownHost)" : "\(scheme)://\(shownHost):\(port)"
    }

    /// Whether the host is an address literal (no name to resolve).
    public var literalAddress: PushAddress? { PushAddress(literal: host) }

    /// `text` as an endpoint the server may send to; an admitted origin may be `http:`, on any
    /// port and on a private address.
    public init(_ text: String, admitting admitted: PushOrigins = PushOrigins()) throws(PushEndpointError) {
        try self.init(parsing: text)
        if admitted.origins.contains(origin) { return }
        guard scheme == "https" else { throw .notHTTPS }
        guard port == 443 else { throw .notPort443 }
        if let address = literalAddress {
            guard address.isPublic else { throw .notPublic }
        } else {
            guard Self.isPublicName(host) else { throw .notPublic }
        }
    }

    /// `text` read as a URL of the shape above, with no judgement of where it leads.
    public init(parsing text: String) throws(PushEndpointError) {
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong(maximum: Self.maximumLength) }
        // Printable ASCII only: no spaces, controls, backslashes or non-ASCII (an IDN host
        // comes as punycode), so there is one way to read it.
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" })
        else { throw .malformed }
        let parsed = try Self.parse(text)
        (url, scheme, host, port, target) = (text, parsed.scheme, parsed.host, parsed.port, parsed.target)
    }

    private static func parse(_ text: String) throws(PushEndpointError) -> (
        scheme: String, host: String, port: Int, target: String
    ) {
        guard let separator = text.range(of: "://") else { throw .malformed }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "https" || scheme == "http" else { throw .notHTTPS }
        let rest = text[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var target = String(rest.dropFirst(authority.count))
        guard !target.contains("#") else { throw .malformed }
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        // Credentials (`user:pass@`) are refused, not dropped: `https://push.example@10.0.0.1`.
        guard !authority.contains("@"), !authority.contains("%") else { throw .malformed }
        var hostPart = Substring(authority)
        var portText: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { throw .malformed }
            let after = hostPart[hostPart.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .malformed }
                portText = after.dropFirst()
            }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
            guard PushAddress(literal: String(hostPart))?.isIPv6 == true else { throw .malformed }
        } else if let colon = hostPart.firstIndex(of: ":") {
            portText = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        var port = scheme == "https" ? 443 : 80
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCIIDigit),
                let number = Int(portText), (1...65535).contains(number)
            else { throw .malformed }
            port = number
        }
        var host = hostPart.lowercased()
        if host.hasSuffix("."), !host.hasSuffix("..") { host.removeLast() }
        guard isHostSpelling(host) else { throw .malformed }
        return (scheme, host, port, target)
    }

    /// A DNS name of letters, digits and hyphens, a dotted-quad IPv4 address, or an IPv6 address.
    /// A name whose last label is a number is not a name: resolvers read `127.1`, `0x7f.1` and
    /// `2130706433` as addresses, so those must be written as a dotted quad.
    private static func isHostSpelling(_ host: String) -> Bool {
        if host.contains(":") { return PushAddress(literal: host)?.isIPv6 == true }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard !host.isEmpty, host.count <= 253, let last = labels.last else { return false }
        let isLabel: (Substring) -> Bool = { label in
            (1...63).contains(label.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCIILetterOrDigit || $0 == "-" }
        }
        guard labels.allSatisfy(isLabel) else { return false }
        let lastLooksNumeric = last.allSatisfy(\.isASCIIDigit) || (last.hasPrefix("0x") && last.count > 2)
        guard lastLooksNumeric else { return true }
        // A dotted quad of 0…255 without leading zeros (octal to some resolvers) is an address.
        return labels.count == 4
            && labels.allSatisfy { label in
                label.allSatisfy(\.isASCIIDigit) && (label == "0" || !label.hasPrefix("0"))
                    && (Int(label).map { $0 <= 255 } ?? false)
            }
    }

    /// Names that never lead to a public push service: this machine and the local network's.
    private static func isPublicName(_ host: String) -> Bool {
        let local = ["localhost", "local", "internal", "lan", "home", "localdomain", "home.arpa", "intranet"]
        guard host.contains(".") else { return false }
        return !local.contains { host == $0 || host.hasSuffix("." + $0) }
    }
}

/// Why an endpoint is refused (the catalog's `error.push.endpoint.*`).
public enum PushEndpointError: Error, Equatable, Sendable {
    case malformed
    case tooLong(maximum: Int)
    case notHTTPS
    case notPort443
    /// A private, loopback, link-local, multicast or otherwise non-public address, or a local name.
    case notPublic
}

/// The origins the owner admitted as push services beyond the public ones (`--push-allow`,
/// `MOMENTUM_PUSH_ALLOW`): exactly those, on any scheme, port and address.
public struct PushOrigins: Sendable, Equatable {
    public let origins: Set<String>

    public init() { origins = [] }

    /// Each of `texts` as an origin: `http(s)://host[:port]`, nothing after it; else ``PushEndpointError``.
    public init(_ texts: [String]) throws(PushEndpointError) {
        var origins: Set<String> = []
        for text in texts {
            let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
            let endpoint = try PushEndpoint(parsing: trimmed + "/")
            guard endpoint.target == "/" else { throw .malformed }
            origins.insert(endpoint.origin)
        }
        self.origins = origins
    }
}

/// An IP address, and whether a push may go to it.
public struct PushAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6).
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// A dotted-quad IPv4 or an IPv6 address (without brackets or zone), as `inet_pton` reads them.
    public init?(literal: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if literal.contains(":") {
            guard inet_pton(AF_INET6, literal, &v6) == 1 else { return nil }
            bytes = withUnsafeBytes(of: v6) { Array($0) }
        } else {
            guard inet_pton(AF_INET, literal, &v4) == 1 else { return nil }
            bytes = withUnsafeBytes(of: v4) { Array($0) }
        }
    }

    public var isIPv6: Bool { bytes.count == 16 }

    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }

    /// Whether the address is a public unicast one: not unspecified, loopback, private,
    /// shared (CGNAT), link-local, unique-local, site-local, multicast, broadcast, documentation,
    /// benchmarking or reserved — and an IPv6 address carrying an IPv4 one (mapped, NAT64, 6to4)
    /// is judged by the IPv4 address it carries.
    public var isPublic: Bool {
        if bytes.count == 4 { return Self.isPublicIPv4(bytes) }
        let b = bytes
        // ::ffff:a.b.c.d (mapped), 64:ff9b::a.b.c.d (NAT64): the IPv4 address inside.
        if b[0..<10].allSatisfy({ $0 == 0 }), b[10] == 0xff, b[11] == 0xff { return Self.isPublicIPv4(Array(b[12...])) }
        if b[0..<12] == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return Self.isPublicIPv4(Array(b[12...])) }
        // 2002:a.b.c.d::/48 (6to4).
        if b[0] == 0x20, b[1] == 0x02 { return Self.isPublicIPv4(Array(b[2..<6])) }
        // Global unicast is 2000::/3; everything else (::, ::1, ::a.b.c.d, fc00::/7, fe80::/10,
        // fec0::/10, ff00::/8, 100::/64 …) is not public.
        guard b[0] & 0xe0 == 0x20 else { return false }
        // 2001::/23 (IETF protocol assignments: Teredo, ORCHID …) and 2001:db8::/32 (documentation).
        if b[0] == 0x20, b[1] == 0x01, b[2] < 0x02 { return false }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0d, b[3] == 0xb8 { return false }
        return true
    }

    private static func isPublicIPv4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1], b[2]) {
        case (0, _, _), (10, _, _), (127, _, _): false  // this network, private, loopback
        case (100, 64...127, _): false  // shared address space (CGNAT)
        case (169, 254, _): false  // link-local
        case (172, 16...31, _): false  // private
        case (192, 0, 0), (192, 0, 2): false  // IETF protocol assignments, documentation
        case (192, 88, 99): false  // 6to4 relay anycast (deprecated)
        case (192, 168, _): false  // private
        case (198, 18...19, _): false  // benchmarking
        case (198, 51, 100), (203, 0, 113): false  // documentation
        case (224...255, _, _): false  // multicast, reserved, broadcast
        default: true
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
    fileprivate var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}
