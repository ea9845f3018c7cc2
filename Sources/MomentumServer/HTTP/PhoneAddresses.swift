import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a phone on the home network reaches this server — the one rule behind the addresses
/// `momentum serve` prints at start, the link `momentum pair` prints and the web app's "Add a
/// device" QR code (docs/deploy.md, "Pairing the first phone").
///
/// A phone cannot open `0.0.0.0` or `127.0.0.1` (it would open itself), so:
/// - listening on one address or name: that one;
/// - on every IPv4 address (`0.0.0.0`): each IPv4 address of this machine's networks, then its name;
/// - on every address (`::`): the IPv4 addresses, the IPv6 ones (not link-local: a phone would need
///   the interface's zone), then the name;
/// - on loopback only: none — nothing off this machine reaches it.
///
/// ```swift
/// PhoneAddresses(listenHost: "0.0.0.0", port: 8080, interfaceAddresses: ["127.0.0.1", "192.168.1.20"],
///                machineName: "pi").reach
/// // .network(["http://192.168.1.20:8080", "http://pi.local:8080"])
/// ```
public struct PhoneAddresses: Sendable, Equatable {
    /// What a phone can do with this server.
    public enum Reach: Sendable, Equatable {
        /// Bases a phone can open (`http://192.168.1.20:8080`, no trailing slash), best first.
        case network([String])
        /// The server listens on loopback only: nothing off this machine reaches it.
        case thisMachineOnly
        /// It listens on every address, but this machine has no network address yet.
        case noNetwork
    }

    public var listenHost: String
    public var port: Int
    /// The addresses of this machine's interfaces, in the system's order (loopback ones included;
    /// they are skipped): ``PhoneAddresses/interfaceAddresses()``.
    public var interfaceAddresses: [String]
    /// This machine's host name (`gethostname`), or `nil`.
    public var machineName: String?

    public init(listenHost: String, port: Int, interfaceAddresses: [String], machineName: String?) {
        self.listenHost = listenHost
        self.port = port
        self.interfaceAddresses = interfaceAddresses
        self.machineName = machineName
    }

    public var reach: Reach {
        if ServerConfiguration.isLoopback(host: listenHost) { return .thisMachineOnly }
        guard let every = IPAddress(listenHost), ListenHost.isEveryAddress(listenHost) else {
            return .network([Self.base(host: HostPolicy.normalized(listenHost), port: port)])
        }
        var v4: [String] = []
        var v6: [String] = []
        for text in interfaceAddresses {
            switch IPAddress(text) {
            case .v4(let bytes)? where bytes[0] != 127 && !(bytes[0] == 169 && bytes[1] == 254):
                v4.append(text)
            case .v6(let bytes)?
            where !IPAddress.v6(bytes).isLoopback && !(bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80):
                v6.append(text)
            default: continue
            }
        }
        // `::` takes IPv4 as well on Linux and macOS (IPV6_V6ONLY is off by default).
        var hosts = v4
        if case .v6 = every { hosts += v6 }
        guard !hosts.isEmpty else { return .noNetwork }
        hosts += Self.names(machineName: machineName).suffix(1)
        return .network(hosts.map { Self.base(host: $0, port: port) })
    }

    /// The base a phone opens for a page the person opened at `requestBase`
    /// (`http://127.0.0.1:8080`): that same base unless it names this machine's loopback, which a
    /// phone would open as itself; then the first of ``reach``, at the port the page used.
    public func phoneBase(forRequestBase requestBase: String) -> Reach {
        guard let url = URLComponents(string: requestBase), let host = url.host,
            ServerConfiguration.isLoopback(host: host)
        else { return .network([requestBase]) }
        guard case .network(let bases) = reach, let first = bases.first else { return reach }
        return .network([first])
    }

    /// The names a phone may call this machine by: its host name, and on a network without a DNS
    /// that knows it, `NAME.local` (mDNS, as Avahi and Bonjour answer it). Allowed in the `Host`
    /// header when the server listens on every address.
    public static func names(machineName: String?) -> [String] {
        guard let name = machineName.map(HostPolicy.normalized), !name.isEmpty, name != "localhost",
            ListenHost.parse(name) == name, IPAddress(name) == nil
        else { return [] }
        return name.contains(".") ? [name] : [name, name + ".local"]
    }

    /// `http://HOST:PORT` (`http://HOST` on port 80), an IPv6 address in brackets.
    public static func base(host: String, port: Int) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host)" + (port == 80 ? "" : ":\(port)")
    }

    /// The addresses of this machine's interfaces that are up, as text, in the system's order.
    public static func interfaceAddresses() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let first else { return [] }
        defer { freeifaddrs(first) }
        var found: [String] = []
        for interface in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = interface.pointee.ifa_addr, Int32(interface.pointee.ifa_flags) & Int32(IFF_UP) != 0
            else { continue }
            let family = Int32(address.pointee.sa_family)
            let length: Int
            switch family {
            case AF_INET: length = MemoryLayout<sockaddr_in>.size
            case AF_INET6: length = MemoryLayout<sockaddr_in6>.size
            default: continue
            }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(address, socklen_t(length), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 {
                let text = String(
                    decoding: host.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                // A link-local IPv6 address carries its zone (`fe80::1%eth0`): not an address to share.
                if !text.contains("%") { found.append(text) }
            }
        }
        return found
    }

    /// This machine's host name, or `nil`.
    public static func machineName() -> String? {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return nil }
        let text = String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    /// This machine as it is now.
    public static func live(listenHost: String, port: Int) -> PhoneAddresses {
        PhoneAddresses(
            listenHost: listenHost, port: port, interfaceAddresses: interfaceAddresses(), machineName: machineName())
    }
}
