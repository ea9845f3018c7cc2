import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import MomentumCore
import MomentumServices
import NIOCore
import Synchronization

/// What the server's controllers share: the household and each person's services, the clock
/// and ids, and where to log.
public struct ServerDependencies: Sendable {
    public var household: HouseholdService
    /// The founder's services (the household's own database is theirs).
    public var services: MomentumServices { household.founder }
    public var now: @Sendable () -> Date
    public var makeID: @Sendable () -> UUID
    public var logger: Logger
    public var version: String
    /// Sends every logged change of a person to their connected `/api/v1/live` WebSockets.
    let liveFeeds: LiveFeeds
    /// The household's sits together (issue 45): in this server's memory on SQLite.
    let togetherRooms: any TogetherRooms = TogetherRoomRegistry()
    /// Where rendered audio comes from; tests pass a source they can hold.
    public var rendering = AudioRendering.live
    /// The zone of the person's day when their settings name none (the services' own).
    public var timeZone = TimeZone.current
    /// This machine's interface addresses, asked when a pairing link is made (``PhoneAddresses``);
    /// tests pass a network of their own.
    public var interfaceAddresses: @Sendable () -> [String] = { PhoneAddresses.interfaceAddresses() }
    /// Sends test notifications (`POST /api/v1/push/subscriptions/{id}/test`): the push sender's
    /// own, set by ``buildApplication(configuration:dependencies:onRunning:)``; tests pass one with
    /// a push service of their own. Without one, a test push answers 503.
    public var pushDelivery: PushDelivery?

    public init(
        household: HouseholdService, now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() }, logger: Logger = Logger(label: "momentum.server"),
        version: String
    ) {
        self.household = household
        self.now = now
        self.makeID = makeID
        self.logger = logger
        self.version = version
        self.liveFeeds = LiveFeeds(household: household, logger: logger, now: now)
    }
}

/// The server for `configuration`: the router with every controller, listening where configured.
/// `onRunning` is called once it listens, with the port it got. `runService()` runs it until
/// SIGTERM or SIGINT, then lets requests in flight finish.
public func buildApplication(
    configuration: ServerConfiguration, dependencies: ServerDependencies,
    onRunning: @escaping @Sendable (_ port: Int?) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let sender = PushSenderService(configuration: configuration, dependencies: dependencies)
    var dependencies = dependencies
    if dependencies.pushDelivery == nil { dependencies.pushDelivery = sender.delivery }
    let webSocketResponder = buildLiveRouter(configuration: configuration, dependencies: dependencies)
        .buildResponder()
    let limits = configuration.connectionLimits
    let http1 = HTTP1Channel.Configuration(idleTimeout: TimeAmount(limits.idleTimeout))
    let connections = OpenConnections(limits: limits, logger: dependencies.logger)
    // The framework's info lines ("Server started and listening on …") show from debug on.
    var frameworkLogger = dependencies.logger
    frameworkLogger.logLevel = ServerLogging.frameworkLevel(for: dependencies.logger.logLevel)
    return Application(
        router: buildRouter(configuration: configuration, dependencies: dependencies),
        server: HTTPServerBuilder { responder in
            GuardedHTTPChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(http1: http1)),
                connections: connections)
        },
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        services: [sender],
        onServerRunning: { channel in await onRunning(channel.localAddress?.port) },
        eventLoopGroupProvider: .shared(ServerEventLoops.group),
        logger: frameworkLogger
    )
}

/// Every route, behind the shared middleware: metrics, security headers, JSON errors, path
/// checks, host, origin and body-type checks, the body limit and the UI's static files.
///
/// Each person of the household has routes of their own, wired to their services (built when
/// they are first asked for): a request goes to the routes of the person its credential names
/// (see ``HouseholdAccess``), whose ``AccessGuard`` checks it again. No route holds another
/// person's services, so no id or listing can reach another person's data.
///
/// Access is decided by ``AccessGuard`` on the route groups that need it (the API but its
/// catalog, the metrics, the calendar feed), so no spelling of a path reaches a guarded handler
/// without it.
public func buildRouter(
    configuration: ServerConfiguration, dependencies: ServerDependencies
) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    let routes = RouteTable()
    let shared = SharedServerParts(configuration: configuration, now: dependencies.now)
    let access = HouseholdAccess(household: dependencies.household, isRequired: configuration.requiresToken)
    let responders = PersonResponders { person, services in
        buildPersonRouter(
            configuration: configuration, dependencies: dependencies, person: person, services: services,
            shared: shared
        ).buildResponder()
    }
    router.addMiddleware {
        // Every request at debug level (MOMENTUM_LOG_LEVEL=debug), without its query or headers:
        // they may hold tokens.
        LogRequestsWithoutSecretsMiddleware()
        MetricsMiddleware(metrics: shared.metrics)
        SecurityHeadersMiddleware()
        ErrorMiddleware(routes: routes)
        PathSafetyMiddleware()
        RequestGuardMiddleware(
            policy: configuration.hostPolicy, uploadPaths: [LibraryController.uploadPath],
            archivePaths: [BackupController.uploadPath])
        BodyLimitMiddleware(
            limit: configuration.bodyLimit, streamedPaths: [LibraryController.uploadPath, BackupController.uploadPath])
        StaticFilesMiddleware(folder: configuration.publicDirectory)
        PersonDispatchMiddleware(access: access, household: dependencies.household, responders: responders)
    }
    let founderRoutes = buildPersonRouter(
        configuration: configuration, dependencies: dependencies, person: Person.founderID,
        services: dependencies.services, shared: shared)
    routes.register(founderRoutes.routes.map { (path: $0.path, method: $0.method.rawValue) })
    responders.keep(founderRoutes.buildResponder(), for: Person.founderID)
    return router
}

