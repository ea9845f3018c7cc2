import Foundation
import HTTPTypes
import Hummingbird
import MomentumCore
import MomentumServices

/// Which names a request may call this server by, and which pages may write to it.
///
/// A web page the person visits can make their browser send requests to the server — on loopback
/// too. Two rules stop it: the `Host` header must name this server (so a DNS-rebinding name such as
/// `rebind.evil.example` that resolves to 127.0.0.1 is refused), and a state-changing request that
/// carries an `Origin` must come from the server's own origin.
struct HostPolicy: Sendable, Equatable {
    /// The address the server listens on, as given.
    let bindHost: String
    /// Extra names, lowercased: what a reverse proxy passes on (`--allowed-host`).
    let allowedHosts: Set<String>

    init(bindHost: String, allowedHosts: [String]) {
        self.bindHost = Self.normalized(bindHost)
        self.allowedHosts = Set(allowedHosts.map(Self.normalized))
    }

    /// Whether a `Host` header names this server: `localhost`, an IP address (an address cannot be
    /// rebound: a browser that connects to it by number reached this machine), the bind name, or an
    /// allowed name. (A request without exactly one `Host` is refused before: see
    /// ``RequestGuardMiddleware``.)
    func allows(hostHeader: String) -> Bool {
        guard let authority = Authority(hostHeader) else { return false }
        return allows(name: authority.host)
    }

    func allows(name: String) -> Bool {
        name == "localhost" || IPAddress(name) != nil || name == bindHost || allowedHosts.contains(name)
    }

    /// Whether `origin` is this server's own: same host and port as the request's `Host` header, or
    /// an allowed name (a proxy that rewrites `Host`). `null` and anything unparsable are foreign.
    /// A `ws:` or `wss:` origin is never a web page's (pages are `http`, `https` or `null`): only
    /// WebSocket libraries outside a browser send one, and they could as well send none.
    func allows(origin: String, hostHeader: String?) -> Bool {
        guard let url = URLComponents(string: origin), let scheme = url.scheme?.lowercased() else { return false }
        if scheme == "ws" || scheme == "wss" { return true }
        guard scheme == "http" || scheme == "https", let host = url.host, url.path.isEmpty || url.path == "/"
        else { return false }
        let originHost = Self.normalized(host)
        let defaultPort = scheme == "https" ? 443 : 80
        let originPort = url.port ?? defaultPort
        if allowedHosts.contains(originHost) { return true }
        guard let hostHeader, let authority = Authority(hostHeader) else { return false }
        return authority.host == originHost && (authority.port ?? defaultPort) == originPort
    }

    static func normalized(_ name: String) -> String {
        var name = name.lowercased().trimmingCharacters(in: .whitespaces)
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        while name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// A `Host` header's name (lowercased, without brackets or a trailing dot) and port.
    struct Authority: Equatable {
        var host: String
        var port: Int?

        /// ASCII letters, digits and `. - _ :`: the bytes a host name (or an address) may hold.
        static func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: ":"):
                true
            default: false
            }
        }

        init?(_ text: String) {
            let text = text.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, text.utf8.count <= 300 else { return nil }
            var hostPart = Substring(text)
            var portPart: Substring?
            if text.hasPrefix("[") {
                guard let close = text.firstIndex(of: "]") else { return nil }
                hostPart = text[text.index(after: text.startIndex)..<close]
                let rest = text[text.index(after: close)...]
                if !rest.isEmpty {
                    guard rest.first == ":" else { return nil }
                    portPart = rest.dropFirst()
                }
                guard IPAddress(String(hostPart)) != nil else { return nil }
            } else if let colon = text.lastIndex(of: ":") {
                hostPart = text[..<colon]
                portPart = text[text.index(after: colon)...]
                // A bare IPv6 address without brackets is not a valid Host.
                guard !hostPart.contains(":") else { return nil }
            }
            guard !hostPart.isEmpty, hostPart.utf8.allSatisfy(Self.isNameByte) else { return nil }
            if let portPart {
                guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy(\.isASCII),
                    let port = Int(portPart), (1...65_535).contains(port)
                else { return nil }
                self.port = port
            }
            self.host = HostPolicy.normalized(String(hostPart))
        }
    }
}

/// An IPv4 or IPv6 address written as text, read as the push endpoints' addresses are
/// (``PushAddress``, the system's `inet_pton`).
enum IPAddress: Equatable {
    case v4([UInt8])
    case v6([UInt8])

