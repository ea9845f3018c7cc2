import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import MomentumCore
import MomentumServices

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
        self.liveFeed = LiveFeed(database: services.database)
    }
}

/// The server for `configuration`: the router with every controller, listening where configured.
/// `onRunning` is called once it listens, with the port it got. `runService()` runs it until
/// SIGTERM or SIGINT, then lets requests in flight finish.
public func buildApplication(
    configuration: ServerConfiguration, dependencies: ServerDependencies,
    onRunning: @escaping @Sendable (_ port: Int?) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        router: buildRouter(configuration: configuration, dependencies: dependencies),
        server: .http1WebSocketUpgrade(
            webSocketRouter: buildLiveRouter(configuration: configuration, dependencies: dependencies)),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        onServerRunning: { channel in await onRunning(channel.localAddress?.port) },
        logger: dependencies.logger
    )
}

/// Every route, behind the shared middleware: metrics, security headers, JSON errors, path
/// checks, (off loopback) access tokens, the body limit and the UI's static files.
public func buildRouter(
    configuration: ServerConfiguration, dependencies: ServerDependencies
) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    let routes = RouteTable()
    let metrics = ServerMetrics()
    router.addMiddleware {
        // Every request at debug level (MOMENTUM_LOG_LEVEL=debug), without its headers: they may hold tokens.
        LogRequestsMiddleware(.debug)
        MetricsMiddleware(metrics: metrics)
        SecurityHeadersMiddleware()
        ErrorMiddleware(routes: routes)
        PathSafetyMiddleware()
        AccessTokenMiddleware(tokens: dependencies.services.accessTokens, isRequired: !configuration.isLoopback)
        BodyLimitMiddleware(limit: configuration.bodyLimit, streamedPaths: [LibraryController.uploadPath])
        StaticFilesMiddleware(folder: configuration.publicDirectory)
    }
    let services = dependencies.services
    SystemController(version: dependencies.version, metrics: metrics).addRoutes(to: router)
    LoginController(tokens: services.accessTokens, isRequired: !configuration.isLoopback).addRoutes(to: router)
    let api = router.group("api/v1")
    CatalogController(settings: services.settings).addRoutes(to: api)
    SettingsController(settings: services.settings).addRoutes(to: api)
    TimelineController(breathing: services.breathing).addRoutes(to: api)
    RunsController(
        registry: RunRegistry(), services: services, now: dependencies.now, makeID: dependencies.makeID,
        metrics: metrics
    ).addRoutes(to: api.group("runs"))
    LogController(log: services.practiceLog, metrics: metrics).addRoutes(to: api.group("log"))
    ProgressController(progress: services.progress).addRoutes(to: api.group("progress"))
    BreathingPresetsController(breathing: services.breathing, settings: services.settings)
        .addRoutes(to: api.group("breathing/presets"))
    WorkoutProgramsController(workouts: services.workouts, settings: services.settings)
        .addRoutes(to: api.group("workouts/programs"))
    FocusTimersController(timers: services.focusTimers, now: dependencies.now).addRoutes(to: api.group("timers"))
    MorseController(morse: services.morse, now: dependencies.now, makeID: dependencies.makeID, metrics: metrics)
        .addRoutes(to: api.group("morse"))
    RemindersController(reminders: services.reminders, settings: services.settings).addRoutes(to: router, api: api)
    AudioController(services: services, configuration: configuration, rendering: dependencies.rendering)
        .addRoutes(to: api)
    SyncController(database: services.database, now: dependencies.now).addRoutes(to: api)
    LibraryController(library: services.library, settings: services.settings, metrics: metrics)
        .addRoutes(to: api.group("library"))
    routes.register(router.routes.map { (path: $0.path, method: $0.method.rawValue) })
    return router
}
