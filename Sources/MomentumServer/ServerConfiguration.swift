import Foundation
import MomentumServices

/// Where `momentum serve` listens and what it keeps: address, data directory, request-size limit.
public struct ServerConfiguration: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var dataDirectory: URL
    /// The largest request body accepted, in bytes; larger ones are answered with 413.
    public var bodyLimit: Int
    /// A folder of the browser UI's files to serve instead of the ones built into the binary
    /// (`$MOMENTUM_PUBLIC_DIR`, for UI work); `nil` serves the built-in ones.
    public var publicDirectory: URL?
    /// Names besides this server's address and `localhost` that requests may call it by: what a
    /// reverse proxy passes on in `Host` (`--allowed-host`).
    public var allowedHosts: [String]
    /// What each connection owes (its head, its body, its idle time) and how many stay open.
    public var connectionLimits: ConnectionLimits
    /// Renders at once, waiting renders and the render cache's size.
    public var renderLimits = RenderLimits()

    public static let defaultHost = "127.0.0.1"
    public static let defaultPort = 8080
    public static let defaultBodyLimit = 1 << 20

    public init(
        host: String = Self.defaultHost, port: Int = Self.defaultPort, dataDirectory: URL,
        bodyLimit: Int = Self.defaultBodyLimit,
        publicDirectory: URL? = nil, allowedHosts: [String] = [],
        connectionLimits: ConnectionLimits = ConnectionLimits()
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.bodyLimit = bodyLimit
        self.publicDirectory = publicDirectory
        self.allowedHosts = allowedHosts
        self.connectionLimits = connectionLimits
    }

    /// Whether only this machine can reach the server; then no login is needed.
    public var isLoopback: Bool { Self.isLoopback(host: host) }

    /// Push services beyond the public ones that subscriptions may name (`--push-allow`,
    /// `$MOMENTUM_PUSH_ALLOW`): exactly these origins (docs/notifications.md).
    public var pushOrigins = PushOrigins()
    /// Who push services may contact about this server's pushes: the VAPID token's `sub`
    /// (`--push-contact`, `$MOMENTUM_PUSH_CONTACT`); none by default.
    public var pushContact: VAPIDContact?

    /// Ask for a token even on loopback: for a server behind a reverse proxy on the same machine,
    /// where every request arrives from 127.0.0.1 but comes from the network (`--require-token`).
    public var requiresTokenOnLoopback = false

    /// Whether requests need a token: off loopback always, on loopback when asked to.
    public var requiresToken: Bool { !isLoopback || requiresTokenOnLoopback }

    /// Whether `host` is a loopback address (`127.0.0.0/8`, `::1`, `::ffff:127.x.x.x`, parsed as
    /// an address, not matched as text) or the name `localhost`.
    public static func isLoopback(host: String) -> Bool {
        let name = HostPolicy.normalized(host)
        return name == "localhost" || IPAddress(name)?.isLoopback == true
    }

    /// Whether `name` can be given to `--allowed-host`: a host name or address, without a port.
    public static func isValidAllowedHost(_ name: String) -> Bool {
        HostPolicy.Authority(name).map { $0.port == nil } ?? false
    }

    /// This machine's host name (`gethostname`): on every address, requests may call the server by
    /// it and by `NAME.local`, the names `momentum serve` prints for phones (``PhoneAddresses``).
    public var machineName: String?

    /// Which names requests may use and which origins may write.
    var hostPolicy: HostPolicy {
        let machineNames = ListenHost.isEveryAddress(host) ? PhoneAddresses.names(machineName: machineName) : []
        return HostPolicy(bindHost: host, allowedHosts: allowedHosts + machineNames)
    }

    /// Where a phone reaches this server, by ``PhoneAddresses``' rule.
    public func phoneAddresses(interfaceAddresses: [String], port: Int? = nil) -> PhoneAddresses {
        PhoneAddresses(
            listenHost: host, port: port ?? self.port, interfaceAddresses: interfaceAddresses, machineName: machineName)
    }

    /// The address a person opens in a browser.
    public var address: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)/"
    }
}
