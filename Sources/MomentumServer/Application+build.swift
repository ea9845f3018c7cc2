import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import MomentumCore
import MomentumServices
import NIOCore

/// What the server's controllers share: the services, the clock and ids, and where to log.
public struct ServerDependencies: Sendable {
    public var services: MomentumServices
    public var now: @Sendable () -> Date
    public var makeID: @Sendable () -> UUID
    public var logger: Logger
    public var version: String
    /// Sends every logged change to the connected `/api/v1/live` WebSockets.
    let liveFeed: LiveFeed
    /// Where rendered audio comes from; tests pass a source they can hold.
    public var rendering = AudioRendering.live
    /// The zone of the person's day when their settings name none (the services' own).
    public var timeZone = TimeZone.current

    public init(
        services: MomentumServices, now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { UUID() }, logger: Logger = Logger(label: "momentum.server"),
        version: String
    ) {
        self.services = services
        self.now = now
        self.makeID = makeID
        self.logger = logger
        self.version = version
        self.liveFeed = LiveFeed(sync: services.sync)
    }
}

/// The server for `configuration`: the router with every controller, listening where configured.
/// `onRunning` is called once it listens, with the port it got. `runService()` runs it until
/// SIGTERM or SIGINT, then lets requests in flight finish.
public func buildApplication(
    configuration: ServerConfiguration, dependencies: ServerDependencies,
    onRunning: @escaping @Sendable (_ port: Int?) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let webSocketResponder = buildLiveRouter(configuration: configuration, dependencies: dependencies)
        .buildResponder()
    let http1 = HTTP1Channel.Configuration(idleTimeout: TimeAmount(configuration.idleTimeout))
    let headerTimeout = TimeAmount(configuration.headerReadTimeout)
    return Application(
        router: buildRouter(configuration: configuration, dependencies: dependencies),
        server: HTTPServerBuilder { responder in
            HeaderDeadlineChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(http1: http1)),
                timeout: headerTimeout)
        },
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        onServerRunning: { channel in await onRunning(channel.localAddress?.port) },
        logger: dependencies.logger
    )
}

/// Every route, behind the shared middleware: metrics, security headers, JSON errors, path
/// checks, host, origin and body-type checks, the body limit and the UI's static files.
///
/// Access is decided by ``AccessGuard`` on the route groups that need it (the API but its
/// catalog, the metrics, the calendar feed), so no spelling of a path reaches a guarded handler
/// without it.
public func buildRouter(
    configuration: ServerConfiguration, dependencies: ServerDependencies
) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    let routes = RouteTable()
    let metrics = ServerMetrics()
    router.addMiddleware {
        // Every request at debug level (MOMENTUM_LOG_LEVEL=debug), without its query or headers:
        // they may hold tokens.
        LogRequestsWithoutSecretsMiddleware()
        MetricsMiddleware(metrics: metrics)
        SecurityHeadersMiddleware()
        ErrorMiddleware(routes: routes)
        PathSafetyMiddleware()
        RequestGuardMiddleware(
            policy: configuration.hostPolicy, uploadPaths: [LibraryController.uploadPath],
            archivePaths: [BackupController.uploadPath])
        BodyLimitMiddleware(
            limit: configuration.bodyLimit, streamedPaths: [LibraryController.uploadPath, BackupController.uploadPath])
        StaticFilesMiddleware(folder: configuration.publicDirectory)
    }
    let services = dependencies.services
    let isRequired = configuration.requiresToken
    let full = AccessGuard<BasicRequestContext>(tokens: services.accessTokens, isRequired: isRequired)
    let feed = AccessGuard<BasicRequestContext>(
        tokens: services.accessTokens, isRequired: isRequired, scope: .feed)
    SystemController(version: dependencies.version, metrics: metrics)
        .addRoutes(to: router, guarded: router.group().add(middleware: full))
    // Behind the access guard: only a request with access may name the changes it makes.
    let api = router.group("api/v1").add(middleware: full).add(middleware: DeviceNameMiddleware())
    CatalogController(settings: services.settings).addRoutes(open: router.group("api/v1"), guarded: api)
    LoginController(tokens: services.accessTokens, isRequired: isRequired).addRoutes(to: router, guarded: api)
    AboutController(services: services, version: dependencies.version, isRequired: isRequired, now: dependencies.now)
        .addRoutes(to: router, guarded: api)
    SettingsController(settings: services.settings).addRoutes(to: api)
    TimeZonesController(progress: services.progress).addRoutes(to: api)
    TimelineController(breathing: services.breathing).addRoutes(to: api)
    MeditationFormController(settings: services.settings).addRoutes(to: api)
    MeditationPresetsController(presets: services.meditationPresets, settings: services.settings)
        .addRoutes(to: api.group("meditation/presets"))
    let runs = RunRegistry()
    RunsController(
        registry: runs, services: services, now: dependencies.now, makeID: dependencies.makeID,
        metrics: metrics
    ).addRoutes(to: api.group("runs"))
    // A run's audio and a focus timer's end sound share the limit of streams and their one thread.
    let streams = TimelineStreams(limits: configuration.renderLimits)
    RunAudioController(registry: runs, streams: streams).addRoutes(to: api.group("runs"))
    LogController(
        log: services.practiceLog, progress: services.progress, settings: services.settings, metrics: metrics
    ).addRoutes(
        to: api.group("log"))
    ProgressController(progress: services.progress).addRoutes(to: api.group("progress"))
    BreathingPresetsController(breathing: services.breathing, settings: services.settings)
        .addRoutes(to: api.group("breathing/presets"))
    WorkoutProgramsController(workouts: services.workouts, settings: services.settings)
        .addRoutes(to: api.group("workouts/programs"))
    FocusTimersController(timers: services.focusTimers, now: dependencies.now).addRoutes(to: api.group("timers"))
    FocusEndSoundController(timers: services.focusTimers, now: dependencies.now, streams: streams)
        .addRoutes(to: api.group("timers"))
    MorseController(morse: services.morse, now: dependencies.now, makeID: dependencies.makeID, metrics: metrics)
        .addRoutes(to: api.group("morse"))
    RemindersController(reminders: services.reminders, settings: services.settings)
        .addRoutes(feed: router.group().add(middleware: feed), api: api)
    AudioController(services: services, configuration: configuration, rendering: dependencies.rendering)
        .addRoutes(to: api)
    SyncController(sync: services.sync).addRoutes(to: api)
    DeviceController().addRoutes(to: api)
    LibraryController(library: services.library, settings: services.settings, metrics: metrics)
        .addRoutes(to: api.group("library"))
    BackupController(
        services: services, dataDirectory: configuration.dataDirectory, now: dependencies.now,
        makeID: dependencies.makeID, timeZone: dependencies.timeZone
    ).addRoutes(to: api)
    routes.register(router.routes.map { (path: $0.path, method: $0.method.rawValue) })
    return router
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