/// What every person's routes share: the metrics, the limit of audio streams, the render slots
/// and cache (renders are the same whoever asks), and the counts of wrong guesses at the ways in.
struct SharedServerParts: Sendable {
    let metrics = ServerMetrics()
    let streams: TimelineStreams
    let audio: AudioController.Shared
    let attempts: AttemptLimits

    init(configuration: ServerConfiguration, now: @escaping @Sendable () -> Date) {
        streams = TimelineStreams(limits: configuration.renderLimits)
        audio = AudioController.Shared(configuration: configuration)
        attempts = AttemptLimits(now: now)
    }
}

/// The routes of one person of the household, wired to their services.
func buildPersonRouter(
    configuration: ServerConfiguration, dependencies: ServerDependencies, person: Person.ID,
    services: MomentumServices, shared: SharedServerParts
) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    // Errors go out to the shared middleware (JSON errors, static files), not answered here.
    router.addMiddleware { PassErrorsOutMiddleware() }
    let metrics = shared.metrics
    let access = HouseholdAccess(household: dependencies.household, isRequired: configuration.requiresToken)
    let full = AccessGuard<BasicRequestContext>(access: access, person: person)
    let feed = AccessGuard<BasicRequestContext>(access: access, person: person, scope: .feed)
    SystemController(version: dependencies.version, metrics: metrics)
        .addRoutes(to: router, guarded: router.group().add(middleware: full))
    // Behind the access guard: only a request with access may name the changes it makes.
    let api = router.group("api/v1").add(middleware: full).add(middleware: DeviceNameMiddleware())
    CatalogController(settings: services.settings).addRoutes(open: router.group("api/v1"), guarded: api)
    LoginController(access: access, person: person, attempts: shared.attempts).addRoutes(to: router, guarded: api)
    PeopleController(
        access: access, person: person, settings: services.settings, now: dependencies.now,
        timeZone: dependencies.timeZone, attempts: shared.attempts,
        phoneAddresses: { [interfaceAddresses = dependencies.interfaceAddresses] port in
            configuration.phoneAddresses(interfaceAddresses: interfaceAddresses(), port: port)
        }
    )
    .addRoutes(to: router, guarded: api)
    AboutController(
        services: services, version: dependencies.version, guardian: full, now: dependencies.now
    ).addRoutes(to: router, guarded: api)
    SettingsController(settings: services.settings).addRoutes(to: api)
    TimeZonesController(progress: services.progress).addRoutes(to: api)
    TimelineController(breathing: services.breathing).addRoutes(to: api)
    MeditationFormController(settings: services.settings, presets: services.meditationPresets).addRoutes(to: api)
    MeditationPresetsController(presets: services.meditationPresets, settings: services.settings)
        .addRoutes(to: api.group("meditation/presets"))
    // On PostgreSQL every server sees (and may change) the runs another started; on SQLite the
    // one server keeps them in memory.
    let runs: any PracticeRuns =
        dependencies.household.practiceRunStore(for: person).map { StoredRunRegistry(store: $0, now: dependencies.now) }
        ?? RunRegistry()
    let runsController = RunsController(
        registry: runs, services: services, now: dependencies.now, makeID: dependencies.makeID,
        metrics: metrics)
    runsController.addRoutes(to: api.group("runs"))
    TogetherController(
        rooms: dependencies.togetherRooms, runs: runsController, household: dependencies.household, person: person,
        liveFeeds: dependencies.liveFeeds, streams: shared.streams, now: dependencies.now
    ).addRoutes(to: api.group("together"))
    // A run's audio and a focus timer's end sound share the limit of streams and their one thread.
    RunAudioController(registry: runs, streams: shared.streams, person: person).addRoutes(to: api.group("runs"))
    PreparedAudioController(services: services, streams: shared.streams, person: person)
        .addRoutes(to: api.group("runs"))
    LogController(
        log: services.practiceLog, progress: services.progress, settings: services.settings, metrics: metrics
    ).addRoutes(
        to: api.group("log"))
    ProgressController(progress: services.progress).addRoutes(to: api.group("progress"))
    BreathingPresetsController(breathing: services.breathing, settings: services.settings)
        .addRoutes(to: api.group("breathing/presets"))
    WorkoutProgramsController(workouts: services.workouts, settings: services.settings)
        .addRoutes(to: api.group("workouts/programs"))
    FocusTimersController(
        timers: services.focusTimers,
        intentService: FocusTimerIntentService(
            timers: services.focusTimers, sync: services.sync, now: dependencies.now),
        household: dependencies.household, person: person,
        liveFeeds: dependencies.liveFeeds, now: dependencies.now
    ).addRoutes(to: api.group("timers"))
    FocusEndSoundController(
        timers: services.focusTimers, now: dependencies.now, streams: shared.streams, person: person
    )
    .addRoutes(to: api.group("timers"))
    // Like the runs: on PostgreSQL every server answers a Morse session or QSO another started.
    MorseController(
        morse: services.morse, exchanges: dependencies.household.morseExchangeStore(for: person),
        now: dependencies.now, makeID: dependencies.makeID, metrics: metrics
    )
    .addRoutes(to: api.group("morse"))
    RemindersController(reminders: services.reminders, settings: services.settings)
        .addRoutes(feed: router.group().add(middleware: feed), api: api)
    PushController(
        push: dependencies.household.push, subscriptions: services.pushSubscriptions,
        admitted: configuration.pushOrigins, delivery: dependencies.pushDelivery, household: dependencies.household,
        person: person
    ).addRoutes(to: api)
    TrackersController(trackers: services.trackers, settings: services.settings)
        .addRoutes(to: api.group("trackers"))
    AudioController(services: services, shared: shared.audio, rendering: dependencies.rendering)
        .addRoutes(to: api)
    HandsFreeController(
        handsFree: services.handsFree, morse: services.morse, settings: services.settings,
        rendering: dependencies.rendering, slots: shared.audio.slots, renderCache: shared.audio.renderCache,
        metrics: metrics
    ).addRoutes(to: api.group("morse"))
    SyncController(sync: services.sync, household: dependencies.household, person: person).addRoutes(to: api)
    DeviceController().addRoutes(to: api)
    LibraryController(library: services.library, settings: services.settings, metrics: metrics)
        .addRoutes(to: api.group("library"))
    BackupController(
        services: services,
        stagingFolder: configuration.dataDirectory.appendingPathComponent(
            "backup-staging/\(person)", isDirectory: true),
        now: dependencies.now, makeID: dependencies.makeID, timeZone: dependencies.timeZone
    ).addRoutes(to: api)
    return router
}

