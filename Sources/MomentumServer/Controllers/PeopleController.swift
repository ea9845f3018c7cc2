import Foundation
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStoreContract

/// The household's people on the web (see `docs/people.md`):
///
/// - `POST /pair` (open): a one-time pairing code signs this browser in as its person.
/// - `GET /api/v1/profiles`, `POST /api/v1/profiles/choose` (open, loopback only): the profile
///   picker of the server's own screen; a PIN-locked profile needs its PIN.
/// - `GET /api/v1/people`: everyone with their devices for an owner, oneself for a member.
/// - Owner only: `POST /api/v1/people`, `PATCH`/`DELETE /api/v1/people/{id}`,
///   `PUT`/`DELETE /api/v1/people/{id}/pin`.
/// - An owner for anyone, a member for themselves: `POST /api/v1/people/{id}/pairing` (a code,
///   its link and QR code), `DELETE /api/v1/people/{id}/devices/{token}` (ends that way in).
struct PeopleController {
    let access: HouseholdAccess
    /// Whose routes these are: who asks.
    let person: Person.ID
    let settings: SettingsService
    let now: @Sendable () -> Date
    /// The server's time zone: dates are written in it unless the asking person chose another.
    let timeZone: TimeZone
    /// Wrong PINs count against the person and the client; wrong pairing codes against the client.
    let attempts: AttemptLimits
    /// Where a phone reaches this server, as it is now (``PhoneAddresses``): the pairing link
    /// never names this machine's loopback, which a phone would open as itself.
    let phoneAddresses: @Sendable (_ port: Int) -> PhoneAddresses

    var household: HouseholdService { access.household }

    func addRoutes(to router: Router<BasicRequestContext>, guarded api: RouterGroup<BasicRequestContext>) {
        router.post("pair", use: pair)
        router.get("api/v1/profiles", use: profiles)
        router.post("api/v1/profiles/choose", use: chooseProfile)
        api.get("people", use: list)
        api.post("people", use: add)
        api.patch("people/{id}", use: change)
        api.delete("people/{id}", use: remove)
        api.put("people/{id}/pin", use: setPIN)
        api.delete("people/{id}/pin", use: clearPIN)
        api.post("people/{id}/pairing", use: startPairing)
        api.delete("people/{id}/devices/{token}", use: endDevice)
    }

    // MARK: - Views

    struct PersonView: Encodable {
        var id: Person.ID
        var name: String
        var role: PersonRole
        var hasPIN: Bool
        var language: Language?
        var isYou: Bool
        var devices: [DeviceView]
    }

    /// A way in: `paired` (a device signed in with a pairing code), `screen` (profiles chosen on
    /// the server's own screen) or `token` (`momentum token create`).
    struct DeviceView: Encodable {
        var id: String
        var name: String
        var kind: String
        var scope: AccessScope
        var createdAt: String
        var lastUsedAt: String?
        /// When it was last used, for people: "26 Nov at 20:05" (see ``InstantWords``).
        var lastUsedText: String?
        var sessions: Int

        init(_ device: HouseholdService.Device, words: InstantWords) {
            id = device.token.id
            name = device.token.name
            kind =
                !device.token.isPairing
                ? "token" : device.token.name == HouseholdService.screenTokenName ? "screen" : "paired"
            scope = device.token.scope
            createdAt = InstantText.format(device.token.createdAt)
            lastUsedAt = device.lastUsedAt.map { InstantText.format($0) }
            lastUsedText = device.lastUsedAt.map { words.dateAndTime.string(from: $0) }
            sessions = device.sessions
        }
    }

    struct People: Encodable {
        /// Whether the one asking may add, change and remove people and pair anyone's devices.
        var canManage: Bool
        var people: [PersonView]
    }

    struct Profile: Encodable {
        var id: Person.ID
        var name: String
        var hasPIN: Bool
    }

    struct Profiles: Encodable {
        var profiles: [Profile]
    }

