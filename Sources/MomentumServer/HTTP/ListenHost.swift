import Foundation

/// What `momentum serve --host` takes, in the form the server binds: an address (IPv6 with or
/// without brackets) or a name of this machine (a trailing dot, as in `localhost.`, allowed).
///
/// ```swift
/// ListenHost.parse("[::1]")        // "::1"
/// ListenHost.parse("localhost.")   // "localhost"
/// ListenHost.parse("a b")          // nil
/// ```
public enum ListenHost {
    /// `text` as the server binds it, or `nil` when it is neither an address nor a host name.
    public static func parse(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let name = HostPolicy.normalized(trimmed)
        if trimmed.hasPrefix("[") {
            // Brackets hold an IPv6 address, as in a URL; nothing else.
            guard trimmed.hasSuffix("]"), case .v6? = IPAddress(name) else { return nil }
            return name
        }
        if IPAddress(name) != nil { return name }
        guard !name.isEmpty, name.utf8.count <= 253, !name.contains(":"),
            name.utf8.allSatisfy(HostPolicy.Authority.isNameByte)
        else { return nil }
        return name
    }

    /// Whether `host` is every address of the machine (`0.0.0.0`, `::`): no one address to open.
    public static func isEveryAddress(_ host: String) -> Bool {
        switch IPAddress(host) {
        case .v4(let bytes)?, .v6(let bytes)?: bytes.allSatisfy { $0 == 0 }
        case nil: false
        }
    }
}