/// Sends each request to the routes of the person it acts as (see ``HouseholdAccess``). It is the
/// last of the shared middleware: everything that is not a static file goes through it.
struct PersonDispatchMiddleware: RouterMiddleware {
    let access: HouseholdAccess
    let household: HouseholdService
    let responders: PersonResponders

    func handle(
        _ request: Request, context: BasicRequestContext,
        next: (Request, BasicRequestContext) async throws -> Response
    ) async throws -> Response {
        let (person, found) = try await access.dispatch(request)
        let responder = try await responders.responder(for: person, household: household)
        do {
            return try await FoundCredential.$current.withValue(found) {
                try await responder.respond(to: request, context: context)
            }
        } catch let passed as PassedOutError {
            throw passed.error
        }
    }
}

/// A person's router answers the errors it sees itself (a router turns every HTTP error into a
/// response); wrapped, they pass through it unanswered to the shared ``ErrorMiddleware`` and
/// static files, as if there were one router.
struct PassErrorsOutMiddleware: RouterMiddleware {
    func handle(
        _ request: Request, context: BasicRequestContext,
        next: (Request, BasicRequestContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            throw PassedOutError(error: error)
        }
    }
}

struct PassedOutError: Error {
    let error: any Error
}

/// Each person's routes, built the first time a request acts as them.
final class PersonResponders: Sendable {
    typealias Responder = RouterResponder<BasicRequestContext>
    private let build: @Sendable (Person.ID, MomentumServices) -> Responder
    private let built = Mutex<[Person.ID: Responder]>([:])

    init(build: @escaping @Sendable (Person.ID, MomentumServices) -> Responder) {
        self.build = build
    }

    func keep(_ responder: Responder, for person: Person.ID) {
        built.withLock { $0[person] = responder }
    }

    func responder(for person: Person.ID, household: HouseholdService) async throws -> Responder {
        if let responder = built.withLock({ $0[person] }) { return responder }
        let responder = await build(person, try household.services(forID: person))
        return built.withLock { built in
            if let earlier = built[person] { return earlier }
            built[person] = responder
            return responder
        }
    }
}