    struct Pairing: Encodable {
        var person: String
        /// Grouped for reading: `7KQM-X3HD-R9WE`.
        var code: String
        /// The link to open on the phone (the code rides in its fragment).
        var link: String
        var expiresAt: String
        /// When the code stops working, for people: "20:15" (see ``InstantWords``).
        var expiresText: String
        /// The link as a QR code: one string per row, `1` for a dark module (no quiet zone).
        var qr: [String]
        /// Whether a phone can open the link: `false` when the server listens on this machine's
        /// loopback only (the link then works in another browser of this machine alone).
        var reachableByPhone: Bool
        /// Why a phone cannot open it and what to change, for people; absent when it can.
        var notice: String?
    }

    struct Paired: Encodable {
        var person: String
    }

    /// Instants as the asking person reads them: in the request's language and their time zone.
    struct InstantWords {
        let dateAndTime: DateFormatter
        let time: DateFormatter

        init(language: Language, timeZone: TimeZone) {
            dateAndTime = language.dateFormatter(template: "d MMM jmm", timeZone: timeZone)
            time = language.dateFormatter(template: "jmm", timeZone: timeZone)
        }
    }

    private func instantWords(for request: Request) async throws -> InstantWords {
        let language = try await LanguageChoice.language(for: request, settings: settings)
        let zone = try await settings.load().progress.dayCalendar(systemTimeZone: timeZone).timeZone
        return InstantWords(language: language, timeZone: zone)
    }

    private func catalog(for request: Request) async throws -> StringCatalog {
        StringCatalog.shared(for: try await LanguageChoice.language(for: request, settings: settings))
    }

    // MARK: - Bodies

    struct PairBody: Decodable {
        var code: String
        var device: String?
    }

    struct ChooseBody: Decodable {
        var id: Person.ID
        var pin: String?
    }

    struct NewPerson: Decodable {
        var name: String
        var role: PersonRole?
        var language: Language?
    }

    struct PersonChanges: Decodable {
        var name: String?
        var role: PersonRole?
    }

    struct PINBody: Decodable {
        var pin: String
    }

    // MARK: - Signing in

    @Sendable func pair(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let body = try await RequestBody.decode(PairBody.self, from: request)
        let (sessionID, person) = try await attempts.attempt(AttemptLimits.keys(), isWrongGuess: Self.isWrongCode) {
            try await household.pair(code: body.code, deviceName: body.device)
        }
        var response = try JSONResponse(Paired(person: person.name)).response(from: request, context: context)
        response.setCookie(LoginController.sessionCookie(sessionID, request: request))
        return response
    }