    init?(_ text: String) {
        guard let address = PushAddress(literal: HostPolicy.normalized(text)) else { return nil }
        self = address.isIPv6 ? .v6(address.bytes) : .v4(address.bytes)
    }

    /// `127.0.0.0/8`, `::1`, and IPv4 loopback mapped into IPv6 (`::ffff:127.0.0.1`).
    var isLoopback: Bool {
        switch self {
        case .v4(let bytes): return bytes.first == 127
        case .v6(let bytes):
            if bytes == Array(repeating: 0, count: 15) + [1] { return true }
            return bytes.prefix(12) == (Array(repeating: 0, count: 10) + [0xff, 0xff])[...] && bytes[12] == 127
        }
    }
}

/// Refuses, before anything else runs, requests a foreign page or a rebinding name could make:
/// a request without exactly one `Host` header (400: with two, a proxy and this server could each
/// read another one, and HTTP/1.1 requires one), a `Host` that does not name this server (421), a
/// state-changing request from another origin (403), and a body that is not JSON (415) — a page
/// can send `text/plain` or a form without asking, but never `application/json`. The library's
/// upload takes audio as it is. Tools that send no `Origin` (the CLI, `momentum sync`, curl) are
/// unaffected.
///
/// The HTTP/1 decoder passes the first `Host` on as the request's authority and any further one as
/// a header field. The HTTP version does not reach the router, so an HTTP/1.0 request must name the
/// host as well (every HTTP/1.0 client in use sends it).
struct RequestGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: HostPolicy
    /// Routes whose bodies are files, not JSON.
    var uploadPaths: Set<String> = []
    /// Routes whose bodies are backups: a ZIP archive or a JSON backup document.
    var archivePaths: Set<String> = []

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard let host = request.head.authority, !request.headers.contains(where: { $0.name.canonicalName == "host" })
        else {
            throw APIError(.badRequest, code: "bad_host", key: .apiHostHeaderCount)
        }
        guard policy.allows(hostHeader: host) else {
            throw APIError(.misdirectedRequest, code: "host_not_allowed", key: .apiHostNotAllowed)
        }
        if Self.changesState(request.method) || Self.isUpgrade(request) {
            // Every Origin a request carries must be the server's own (a request can carry two).
            let origins = request.headers[values: .origin]
            if origins.contains(where: { !policy.allows(origin: $0, hostHeader: host) }) {
                throw APIError(.forbidden, code: "cross_origin", key: .apiCrossOrigin)
            }
        }
        if [.post, .put, .patch].contains(request.method),
            !Self.acceptsBody(of: request, uploadPaths: uploadPaths, archivePaths: archivePaths)
        {
            throw APIError(.unsupportedMediaType, code: "unsupported_media_type", key: .apiContentType)
        }
        return try await next(request, context)
    }

    /// What browsers call a ZIP file (Windows: `x-zip-compressed`), any file, and a JSON backup.
    static var archiveTypes: Set<String> {
        ["application/zip", "application/x-zip-compressed", "application/octet-stream", "application/json"]
    }

    static func changesState(_ method: HTTPRequest.Method) -> Bool {
        ![.get, .head, .options].contains(method)
    }

    static func isUpgrade(_ request: Request) -> Bool {
        request.headers[.upgrade] != nil || request.headers[.secWebSocketKey] != nil
    }

    /// A body with a JSON type (or, for uploads, an audio type; for backups, a ZIP type), or no
    /// body at all.
    static func acceptsBody(of request: Request, uploadPaths: Set<String>, archivePaths: Set<String> = []) -> Bool {
        guard let contentType = request.headers[.contentType] else {
            let length = request.headers[.contentLength].flatMap { Int($0) } ?? 0
            return length == 0 && request.headers[.transferEncoding] == nil
        }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let mediaType else { return false }
        if uploadPaths.contains(RoutedPaths.normalized(request.uri.path)) {
            return mediaType.hasPrefix("audio/") || mediaType == "application/octet-stream"
        }
        if archivePaths.contains(RoutedPaths.normalized(request.uri.path)) {
            return Self.archiveTypes.contains(mediaType)
        }
        return mediaType == "application/json"
    }
}

/// Logs every request at debug level: method, path and answer — never the query (a calendar feed's
/// `?token=`) nor the headers (bearer tokens, cookies).
struct LogRequestsWithoutSecretsMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let response = try await next(request, context)
        context.logger.debug(
            "request",
            metadata: [
                "method": "\(request.method.rawValue)", "path": "\(request.uri.path)",
                "status": "\(response.status.code)",
            ])
        return response
    }
}
