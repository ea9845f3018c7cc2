import ArgumentParser
import Foundation
import Hummingbird
import Logging
import MomentumCore
import MomentumPostgres
import MomentumServer
import MomentumServices
import NIOCore

/// `momentum serve`: the web app and its API on this machine (or, with a token, the network).
struct Serve: ContextualCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the web app: open the printed address in a browser.",
        discussion: """
            Listens on 127.0.0.1:8080 unless told otherwise (also $MOMENTUM_HOST and $MOMENTUM_PORT). \
            Uploads to the library may be up to 500 MiB unless --max-upload-mb \
            (or $MOMENTUM_MAX_UPLOAD_MB) says otherwise. \
            Any other host than this machine needs an access token first (momentum token create). \
            Requests must call the server by an address, localhost or a name given with --allowed-host; \
            writes from other web pages are refused (see docs/security.md). \
            Ctrl-C or SIGTERM stops it after the requests in flight. \
            With --database postgres://… (or $MOMENTUM_DATABASE_URL) any number of servers share one \
            PostgreSQL database behind a load balancer (docs/deploy.md).
            """
    )

    @Option(
        help: ArgumentHelp(
            "Address to listen on: 127.0.0.1 (the default), ::1 or [::1], 0.0.0.0 for every address, or a host name.",
            valueName: "host"))
    var host: String?

    @Option(help: ArgumentHelp("Port to listen on, 1–65535 (default: 8080).", valueName: "port"))
    var port: String?

    @Option(
        name: .customLong("max-upload-mb"),
        help: ArgumentHelp(
            "Largest guided meditation the browser may upload, in MiB, 1–100000 (default: 500).", valueName: "MiB"))
    var maxUploadMB: String?

    @Option(
        name: .customLong("allowed-host"),
        help: ArgumentHelp(
            "Another name requests may call the server by, e.g. the one a reverse proxy passes on "
                + "(repeatable; this machine's addresses and localhost are always allowed).", valueName: "name"))
    var allowedHosts: [String] = []

    @Option(
        name: .customLong("push-allow"),
        help: ArgumentHelp(
            "A push service beyond the public ones that notifications may go to, as an origin such as "
                + "http://127.0.0.1:8181 (repeatable; also $MOMENTUM_PUSH_ALLOW, comma-separated).", valueName: "origin"
        ))
    var pushAllow: [String] = []

    @Option(
        name: .customLong("push-contact"),
        help: ArgumentHelp(
            "Who push services may contact about this server's notifications: a mailto: address or an https: "
                + "page (also $MOMENTUM_PUSH_CONTACT; Apple's push service may refuse pushes without one).",
            valueName: "uri"))
    var pushContact: String?

    @Flag(
        name: .customLong("require-token"),
        help: "Ask for a token even on this machine's address (for a reverse proxy on the same machine).")
    var requireToken = false

    @Option(
        name: .customLong("render-cache-mb"),
        help: ArgumentHelp("Most MiB of rendered audio kept for reuse, 0–100000 (default: 500).", valueName: "MiB"))
    var renderCacheMB: String?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "What to log: trace, debug, info (the default), notice, warning, error or critical "
                + "(also $MOMENTUM_LOG_LEVEL). Framework lines show from debug.", valueName: "level"))
    var logLevel: String?

    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp(
            "How to log: text (the default) or json, one object per line for the journal or a log collector "
                + "(also $MOMENTUM_LOG_FORMAT).", valueName: "format"))
    var logFormat: String?

    @OptionGroup var common: CommonOptions

    /// The most MiB `--max-upload-mb` (or `$MOMENTUM_MAX_UPLOAD_MB`) accepts.
    static let maximumUploadMB = 100_000

    func run(in context: CommandContext) async throws {
        let uploadText = [maxUploadMB, context.environment["MOMENTUM_MAX_UPLOAD_MB"]].compactMap { $0 }
            .first { !$0.isEmpty }
        let uploadMB = uploadText.map { Int($0.trimmingCharacters(in: .whitespaces)) }
        let sizeLimit = (uploadMB ?? nil).flatMap { (1...Self.maximumUploadMB).contains($0) ? Int64($0) << 20 : nil }
        // What a browser without a name changes is stamped "web@host" (shown as "a browser"), so
        // "changed by" tells it from the terminal; a named browser's requests carry its own name
        // (X-Momentum-Device, see DeviceNameMiddleware).
        var context = context
        context.device = "web@" + (context.device.split(separator: "@", maxSplits: 1).last.map(String.init) ?? "")
        try await context.withSession(common, librarySizeLimit: sizeLimit ?? LibraryService.defaultSizeLimit) {
            session in
            if let uploadText, sizeLimit == nil {
                throw CommandFailure(
                    session.catalog.format(
                        .errorServeMaxUpload, ["value": uploadText, "maximum": "\(Self.maximumUploadMB)"]))
            }
            if let wrong = allowedHosts.first(where: { !ServerConfiguration.isValidAllowedHost($0) }) {
                throw CommandFailure(session.catalog.format(.errorServeAllowedHost, ["value": wrong]))
            }
            var configured = try self.configuration(
                environment: context.environment, dataDirectory: session.dataDirectory, catalog: session.catalog)
            configured.machineName = PhoneAddresses.machineName()
            let configuration = configured
            let logging = try self.logging(environment: context.environment, catalog: session.catalog)
            // Off loopback, a server no one can sign in to yet starts anyway (pairing a phone needs
            // it running): once it listens, it shows the owner's pairing code, or says how to let
            // someone in.
            let nobodyYet =
                if configuration.requiresToken { try await !session.services.accessTokens.hasActiveToken() } else {
                    false
                }
            let owner = try await session.household.person(named: nil)
            let output = context.output
            let catalog = session.catalog
            let household = session.household
            let (isInteractive, timeZone) = (context.isInteractive, context.timeZone)
            let logger = logging.logger(label: "momentum.server")
            var dependencies = ServerDependencies(
                household: session.household, now: context.now, makeID: context.makeID,
                logger: logger, version: MomentumCommand.version)
            dependencies.timeZone = context.timeZone
            let application = buildApplication(configuration: configuration, dependencies: dependencies) {
                boundPort in
                let phone = configuration.phoneAddresses(
                    interfaceAddresses: PhoneAddresses.interfaceAddresses(), port: boundPort ?? configuration.port)
                var lines = Self.listening(phone, catalog: catalog)
                if nobodyYet {
                    var wayIn = [catalog.format(.serveNoWayInYet, ["host": configuration.host])]
                    do {
                        wayIn = try await Self.firstWayIn(phone, catalog: catalog) { base in
                            let pairing = try await household.startPairing(for: owner)
                            return [catalog.format(.servePairFirstPhone, ["name": owner.name]), ""]
                                + (try PairCommand.lines(
                                    pairing, base: base, isInteractive: isInteractive, timeZone: timeZone,
                                    catalog: catalog))
                                + [catalog[.servePairLater]]
                        }
                    } catch {
                        // The server runs on without a code: the notice says how to let someone in,
                        // the log why no code was made.
                        logger.error(
                            "the first phone's pairing code could not be made", metadata: ["error": "\(error)"])
                    }
                    lines += [""] + wayIn
                }
                output.write(lines.joined(separator: "\n") + "\n")
            }
            do {
                try await application.runService()
            } catch let error as IOError {
                throw Self.listenFailure(error, configuration: configuration, catalog: catalog) ?? error
            } catch let error where error is SocketAddressError || error is SocketAddressError.UnknownHost {
                // A name this machine cannot resolve to an address of its own (NIO throws the
                // `UnknownHost` struct from getaddrinfo, the enum from older paths).
                throw CommandFailure(
                    catalog.format(
                        .errorServeCannotListen, ["host": configuration.host, "port": "\(configuration.port)"]),
                    status: .unavailable)
            }
        }
    }

    /// A failure to listen in the person's words ("Port 8080 is in use; …"), not NIO's
    /// `bind(…) (errno: 98)`; `nil` for other I/O errors.
    static func listenFailure(_ error: IOError, configuration: ServerConfiguration, catalog: StringCatalog)
        -> CommandFailure?
    {
        switch error.errnoCode {
        case EADDRINUSE:
            CommandFailure(
                catalog.format(.errorServePortInUse, ["port": "\(configuration.port)"]), status: .unavailable)
        case EADDRNOTAVAIL, EACCES:
            CommandFailure(
                catalog.format(.errorServeCannotListen, ["host": configuration.host, "port": "\(configuration.port)"]),
                status: .unavailable)
        default: nil
        }
    }

    /// What the server says once it listens: the address to open here and, by ``PhoneAddresses``'
    /// rule, the ones a phone opens — never `http://0.0.0.0:…`, which a browser cannot open; on
    /// loopback, that a phone cannot reach it and how to change that.
    static func listening(_ phone: PhoneAddresses, catalog: StringCatalog) -> [String] {
        let here = PhoneAddresses.base(
            host: ListenHost.isEveryAddress(phone.listenHost) ? ServerConfiguration.defaultHost : phone.listenHost,
            port: phone.port)
        switch phone.reach {
        case .thisMachineOnly:
            return [catalog.format(.serveListening, ["address": here + "/"]), catalog[.servePhoneCannotReach]]
        case .noNetwork:
            return [
                catalog.format(.serveListeningEverywhereNoNetwork, ["address": here + "/", "port": "\(phone.port)"])
            ]
        case .network(let bases) where !ListenHost.isEveryAddress(phone.listenHost):
            return [catalog.format(.serveListening, ["address": (bases.first ?? here) + "/"])]
        case .network(let bases):
            return [catalog.format(.serveListeningEverywhere, ["address": here + "/"])] + bases.map { "  \($0)/" }
        }
    }

    /// The way in of a server no one can sign in to yet: the owner's pairing code at the first
    /// address a phone opens (`pairing`), else how to make one.
    static func firstWayIn(
        _ phone: PhoneAddresses, catalog: StringCatalog, pairing: (_ base: String) async throws -> [String]
    ) async rethrows -> [String] {
        switch phone.reach {
        case .network(let bases) where !bases.isEmpty: try await pairing(bases[0])
        case .thisMachineOnly:
            // On loopback only --require-token asks for a sign-in: no other machine reaches it.
            [catalog.format(.serveNoWayInYetLoopback, ["host": phone.listenHost])]
        default: [catalog.format(.serveNoWayInYet, ["host": phone.listenHost])]
        }
    }

    /// How to log: `--log-level` / `--log-format`, then `$MOMENTUM_LOG_LEVEL` / `$MOMENTUM_LOG_FORMAT`,
    /// then `info` as text; an unknown value is refused with the ones it takes.
    func logging(environment: [String: String], catalog: StringCatalog) throws -> ServerLogging {
        var logging = ServerLogging()
        if let text = [logLevel, environment["MOMENTUM_LOG_LEVEL"]].compactMap({ $0 }).first(where: { !$0.isEmpty }) {
            guard let level = Logger.Level(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw CommandFailure(catalog.format(.errorServeLogLevel, ["value": text]))
            }
            logging.level = level
        }
        if let text = [logFormat, environment["MOMENTUM_LOG_FORMAT"]].compactMap({ $0 }).first(where: { !$0.isEmpty }) {
            guard let format = ServerLogging.Format(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased())
            else { throw CommandFailure(catalog.format(.errorServeLogFormat, ["value": text])) }
            logging.format = format
        }
        return logging
    }

    /// Where to listen: options, then `$MOMENTUM_HOST` / `$MOMENTUM_PORT`, then the defaults. A
    /// bracketed IPv6 address (`[::1]`) loses its brackets and a name its trailing dot
    /// (`localhost.`); what is neither an address nor a name is refused before anything listens.
    func configuration(environment: [String: String], dataDirectory: URL, catalog: StringCatalog) throws
        -> ServerConfiguration
    {
        let hostText = [host, environment["MOMENTUM_HOST"]].compactMap { $0 }.first { !$0.isEmpty }
        var listenHost = ServerConfiguration.defaultHost
        if let hostText {
            guard let parsed = ListenHost.parse(hostText) else {
                throw CommandFailure(catalog.format(.errorServeHost, ["value": hostText]))
            }
            listenHost = parsed
        }
        let portText = [port, environment["MOMENTUM_PORT"]].compactMap { $0 }.first { !$0.isEmpty }
        var portNumber = ServerConfiguration.defaultPort
        if let portText {
            guard let value = Int(portText.trimmingCharacters(in: .whitespaces)), (1...65_535).contains(value) else {
                throw CommandFailure(catalog.format(.errorServePort, ["value": portText]))
            }
            portNumber = value
        }
        let publicDirectory: URL?
        do { publicDirectory = try StaticFiles.locate(environment: environment) } catch {
            throw CommandFailure(catalog.format(.errorServePublicDir, ["path": error.path]))
        }
        var configuration = ServerConfiguration(
            host: listenHost, port: portNumber, dataDirectory: dataDirectory,
            publicDirectory: publicDirectory, allowedHosts: allowedHosts)
        configuration.requiresTokenOnLoopback = requireToken
        configuration.pushOrigins = try Self.pushOrigins(pushAllow, environment: environment, catalog: catalog)
        configuration.pushContact = try Self.pushContact(pushContact, environment: environment, catalog: catalog)
        if let renderCacheMB {
            guard let value = Int(renderCacheMB.trimmingCharacters(in: .whitespaces)), (0...100_000).contains(value)
            else { throw CommandFailure(catalog.format(.errorServeRenderCache, ["value": renderCacheMB])) }
            configuration.renderLimits.cacheBytes = Int64(value) << 20
        }
        return configuration
    }

    /// The origins of `--push-allow` and `$MOMENTUM_PUSH_ALLOW` (comma-separated); the first that
    /// is not an origin is refused by name.
    static func pushOrigins(_ options: [String], environment: [String: String], catalog: StringCatalog) throws
        -> PushOrigins
    {
        let fromEnvironment = (environment["MOMENTUM_PUSH_ALLOW"] ?? "").split(separator: ",").map(String.init)
        let texts = (options + fromEnvironment).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for text in texts {
            do { _ = try PushOrigins([text]) } catch {
                throw CommandFailure(catalog.format(.errorServePushAllow, ["value": text]))
            }
        }
        do { return try PushOrigins(texts) } catch {
            throw CommandFailure(catalog.format(.errorServePushAllow, ["value": texts.joined(separator: ",")]))
        }
    }

    /// `--push-contact`, else `$MOMENTUM_PUSH_CONTACT`; `nil` when neither names one.
    static func pushContact(_ option: String?, environment: [String: String], catalog: StringCatalog) throws
        -> VAPIDContact?
    {
        guard let text = option ?? environment["MOMENTUM_PUSH_CONTACT"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            return nil
        }
        do { return try VAPIDContact(text) } catch {
            throw CommandFailure(catalog.format(.errorServePushContact, ["value": text]))
        }
    }
}