    @Sendable func profiles(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Profiles> {
        try requireTheServersOwnScreen()
        let profiles = try await household.people().map { Profile(id: $0.id, name: $0.name, hasPIN: $0.hasPIN) }
        return JSONResponse(Profiles(profiles: profiles))
    }

    @Sendable func chooseProfile(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try requireTheServersOwnScreen()
        let body = try await RequestBody.decode(ChooseBody.self, from: request)
        guard let chosen = try await household.person(id: body.id) else { throw APIError.notFound(.apiNoSuchPerson) }
        let sessionID = try await attempts.attempt(
            AttemptLimits.keys(person: "\(chosen.id)"), isWrongGuess: Self.isWrongPIN
        ) { try await household.chooseProfile(chosen, pin: body.pin) }
        var response = Response(status: .noContent)
        response.setCookie(LoginController.sessionCookie(sessionID, request: request))
        return response
    }

    private static func isWrongCode(_ error: any Error) -> Bool {
        if case .pairing = error as? HouseholdError { return true }
        return false
    }

    private static func isWrongPIN(_ error: any Error) -> Bool {
        (error as? HouseholdError) == .person(.pinWrong)
    }

    private func requireTheServersOwnScreen() throws {
        guard !access.isRequired else {
            throw APIError(.notFound, code: "not_found", key: .apiProfilesOnThisScreen)
        }
    }

    // MARK: - People

    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<People> {
        let asking = try await askingPerson()
        let people = try await household.people(seenBy: asking)
        let words = try await instantWords(for: request)
        var views: [PersonView] = []
        for person in people { views.append(try await view(person, words: words)) }
        return JSONResponse(People(canManage: household.canManage(asking), people: views))
    }

    @Sendable func add(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<PersonView> {
        try await household.requireOwner(try askingPerson())
        let body = try await RequestBody.decode(NewPerson.self, from: request)
        let added = try await household.add(named: body.name, role: body.role ?? .member, language: body.language)
        return await JSONResponse(try view(added, words: try instantWords(for: request)), status: .created)
    }

    @Sendable func change(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<PersonView> {
        var changed = try await changed(context)
        let body = try await RequestBody.decode(PersonChanges.self, from: request)
        if let name = body.name { changed = try await household.rename(changed.name, to: name) }
        if let role = body.role { changed = try await household.setRole(of: changed.name, to: role) }
        return await JSONResponse(try view(changed, words: try instantWords(for: request)))
    }

    @Sendable func remove(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await household.remove(try changed(context).name)
        return Response(status: .noContent)
    }

    @Sendable func setPIN(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let target = try await changed(context)
        let body = try await RequestBody.decode(PINBody.self, from: request)
        try await household.setPIN(of: target.name, to: body.pin)
        return Response(status: .noContent)
    }

    @Sendable func clearPIN(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await household.setPIN(of: try changed(context).name, to: nil)
        return Response(status: .noContent)
    }

    // MARK: - Devices

    @Sendable func startPairing(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Pairing>
    {
        let target = try await ownerOrSelf(context)
        let requestBase = (LoginController.isTLS(request) ? "https://" : "http://") + (request.head.authority ?? "")
        let requestPort = HostPolicy.Authority(request.head.authority ?? "")?.port ?? 80
        let reach = phoneAddresses(requestPort).phoneBase(forRequestBase: requestBase)
        var base = requestBase
        var notice: String?
        switch reach {
        case .network(let bases): base = bases.first ?? requestBase
        case .thisMachineOnly:
            notice = try await catalog(for: request).format(.peoplePairingLoopbackOnly, ["host": requestBase])
        case .noNetwork: notice = try await catalog(for: request)[.peoplePairingNoNetwork]
        }
        // The link is checked before a code is made: a host a phone cannot open spends nothing.
        _ = try PairingCode.link(base: base, code: String(repeating: "2", count: PairingCode.length))
        let pairing = try await household.startPairing(for: target)
        let link = try PairingCode.link(base: base, code: pairing.code)
        let code = try QRCode.encode(link, correction: .medium)
        let rows = (0..<code.size).map { y in String((0..<code.size).map { x in code[x, y] ? "1" : "0" }) }
        return JSONResponse(
            Pairing(
                person: target.name, code: pairing.code, link: link,
                expiresAt: InstantText.format(pairing.expiresAt),
                expiresText: try await instantWords(for: request).time.string(from: pairing.expiresAt), qr: rows,
                reachableByPhone: notice == nil, notice: notice),
            status: .created)
    }

    @Sendable func endDevice(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let target = try await ownerOrSelf(context)
        let id = context.parameters.get("token") ?? ""
        guard try await household.devices(of: target).contains(where: { $0.token.id == id }) else {
            throw APIError.notFound(.apiNoSuchDevice)
        }
        try await household.accessTokens.revoke(id: id, of: target.id)
        return Response(status: .noContent)
    }

    // MARK: - Who asks

    private func askingPerson() async throws -> Person {
        guard let asking = try await household.person(id: person) else { throw APIError.unauthorized }
        return asking
    }

    /// The person named by the path's id, as an owner changes them (owners only).
    private func changed(_ context: BasicRequestContext) async throws -> Person {
        try await household.person(
            id: context.parameters.get("id").flatMap(Person.ID.init), changedBy: try askingPerson())
    }

    /// The person named by the path's id: anyone for an owner; a member only themselves (others
    /// answer 404, as if they did not exist).
    private func ownerOrSelf(_ context: BasicRequestContext) async throws -> Person {
        try await household.person(
            id: context.parameters.get("id").flatMap(Person.ID.init), reachedBy: try askingPerson())
    }

    private func view(_ shown: Person, words: InstantWords) async throws -> PersonView {
        let services = try await household.services(for: shown)
        return await PersonView(
            id: shown.id, name: shown.name, role: shown.role, hasPIN: shown.hasPIN,
            language: try await services.settings.load().language, isYou: shown.id == person,
            devices: try household.devices(of: shown).map { DeviceView($0, words: words) })
    }
}
