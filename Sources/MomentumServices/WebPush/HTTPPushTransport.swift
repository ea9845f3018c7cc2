import Foundation
import NIOPosix

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Posts pushes over HTTP without letting an endpoint reach into the household's network: right
/// before each send the endpoint's name is resolved and every address must be public
/// (``PushAddress/isPublic``), redirects are not followed, and no cookie, cache or credential
/// goes along. An admitted origin (`--push-allow`) is posted to as it is.
///
/// Foundation's `URLSession` (libcurl on Linux, already in the program for `momentum sync`) does
/// the HTTP: async-http-client, which could also pin the connection to the checked address,
/// cost rendering its memory goal (SPEC §15; docs/notifications.md). Without the pin, a name
/// whose answer changes between the check and the connection (DNS rebinding) is not caught.
public final class HTTPPushTransport: PushTransport {
    /// Resolves a name to its addresses (the system's `getaddrinfo`, or a test's).
    public typealias Resolver = @Sendable (_ host: String) async throws(PushTransportError) -> [PushAddress]

    private let admitted: PushOrigins
    private let resolve: Resolver
    private let session: URLSession

    public init(
        admitting admitted: PushOrigins, timeout: Duration = .seconds(10),
        resolve: @escaping Resolver = HTTPPushTransport.systemResolve
    ) {
        self.admitted = admitted
        self.resolve = resolve
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout.inSeconds
        configuration.timeoutIntervalForResource = timeout.inSeconds * 2
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    public func send(_ request: PushRequest) async throws(PushTransportError) -> PushResponse {
        let endpoint = request.endpoint
        try await checkAddress(of: endpoint)
        guard let url = URL(string: endpoint.url) else { throw .unreachable("not a URL") }
        var outgoing = URLRequest(url: url)
        outgoing.httpMethod = "POST"
        outgoing.httpShouldHandleCookies = false
        for header in request.headers { outgoing.setValue(header.value, forHTTPHeaderField: header.name) }
        outgoing.httpBody = request.body
        let response: URLResponse
        do {
            (_, response) = try await session.data(for: outgoing)
        } catch {
            throw .unreachable(String(describing: error).prefix(200).description)
        }
        guard let http = response as? HTTPURLResponse else { throw .unreachable("no HTTP answer") }
        return PushResponse(status: http.statusCode, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
    }

    /// Refuses an endpoint whose host is, or resolves to, an address that is not public (an
    /// admitted origin is not checked).
    func checkAddress(of endpoint: PushEndpoint) async throws(PushTransportError) {
        if admitted.origins.contains(endpoint.origin) { return }
        if let literal = endpoint.literalAddress {
            guard literal.isPublic else { throw .addressNotPublic(host: endpoint.host) }
            return
        }
        let addresses = try await resolve(endpoint.host)
        guard !addresses.isEmpty else { throw .unresolved(host: endpoint.host) }
        guard addresses.allSatisfy(\.isPublic) else { throw .addressNotPublic(host: endpoint.host) }
    }

    /// Ends the session; sends after this fail.
    public func shutdown() async {
        session.invalidateAndCancel()
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

/// A push service's redirect is answered as it is (a 3xx), never followed: it could lead anywhere.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
