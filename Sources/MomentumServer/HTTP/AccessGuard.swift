import Foundation
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStoreContract

/// Who a request acts as, in a household (see `docs/people.md`): the person its credential
/// belongs to — a bearer token, the session cookie (made by `POST /login`, by pairing, or by
/// choosing a profile on the server's own screen), or `?token=` on the calendar feed.
struct HouseholdAccess: Sendable {
    let household: HouseholdService
    /// Off loopback a credential is needed; on loopback only to tell people apart.
    let isRequired: Bool

    var tokens: AccessTokenService { household.accessTokens }

    static var cookieName: String { "momentum_session" }

    /// A request's credential, checked: none, one that is not (or no longer) good, or a live
    /// token (with the session it came through, when its end moved on).
    enum Credential: Equatable {
        case none
        case refused
        case token(AccessToken, refreshedSession: String?)
    }

    /// The credential a request presents — the one place a request's credential is read, by the
    /// dispatch and by every guard alike: a bearer header before the session cookie, the cookie
    /// before `?token=`.
    enum Presented: Equatable {
        case none
        case bearer(String)
        case session(String)
        /// `?token=`: what a calendar app sends. Only a guard of the feed's scope takes it; any
        /// other treats the request as presenting nothing.
        case query(String)
    }

    static func presented(in request: Request) -> Presented {
        if let bearer = bearer(in: request) { return .bearer(bearer) }
        if let sessionID = request.cookies[cookieName]?.value, !sessionID.isEmpty { return .session(sessionID) }
        if let secret = request.uri.queryParameters["token"].map(String.init) { return .query(secret) }
        return .none
    }

    func credential(of request: Request, scope: AccessScope) async throws -> Credential {
        switch Self.presented(in: request) {
        case .bearer(let secret):
            return try await verify(secret: secret).map { .token($0, refreshedSession: nil) } ?? .refused
        case .session(let sessionID):
            guard let live = try await liveSession(sessionID) else {
                // Not live when the request was dispatched: checked once more, and a dead session deleted.
                guard let session = try await tokens.verifySession(sessionID) else { return .refused }
                return .token(session.token, refreshedSession: session.wasRefreshed ? sessionID : nil)
            }
            let session = try await tokens.use(live)
            return .token(session.token, refreshedSession: session.wasRefreshed ? sessionID : nil)
        case .query(let secret) where scope == .feed:
            return try await verify(secret: secret).map { .token($0, refreshedSession: nil) } ?? .refused
        case .query, .none:
            return .none
        }
    }

    /// Whether the household has more than one person: then even on loopback a request says
    /// whose it is.
    func isShared() async throws -> Bool {
        try await household.people().count > 1
    }

    /// Whose routes answer `request`: the person its credential names (checked again by the
    /// routes' ``AccessGuard``), else the founder's — whose guard refuses what needs a credential.
    func person(of request: Request) async throws -> Person.ID {
        try await dispatch(request).person
    }

    /// ``person(of:)``, and the credential as found — what the routes' guard checks again without
    /// reading it again (``FoundCredential/current``, for the request's task).
    func dispatch(_ request: Request) async throws -> (person: Person.ID, found: FoundCredential) {
        var found = FoundCredential()
        let token: AccessToken?
        switch Self.presented(in: request) {
        case .bearer(let secret), .query(let secret):
            // A `?token=` goes to its person's routes, whose guards take it only on the feed.
            token = try await tokens.verify(secret: secret)
            (found.secret, found.token) = (secret, token)
        case .session(let sessionID):
            let live = try await tokens.liveSession(sessionID)
            (found.sessionID, found.session) = (sessionID, live)
            token = live?.token
        case .none:
            token = nil
        }
        guard let token, try await household.person(id: token.personID) != nil else {
            return (Person.founderID, found)
        }
        return (token.personID, found)
    }

    /// The live token whose secret is `secret`: as the dispatch found it for this request, else read.
    private func verify(secret: String) async throws -> AccessToken? {
        if let found = FoundCredential.current, found.secret == secret { return found.token }
        return try await tokens.verify(secret: secret)
    }

    /// The live session `sessionID`: as the dispatch found it for this request, else read.
    private func liveSession(_ sessionID: String) async throws -> AccessTokenService.LiveSession? {
        if let found = FoundCredential.current, found.sessionID == sessionID { return found.session }
        return try await tokens.liveSession(sessionID)
    }

    /// The token of an `Authorization: Bearer …` header.
    static func bearer(in request: Request) -> String? {
        guard let authorization = request.headers[.authorization] else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return "" }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}

/// A request's credential as ``HouseholdAccess/dispatch(_:)`` found it — a token's secret and
/// the live token it names, or a session's id and the live session — kept for the request's task
/// so the routes' ``AccessGuard`` checks the same credential without reading it a second time.
/// Only an identical secret or id is answered from it.
struct FoundCredential: Sendable {
    var secret: String?
    var token: AccessToken?
    var sessionID: String?
    var session: AccessTokenService.LiveSession?

