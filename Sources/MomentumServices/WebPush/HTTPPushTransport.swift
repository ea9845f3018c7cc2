import Foundation
import NIOPosix
import NIOSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Posts pushes over HTTP without letting an endpoint reach into the household's network: right
/// before each send the endpoint's name is resolved, every address must be public
/// (``PushAddress/isPublic``), and the connection is made to those checked addresses
/// (``PinnedHTTPClient``) — so a name whose answer changes between the check and the connection
/// (DNS rebinding) reaches nothing new. Redirects are not followed; no cookie, cache or credential
/// goes along. An admitted origin (`--push-allow`) is resolved and posted to without the public rule.
public final class HTTPPushTransport: PushTransport {
    /// Resolves a name to its addresses (the system's `getaddrinfo`, or a test's).
    public typealias Resolver = @Sendable (_ host: String) async throws(PushTransportError) -> [PushAddress]

    private let admitted: PushOrigins
    private let resolve: Resolver
    private let client: PinnedHTTPClient

    /// `trustRoots`: whom TLS trusts (the system's roots; a test's own root).
    public init(
        admitting admitted: PushOrigins, timeout: Duration = .seconds(10),
        resolve: @escaping Resolver = HTTPPushTransport.systemResolve, trustRoots: NIOSSLTrustRoots = .default
    ) {
        self.admitted = admitted
        self.resolve = resolve
        client = PinnedHTTPClient(trustRoots: trustRoots, timeout: timeout)
    }

    public func send(_ request: PushRequest) async throws(PushTransportError) -> PushResponse {
        let addresses = try await checkAddress(of: request.endpoint)
        return try await client.post(
            to: request.endpoint, at: addresses, headers: request.headers, body: request.body)
    }

    /// The addresses to connect to for `endpoint`: its address literal, or what its name resolves
    /// to — refused unless every one is public (an admitted origin is not held to that).
    @discardableResult
    func checkAddress(of endpoint: PushEndpoint) async throws(PushTransportError) -> [PushAddress] {
        let isAdmitted = admitted.origins.contains(endpoint.origin)
        if let literal = endpoint.literalAddress {
            guard isAdmitted || literal.isPublic else { throw .addressNotPublic(host: endpoint.host) }
            return [literal]
        }
        let addresses = try await resolve(endpoint.host)
        guard !addresses.isEmpty else { throw .unresolved(host: endpoint.host) }
        guard isAdmitted || addresses.allSatisfy(\.isPublic) else { throw .addressNotPublic(host: endpoint.host) }
        return addresses
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
