import Foundation

/// Where `momentum serve` listens and what it keeps: address, data directory, request-size limit.
public struct ServerConfiguration: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var dataDirectory: URL
    /// The largest request body accepted, in bytes; larger ones are answered with 413.
    public var bodyLimit: Int
    /// The browser UI's static files; `nil` serves none.
    public var publicDirectory: URL?
    /// Renders at once, waiting renders and the render cache's size.
    public var renderLimits = RenderLimits()

    public static let defaultHost = "127.0.0.1"
    public static let defaultPort = 8080
    public static let defaultBodyLimit = 1 << 20

    public init(
        host: String = Self.defaultHost, port: Int = Self.defaultPort, dataDirectory: URL,
        bodyLimit: Int = Self.defaultBodyLimit,
        publicDirectory: URL? = nil
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.bodyLimit = bodyLimit
        self.publicDirectory = publicDirectory
    }

    /// Whether only this machine can reach the server; then no login is needed.
    public var isLoopback: Bool { Self.isLoopback(host: host) }

    /// Whether `host` names the loopback interface (`127.0.0.0/8`, `::1`, `localhost`).
    public static func isLoopback(host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }

    /// The address a person opens in a browser.
    public var address: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)/"
    }
}
