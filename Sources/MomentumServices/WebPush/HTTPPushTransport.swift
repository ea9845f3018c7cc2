import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Posts pushes with async-http-client, without letting an endpoint reach into the household's
/// network: right before each send the endpoint's name is resolved, every address must be public
/// (``PushAddress/isPublic``), and the connection is pinned to the checked address
/// (`dnsOverride`), so a name that changes its answer between the check and the connection (DNS
/// rebinding) still reaches only what was checked. TLS is verified against the name. Redirects
/// are not followed. An admitted origin (`--push-allow`) is posted to as it is.
public final class HTTPPushTransport: PushTransport {
    /// Resolves a name to its addresses (the system's `getaddrinfo`, or a test's).
    public typealias Resolver = @Sendable (_ host: String) async throws(PushTransportError) -> [PushAddress]

    /// The most pinned clients kept (one per name and address, each with its own connections).
    static let keptClients = 64

    private let admitted: PushOrigins
    private let resolve: Resolver
    private let timeout: TimeAmount
    /// Clients by name and pinned address, oldest first; shut down when let go.
    private let clients = Mutex<[(key: String, client: HTTPClient)]>([])
    private let logger: Logger

    public init(
        admitting admitted: PushOrigins, timeout: Duration = .seconds(10),
        resolve: @escaping Resolver = HTTPPushTransport.systemResolve, logger: Logger = Logger(label: "momentum.push")
    ) {
        self.admitted = admitted
        self.resolve = resolve
        self.timeout = .milliseconds(timeout.wholeMilliseconds)
        self.logger = logger
    }

    public func send(_ request: PushRequest) async throws(PushTransportError) -> PushResponse {
        let endpoint = request.endpoint
        let pin = try await pinnedAddress(for: endpoint)
        let client = client(host: endpoint.host, pin: pin)
        var outgoing = HTTPClientRequest(url: endpoint.url)
        outgoing.method = .POST
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        outgoing.body = .bytes(ByteBuffer(bytes: request.body))
        do {
            let response = try await client.execute(outgoing, timeout: timeout, logger: logger)
            // The answer's body is read (and let go) so the connection can serve the next push.
            _ = try await response.body.collect(upTo: 64 * 1024)
            return PushResponse(
                status: Int(response.status.code), retryAfter: response.headers.first(name: "Retry-After"))
        } catch {
            throw .unreachable(String(describing: error).prefix(200).description)
        }
    }

    /// The address to connect to, checked; `nil` to connect as the URL says (an admitted origin,
    /// or a public address literal).
    func pinnedAddress(for endpoint: PushEndpoint) async throws(PushTransportError) -> String? {
        if admitted.origins.contains(endpoint.origin) { return nil }
        if let literal = endpoint.literalAddress {
            guard literal.isPublic else { throw .addressNotPublic(host: endpoint.host) }
            return nil
        }
        let addresses = try await resolve(endpoint.host)
        guard let first = addresses.first else { throw .unresolved(host: endpoint.host) }
        guard addresses.allSatisfy(\.isPublic) else { throw .addressNotPublic(host: endpoint.host) }
        return first.description
    }

    private func client(host: String, pin: String?) -> HTTPClient {
        let key = "\(host)|\(pin ?? "")"
        let (client, evicted): (HTTPClient, HTTPClient?) = clients.withLock { clients in
            if let kept = clients.first(where: { $0.key == key }) { return (kept.client, nil) }
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: timeout))
            if let pin { configuration.dnsOverride = [host: pin] }
            let client = HTTPClient(
                eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration,
                backgroundActivityLogger: logger)
            clients.append((key, client))
            let evicted = clients.count > Self.keptClients ? clients.removeFirst().client : nil
            return (client, evicted)
        }
        if let evicted {
            Task {
                // try?: a client being let go may fail to close a connection; the connection ends either way.
                try? await evicted.shutdown()
            }
        }
        return client
    }

    /// Closes every connection; sends after this fail.
    public func shutdown() async {
        let all = clients.withLock { clients in
            defer { clients = [] }
            return clients.map(\.client)
        }
        for client in all {
            // try?: closing is best effort at the end; nothing is sent after it.
            try? await client.shutdown()
        }
    }

    /// The addresses `host` resolves to, by the system's resolver (off the async threads).
    public static let systemResolve: Resolver = { host throws(PushTransportError) in
        let result: Result<[PushAddress], PushTransportError>
        do {
            result = try await NIOThreadPool.singleton.runIfActive { lookUp(host) }
        } catch {
            throw .unresolved(host: host)
        }
        return try result.get()
    }

    private static func lookUp(_ host: String) -> Result<[PushAddress], PushTransportError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, "443", &hints, &list) == 0, let first = list else {
            return .failure(.unresolved(host: host))
        }
        defer { freeaddrinfo(first) }
        var addresses: [PushAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            if let address = address(of: info.pointee), !addresses.contains(address) { addresses.append(address) }
            cursor = info.pointee.ai_next
        }
        return .success(addresses)
    }

    private static func address(of info: addrinfo) -> PushAddress? {
        guard let socket = info.ai_addr else { return nil }
        switch Int32(info.ai_family) {
        case AF_INET:
            return socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                withUnsafeBytes(of: v4.pointee.sin_addr) { PushAddress(bytes: Array($0)) }
            }
        case AF_INET6:
            return socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                withUnsafeBytes(of: v6.pointee.sin6_addr) { PushAddress(bytes: Array($0)) }
            }
        default:
            return nil
        }
    }
}
