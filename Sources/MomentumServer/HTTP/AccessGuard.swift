import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// Off loopback, the routes it guards need a live credential: a bearer token, or the session
/// cookie `POST /login` sets. It is attached to route groups (see `buildRouter`), not matched on
/// the path, so a request reaches a guarded handler only through it, however the path is spelled.
///
/// `scope` is what the routes need: `.full` for the API, the metrics and the live feed; `.feed`
/// for the calendar feed, which a feed token also opens and which alone takes `?token=` (calendar
/// apps can send neither a header nor a cookie).
struct AccessGuard<Context: RequestContext>: RouterMiddleware {
    let tokens: AccessTokenService
    let isRequired: Bool
    var scope: AccessScope = .full

    static var cookieName: String { "momentum_session" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard isRequired else { return try await next(request, context) }
        switch try check(request) {
        case .refused:
            var refusal = APIError.unauthorized
            refusal.headers[.wwwAuthenticate] = "Bearer"
            throw refusal
        case .outOfScope:
            throw APIError(.forbidden, code: "forbidden_scope", key: .apiFeedOnlyToken)
        case .allowed:
            return try await next(request, context)
        case .allowedRefreshingSession(let sessionID):
            var response = try await next(request, context)
            response.setCookie(LoginController.sessionCookie(sessionID, request: request))
            return response
        }
    }

    enum Decision: Equatable {
        case refused
        case outOfScope
        case allowed
        /// A session whose end moved on: the cookie is sent again so the browser keeps it as long.
        case allowedRefreshingSession(String)
    }

    func check(_ request: Request) throws -> Decision {
        let token: AccessToken
        var refreshedSession: String?
        if let bearer = Self.bearer(in: request) {
            guard let live = try tokens.verify(secret: bearer) else { return .refused }
            token = live
        } else if let sessionID = request.cookies[Self.cookieName]?.value, !sessionID.isEmpty {
            guard let session = try tokens.verifySession(sessionID) else { return .refused }
            token = session.token
            if session.wasRefreshed { refreshedSession = sessionID }
        } else if scope == .feed, let secret = request.uri.queryParameters["token"].map(String.init) {
            guard let live = try tokens.verify(secret: secret) else { return .refused }
            token = live
        } else {
            return .refused
        }
        guard token.scope == .full || token.scope == scope else { return .outOfScope }
        return refreshedSession.map(Decision.allowedRefreshingSession) ?? .allowed
    }

    /// The token of an `Authorization: Bearer …` header.
    static func bearer(in request: Request) -> String? {
        guard let authorization = request.headers[.authorization] else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return "" }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}

/// Paths the static files never answer: the API (its own 404s) and the guarded routes outside it.
enum RoutedPaths {
    static let calendarFeed = "/reminders.ics"

    /// `path` as the router matches it: without a trailing slash. (Empty and dot segments never
    /// get this far: ``PathSafetyMiddleware`` refuses them.)
    static func normalized(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The web app manifest: answered by its route (with the person's shortcuts only for a live
    /// credential), never as a file.
    static let manifest = "/manifest.webmanifest"

    static func isRouted(_ path: String) -> Bool {
        path == "/api" || path.hasPrefix("/api/") || path == "/metrics" || path == calendarFeed
            || normalized(path) == manifest
    }
}

/// `POST /login` exchanges a full token for an HTTP-only, SameSite=Strict session cookie (Secure
/// when the request came over TLS, e.g. through a proxy that says so). The cookie carries a random
/// session id, never the token; the server keeps only its hash. Sessions last 30 days from their
/// last use; `POST /logout` ends one on the server, and revoking its token ends them all.
/// `GET /api/v1/session` says how this request got in, so the UI offers "Sign out" only where
/// signing out means something (a cookie session).
struct LoginController {
    let tokens: AccessTokenService
    let isRequired: Bool

    static let sessionSeconds = Int(AccessTokenService.sessionLifetime)

    func addRoutes(to router: Router<BasicRequestContext>, guarded api: RouterGroup<BasicRequestContext>) {
        router.post("login", use: login)
        router.post("logout", use: logout)
        api.get("session", use: session)
    }

    /// How a request got in: `open` (loopback, no token needed), `cookie` (signed in at the login
    /// page) or `bearer` (an `Authorization` header). The guard has already refused requests
    /// without a live credential.
    struct Session: Encodable {
        var access: String
        var canSignOut: Bool
    }

    @Sendable func session(_ request: Request, context: BasicRequestContext) -> JSONResponse<Session> {
        let access: String
        if !isRequired {
            access = "open"
        } else if request.headers[.authorization] != nil {
            access = "bearer"
        } else {
            access = "cookie"
        }
        return JSONResponse(Session(access: access, canSignOut: access == "cookie"))
    }

    struct Credentials: Decodable {
        var token: String
    }

    @Sendable func login(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let body = try await RequestBody.decode(Credentials.self, from: request)
        let secret = body.token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let sessionID = try tokens.startSession(secret: secret) else {
            throw APIError(.unauthorized, code: "unauthorized", key: .apiUnknownToken)
        }
        var response = Response(status: .noContent)
        response.setCookie(Self.sessionCookie(sessionID, request: request))
        return response
    }

    @Sendable func logout(_ request: Request, context: BasicRequestContext) throws -> Response {
        if let sessionID = request.cookies[AccessGuard<BasicRequestContext>.cookieName]?.value {
            try tokens.endSession(sessionID)
        }
        var response = Response(status: .noContent)
        response.setCookie(Self.sessionCookie("", request: request, maxAge: 0))
        return response
    }

    static func sessionCookie(_ value: String, request: Request, maxAge: Int = sessionSeconds) -> Cookie {
        Cookie(
            name: AccessGuard<BasicRequestContext>.cookieName, value: value, maxAge: maxAge, path: "/",
            secure: isTLS(request), httpOnly: true, sameSite: .strict)
    }

    static func isTLS(_ request: Request) -> Bool {
        request.uri.scheme == .https || request.headers[.xForwardedProto] == "https"
    }
}
