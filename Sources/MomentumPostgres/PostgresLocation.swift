import Foundation

/// Why a PostgreSQL location was refused before anything was connected to.
public enum PostgresLocationError: Error, Equatable, Sendable {
    /// Not `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (another scheme, a query, a fragment,
    /// or a part missing).
    case notAPostgresURL
    /// The port is not a number from 1 to 65535.
    case badPort
    /// A schema name that is not a plain lower-case identifier (`a-z`, digits, `_`, at most 63).
    case badSchemaName
    /// A query option other than `sslmode` (`disable`, `prefer`, `require`, `verify-ca`,
    /// `verify-full`) and `sslrootcert` (a path), one given twice, or `verify-ca` without a root.
    case badTLSOption
    /// The `sslrootcert` file cannot be read as PEM certificates.
    case unreadableRootCertificate(path: String)
    /// Encryption cannot be set up on this machine (its system certificates, with no
    /// `sslrootcert`, cannot be loaded).
    case tlsUnavailable
}

/// Whether and how a connection to PostgreSQL is encrypted: libpq's `sslmode` (without `allow`).
public enum PostgresTLS: Sendable, Equatable {
    /// Never (the default: a database on this machine or the home network).
    case disable
    /// Encrypted when the server offers it, the certificate not checked.
    case prefer
    /// Always encrypted, the certificate not checked (as libpq's `require` without a root).
    case require
    /// Always encrypted, the certificate signed by the root in `rootCertificate` (a PEM file); the
    /// server's name is not compared.
    case verifyCA(rootCertificate: String)
    /// Always encrypted, the certificate signed by `rootCertificate` (or by a root this system
    /// trusts, when `nil`) and naming the host.
    case verifyFull(rootCertificate: String?)

    /// The `sslmode` value.
    public var mode: String {
        switch self {
        case .disable: "disable"
        case .prefer: "prefer"
        case .require: "require"
        case .verifyCA: "verify-ca"
        case .verifyFull: "verify-full"
        }
    }

    /// The root certificate's path, where one is given.
    public var rootCertificate: String? {
        switch self {
        case .verifyCA(let path): path
        case .verifyFull(let path): path
        default: nil
        }
    }

    /// Reads `sslmode` and `sslrootcert` (libpq's names). A root with `require` checks the
    /// certificate, as libpq does (`verify-ca`).
    init(mode: String?, rootCertificate: String?) throws(PostgresLocationError) {
        if let rootCertificate, rootCertificate.isEmpty { throw .badTLSOption }
        switch (mode ?? "disable", rootCertificate) {
        case ("disable", nil): self = .disable
        case ("prefer", nil): self = .prefer
        case ("require", nil): self = .require
        case ("require", let root?), ("verify-ca", let root?): self = .verifyCA(rootCertificate: root)
        case ("verify-full", let root): self = .verifyFull(rootCertificate: root)
        default: throw .badTLSOption
        }
    }
}

/// Where a PostgreSQL database is: read from `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// (`postgresql://` too), with `?sslmode=…&sslrootcert=PATH` for TLS (``PostgresTLS``). Nothing
/// else is accepted: no other query options, no socket paths.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var tls: PostgresTLS

    public static let defaultPort = 5432

    public init(
        host: String, port: Int = Self.defaultPort, user: String, password: String? = nil, database: String,
        tls: PostgresTLS = .disable
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.tls = tls
    }

    /// Reads a `postgres://` URL; percent-escapes in the user, password and database are decoded.
    public init(url text: String) throws(PostgresLocationError) {
        guard !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7f } == true }),
            let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql",
            components.fragment == nil,
            let user = components.user, !user.isEmpty,
            let host = components.host, !host.isEmpty
        else { throw .notAPostgresURL }
        let path = components.path
        guard path.hasPrefix("/") else { throw .notAPostgresURL }
        let database = String(path.dropFirst())
        guard !database.isEmpty, !database.contains("/") else { throw .notAPostgresURL }
        var port = Self.defaultPort
        if let given = components.port {
            guard (1...65535).contains(given) else { throw .badPort }
            port = given
        } else if text.range(of: "@[^/\\[\\]]*:[^/]*/", options: .regularExpression) != nil {
            // `host:/db` or a port URLComponents could not read.
            throw .badPort
        }
        var options: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard ["sslmode", "sslrootcert"].contains(item.name), let value = item.value, options[item.name] == nil
            else { throw .badTLSOption }
            options[item.name] = value
        }
        if components.query != nil, options.isEmpty { throw .badTLSOption }
        self.init(
            host: host, port: port, user: user, password: components.password.flatMap { $0.isEmpty ? nil : $0 },
            database: database, tls: try PostgresTLS(mode: options["sslmode"], rootCertificate: options["sslrootcert"]))
    }

    /// The URL without the password: what logs and messages may show.
    public var description: String {
        var text = "postgres://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
        if tls != .disable { text += "?sslmode=\(tls.mode)" }
        if let root = tls.rootCertificate { text += "&sslrootcert=\(root)" }
        return text
    }

    /// Whether `name` may name a schema: a plain lower-case identifier, so it never needs quoting.
    public static func isSchemaName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, (1...63).contains(name.utf8.count),
            first == "_" || ("a"..."z").contains(first)
        else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }
}
