import Foundation
import Hummingbird
import MomentumServices

/// Off loopback, every API request (and the metrics) needs a live access token: a bearer token
/// or the session cookie `POST /login` sets. `/health`, `/openapi.yaml`, `/login`, the catalog and
/// the static files (the login page among them) stay open so a browser can sign in.
struct AccessTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let tokens: AccessTokenService
    let isRequired: Bool

    static var cookieName: String { "momentum_session" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard isRequired, Self.isProtected(request.uri.path) else { return try await next(request, context) }
        guard let secret = Self.secret(in: request), try tokens.verify(secret: secret) != nil else {
            var refusal = APIError.unauthorized
            refusal.headers[.wwwAuthenticate] = "Bearer"
            throw refusal
        }
        return try await next(request, context)
    }

    /// The API and the metrics; the catalog stays open because the login page speaks from it
    /// (it holds the product's texts only).
    static func isProtected(_ path: String) -> Bool {
        guard path != "/api/v1/catalog" else { return false }
        return path == "/api" || path.hasPrefix("/api/") || path == "/metrics" || path == calendarFeedPath
    }

    /// Calendar apps subscribe to a URL and can send neither a header nor a cookie, so the feed
    /// alone also takes the token as `?token=` (make a token just for it: `momentum token create`).
    static var calendarFeedPath: String { "/reminders.ics" }

    /// The bearer token, else the session cookie's, else — for the calendar feed only — `?token=`.
    static func secret(in request: Request) -> String? {
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        if let cookie = request.cookies[cookieName]?.value { return cookie }
        guard request.uri.path == calendarFeedPath else { return nil }
        return request.uri.queryParameters["token"].map(String.init)
    }
}

/// `POST /login` exchanges a token for an HTTP-only, SameSite=Strict session cookie (Secure when
/// the request came over TLS, e.g. through a proxy that says so); `POST /logout` clears it.
/// `GET /api/v1/session` says how this request got in, so the UI offers "Sign out" only where
/// signing out means something (a cookie session).
struct LoginController {
    let tokens: AccessTokenService
    let isRequired: Bool

    /// A month: the cookie holds the token itself, so revoking the token ends the session at once.
    static let sessionSeconds = 30 * 24 * 3600

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.post("login", use: login)
        router.post("logout", use: logout)
        router.get("api/v1/session", use: session)
    }

    /// How a request got in: `open` (loopback, no token needed), `cookie` (signed in at the login
    /// page) or `bearer` (an `Authorization` header). The middleware has already refused requests
    /// without a live token.
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
        guard try tokens.verify(secret: secret) != nil else {
            throw APIError(.unauthorized, code: "unauthorized", message: "That token is unknown or revoked.")
        }
        var response = Response(status: .noContent)
        response.setCookie(
            Cookie(
                name: AccessTokenMiddleware<BasicRequestContext>.cookieName, value: secret,
                maxAge: Self.sessionSeconds, path: "/", secure: Self.isTLS(request), httpOnly: true,
                sameSite: .strict))
        return response
    }

    @Sendable func logout(_ request: Request, context: BasicRequestContext) -> Response {
        var response = Response(status: .noContent)
        response.setCookie(
            Cookie(
                name: AccessTokenMiddleware<BasicRequestContext>.cookieName, value: "", maxAge: 0, path: "/",
                secure: Self.isTLS(request), httpOnly: true, sameSite: .strict))
        return response
    }

    static func isTLS(_ request: Request) -> Bool {
        request.uri.scheme == .https || request.headers[.xForwardedProto] == "https"
    }
}