    @TaskLocal static var current: FoundCredential?
}

/// The routes it guards answer only a request that may act as their person. Off loopback that
/// needs a live credential of that person; on loopback it needs nothing while the household has
/// one person, and a profile chosen on this screen (a session of that person) once it has more.
/// It is attached to route groups (see `buildRouter`), not matched on the path, so a request
/// reaches a guarded handler only through it, however the path is spelled.
///
/// `person` is whose routes these are (`nil`: any person's, for routes that serve the
/// credential's person themselves, like the live feed). `scope` is what the routes need: `.full`
/// for the API, the metrics and the live feed; `.feed` for the calendar feed, which a feed token
/// also opens and which alone takes `?token=` (calendar apps can send neither a header nor a
/// cookie).
struct AccessGuard<Context: RequestContext>: RouterMiddleware {
    let access: HouseholdAccess
    let person: Person.ID?
    var scope: AccessScope = .full

    static var cookieName: String { HouseholdAccess.cookieName }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        switch try await check(request) {
        case .refused:
            var refusal = APIError.unauthorized
            refusal.headers[.wwwAuthenticate] = "Bearer"
            throw refusal
        case .choosePerson:
            throw APIError(.unauthorized, code: "choose_person", key: .apiChoosePerson)
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
        /// On loopback, in a household of several: no profile chosen on this screen (or another's).
        case choosePerson
        case outOfScope
        case allowed
        /// A session whose end moved on: the cookie is sent again so the browser keeps it as long.
        case allowedRefreshingSession(String)
    }

    func check(_ request: Request) async throws -> Decision {
        if !access.isRequired {
            guard try await access.isShared() else { return .allowed }
            guard case .token(let token, let refreshed) = try await access.credential(of: request, scope: scope),
                isTheirs(token)
            else { return .choosePerson }
            return refreshed.map(Decision.allowedRefreshingSession) ?? .allowed
        }
        guard case .token(let token, let refreshed) = try await access.credential(of: request, scope: scope),
            isTheirs(token)
        else { return .refused }
        guard token.scope == .full || token.scope == scope else { return .outOfScope }
        return refreshed.map(Decision.allowedRefreshingSession) ?? .allowed
    }

    private func isTheirs(_ token: AccessToken) -> Bool {
        person == nil || token.personID == person
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
    let access: HouseholdAccess
    /// Whose routes these are.
    let person: Person.ID
    /// Wrong tokens count against the client that sends them.
    let attempts: AttemptLimits
    var tokens: AccessTokenService { access.tokens }
    var isRequired: Bool { access.isRequired }

    static let sessionSeconds = Int(AccessTokenService.sessionLifetime)

    func addRoutes(to router: Router<BasicRequestContext>, guarded api: RouterGroup<BasicRequestContext>) {
        router.post("login", use: login)
        router.post("logout", use: logout)
        api.get("session", use: session)
    }

    /// How a request got in: `open` (loopback, one person, no token needed), `profile` (loopback,
    /// a profile chosen on this screen), `cookie` (signed in at the login page or by pairing) or
    /// `bearer` (an `Authorization` header) — and as whom. The guard has already refused requests
    /// without a live credential.
    struct Session: Encodable {
        var access: String
        var canSignOut: Bool
        var person: PersonView
    }

    struct PersonView: Encodable {
        var id: Person.ID
        var name: String
        var role: PersonRole
    }

    @Sendable func session(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Session> {
        let access: String
        if !isRequired {
            access = try await self.access.isShared() ? "profile" : "open"
        } else if request.headers[.authorization] != nil {
            access = "bearer"
        } else {
            access = "cookie"
        }
        guard let person = try await self.access.household.person(id: person) else { throw APIError.unauthorized }
        return JSONResponse(
            Session(
                access: access, canSignOut: access == "cookie" || access == "profile",
                person: PersonView(id: person.id, name: person.name, role: person.role)))
    }

    struct Credentials: Decodable {
        var token: String
    }

    @Sendable func login(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let body = try await RequestBody.decode(Credentials.self, from: request)
        let secret = body.token.trimmingCharacters(in: .whitespacesAndNewlines)
        let sessionID = try await attempts.attempt(AttemptLimits.keys(), isWrongGuess: Self.isUnknownToken) {
            guard let sessionID = try await tokens.startSession(secret: secret) else {
                throw APIError(.unauthorized, code: "unauthorized", key: .apiUnknownToken)
            }
            return sessionID
        }
        var response = Response(status: .noContent)
        response.setCookie(Self.sessionCookie(sessionID, request: request))
        return response
    }

    private static func isUnknownToken(_ error: any Error) -> Bool {
        (error as? APIError)?.status == .unauthorized
    }

    @Sendable func logout(_ request: Request, context: BasicRequestContext) async throws -> Response {
        if let sessionID = request.cookies[AccessGuard<BasicRequestContext>.cookieName]?.value {
            try await tokens.endSession(sessionID)
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
