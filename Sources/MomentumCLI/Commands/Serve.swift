import ArgumentParser
import Foundation
import Hummingbird
import Logging
import MomentumCore
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

    @Flag(
        name: .customLong("require-token"),
        help: "Ask for a token even on this machine's address (for a reverse proxy on the same machine).")
    var requireToken = false

    @Option(
        name: .customLong("render-cache-mb"),
        help: ArgumentHelp("Most MiB of rendered audio kept for reuse, 0–100000 (default: 500).", valueName: "MiB"))
    var renderCacheMB: String?

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
            let configuration = try self.configuration(
                environment: context.environment, dataDirectory: session.dataDirectory, catalog: session.catalog)
            // Off loopback, a server no one can sign in to yet starts anyway (pairing a phone needs
            // it running) and says how to let someone in.
            if configuration.requiresToken, try !session.services.accessTokens.hasActiveToken() {
                // On loopback only --require-token asks for one: no other machine reaches it.
                let notice: StringKey = configuration.isLoopback ? .serveNoWayInYetLoopback : .serveNoWayInYet
                context.output.write(session.catalog.format(notice, ["host": configuration.host]) + "\n")
            }
            var logger = Logger(label: "momentum.server")
            logger.logLevel = context.environment["MOMENTUM_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
            let output = context.output
            let catalog = session.catalog
            var dependencies = ServerDependencies(
                household: session.household, now: context.now, makeID: context.makeID, logger: logger,
                version: MomentumCommand.version)
            dependencies.timeZone = context.timeZone
            // PostgreSQL answers from another process: requests wait for it on threads of their own.
            if session.services.database == nil { dependencies.storeThreads = StoreThreads() }
            let application = buildApplication(configuration: configuration, dependencies: dependencies) { port in
                var shown = configuration
                shown.port = port ?? configuration.port
                output.write(Self.listening(shown, networkAddresses: Self.networkAddresses(), catalog: catalog) + "\n")
            }
            do {
                try await application.runService()
            } catch let error as IOError {
                throw Self.listenFailure(error, configuration: configuration, catalog: catalog) ?? error
            } catch is SocketAddressError {
                // A name this machine cannot resolve to an address of its own.
                throw CommandFailure(
                    catalog.format(
                        .errorServeCannotListen, ["host": configuration.host, "port": "\(configuration.port)"]))
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

    /// What the server says once it listens: the address to open — on every address of the
    /// machine (`0.0.0.0`, `::`), this machine's loopback address and one of `networkAddresses`
    /// (this machine's on its networks), never `http://0.0.0.0:…`, which a browser cannot open.
    static func listening(_ configuration: ServerConfiguration, networkAddresses: [String], catalog: StringCatalog)
        -> String
    {
        guard ListenHost.isEveryAddress(configuration.host) else {
            return catalog.format(.serveListening, ["address": configuration.address])
        }
        var here = configuration
        here.host = ServerConfiguration.defaultHost
        guard let network = networkAddresses.first else {
            return catalog.format(
                .serveListeningEverywhereNoNetwork, ["address": here.address, "port": "\(configuration.port)"])
        }
        var there = configuration
        there.host = network
        return catalog.format(.serveListeningEverywhere, ["address": here.address, "network": there.address])
    }

    /// This machine's IPv4 addresses on its networks (not loopback), in the system's order.
    static func networkAddresses() -> [String] {
        let devices = (try? System.enumerateDevices()) ?? []
        return devices.compactMap { device -> String? in
            guard let address = device.address, case .v4 = address, let text = address.ipAddress else { return nil }
            return text.hasPrefix("127.") || text.hasPrefix("169.254.") ? nil : text
        }
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
        var configuration = ServerConfiguration(
            host: listenHost, port: portNumber, dataDirectory: dataDirectory,
            publicDirectory: StaticFiles.locate(environment: environment), allowedHosts: allowedHosts)
        configuration.requiresTokenOnLoopback = requireToken
        if let renderCacheMB {
            guard let value = Int(renderCacheMB.trimmingCharacters(in: .whitespaces)), (0...100_000).contains(value)
            else { throw CommandFailure(catalog.format(.errorServeRenderCache, ["value": renderCacheMB])) }
            configuration.renderLimits.cacheBytes = Int64(value) << 20
        }
        return configuration
    }
}
