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
}

/// Where a PostgreSQL database is: read from `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// (`postgresql://` too). Nothing else is accepted: no query options, no socket paths.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String

    public static let defaultPort = 5432

    public init(host: String, port: Int = Self.defaultPort, user: String, password: String? = nil, database: String) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }

    /// Reads a `postgres://` URL; percent-escapes in the user, password and database are decoded.
    public init(url text: String) throws(PostgresLocationError) {
        guard !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7f } == true }),
            let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql",
            components.query == nil, components.fragment == nil,
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
        self.init(
            host: host, port: port, user: user, password: components.password.flatMap { $0.isEmpty ? nil : $0 },
            database: database)
    }

    /// The URL without the password: what logs and messages may show.
    public var description: String {
        "postgres://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
    }

    /// Whether `name` may name a schema: a plain lower-case identifier, so it never needs quoting.
    public static func isSchemaName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, (1...63).contains(name.utf8.count),
            first == "_" || ("a"..."z").contains(first)
        else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }
}
