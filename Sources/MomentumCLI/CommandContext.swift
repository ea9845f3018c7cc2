import ArgumentParser
import Foundation
import MomentumComposition
import MomentumCore
import MomentumPostgres
import MomentumServices
import MomentumStore
import MomentumStoreContract

/// Everything a command touches outside itself: environment, output, clocks, ids, keyboard and
/// sound. The live context uses the real ones; tests pass their own.
public struct CommandContext: Sendable {
    public var environment: [String: String]
    public var homeDirectory: String
    public var output: any TextOutput
    public var errors: any TextOutput
    /// Whether standard output is a terminal (live redrawing, bell, colours).
    public var isInteractive: Bool
    public var now: @Sendable () -> Date
    public var makeID: @Sendable () -> UUID
    public var timeZone: TimeZone
    public var device: String
    /// Creates the keyboard-and-clock source when a player starts.
    public var makeEvents: @Sendable () -> any PlayerEventSource
    /// The cue player for a data directory, or `nil` to detect the system's.
    public var makeCuePlayer: (@Sendable (URL) -> any CuePlayer)?
    /// The ambient player for a bed and its volume, or `nil` to detect the system's.
    public var makeAmbientPlayer: (@Sendable (AmbientGenerator, Double) -> any AmbientPlayer)?
    /// The rows of the terminal standard output goes to, when it is one and says (`log` lists a
    /// screenful by default).
    public var terminalRows: Int?
    /// Whether standard error is a terminal (progress bars of long renders).
    public var errorsAreInteractive = false
    /// The Morse player for a tone and data directory, or `nil` to detect the system's.
    public var makeMorsePlayer: (@Sendable (MorseTone, URL) -> any MorseSoundPlayer)?
    /// One line typed in answer to a question (`user remove` asks before it removes); `nil` at
    /// the end of input.
    public var readAnswer: @Sendable () -> String? = { readLine(strippingNewline: true) }
    /// Asks a server's `/health` (`momentum doctor`); tests answer as a proxy would.
    public var askHealth: @Sendable (URL) async -> Result<HealthAnswer, HealthUnreachable> = {
        await CommandContext.liveHealth($0)
    }
    /// Set when the system's audio player failed during this command (no audio device, say):
    /// the cues rang the bell instead, and the ending says so once (issue 38).
    let soundFailure = FailureFlag()

    public init(
        environment: [String: String],
        homeDirectory: String,
        output: any TextOutput,
        errors: any TextOutput,
        isInteractive: Bool,
        now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID,
        timeZone: TimeZone,
        device: String,
        makeEvents: @escaping @Sendable () -> any PlayerEventSource,
        makeCuePlayer: (@Sendable (URL) -> any CuePlayer)? = nil,
        makeAmbientPlayer: (@Sendable (AmbientGenerator, Double) -> any AmbientPlayer)? = nil
    ) {
        self.environment = environment
        self.homeDirectory = homeDirectory
        self.output = output
        self.errors = errors
        self.isInteractive = isInteractive
        self.now = now
        self.makeID = makeID
        self.timeZone = timeZone
        self.device = device
        self.makeEvents = makeEvents
        self.makeCuePlayer = makeCuePlayer
        self.makeAmbientPlayer = makeAmbientPlayer
    }

    /// The real terminal, clock, keyboard and system.
    public static func live() -> CommandContext {
        let process = ProcessInfo.processInfo
        var context = CommandContext(
            environment: process.environment,
            homeDirectory: NSHomeDirectory(),
            output: FileDescriptorOutput.standardOutput,
            errors: FileDescriptorOutput.standardError,
            isInteractive: FileDescriptorOutput.standardOutput.isTerminal,
            now: { Date() },
            makeID: { UUID() },
            timeZone: .current,
            device: "terminal@\(process.hostName)",
            makeEvents: { KeyboardEventSource() }
        )
        context.errorsAreInteractive = FileDescriptorOutput.standardError.isTerminal
        context.terminalRows = FileDescriptorOutput.standardOutput.terminalRows
        return context
    }

    /// Writes `text`, through the person's pager (``Pager``) when standard output is a terminal
    /// and the text is taller than it.
    func writeLong(_ text: String) {
        let lines = text.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }
        if isInteractive, lines >= terminalRows ?? 24, let command = Pager.command(environment: environment),
            Pager.show(text, command: command, environment: environment)
        {
            return
        }
        output.write(text)
    }

    /// What a command that touches data begins with: the services on the chosen data directory,
    /// the stored settings, and the catalog of the person's language.
    struct Session {
        var household: HouseholdService
        /// Whom the command acts as: `--user`, `$MOMENTUM_USER`, or the household's founder.
        var person: Person
        var services: MomentumServices
        var dataDirectory: URL
        var settings: MomentumSettings
        var catalog: StringCatalog
    }

    /// Runs `body` with an open session; its errors are reported in the person's language.
    func withSession(
        _ common: CommonOptions, librarySizeLimit: Int64 = LibraryService.defaultSizeLimit,
        _ body: (Session) async throws -> Void
    ) async throws {
        let session = try await openSession(common, librarySizeLimit: librarySizeLimit)
        do {
            try await body(session)
        } catch let exit as ExitCode {
            // Already reported by the command itself.
            throw exit
        } catch {
            throw await LocalizedFailure(
                underlying: error, catalog: session.catalog, hint: DidYouMean.hint(for: error, session: session))
        }
    }

    /// Opens the data directory chosen by `--data` or the environment and reads the settings.
    func openSession(_ common: CommonOptions, librarySizeLimit: Int64 = LibraryService.defaultSizeLimit) async throws
        -> Session
    {
        let languageOption = try common.language()
        let directory = try DataDirectory.resolve(
            explicit: common.data, environment: environment, homeDirectory: homeDirectory)
        let household = try await openHousehold(
            common, dataDirectory: directory, librarySizeLimit: librarySizeLimit,
            catalog: .shared(for: languageOption ?? Language.preferred(in: environment)))
        let person: Person
        do {
            person = try await household.person(named: common.user ?? environment["MOMENTUM_USER"].flatMap(\.nonEmpty))
        } catch {
            let catalog = StringCatalog.shared(for: languageOption ?? Language.preferred(in: environment))
            throw LocalizedFailure(underlying: error, catalog: catalog, hint: nil)
        }
        let services = try await household.services(for: person)
        let settings = try await services.settings.load()
        let language = languageOption ?? settings.language ?? Language.preferred(in: environment)
        return Session(
            household: household, person: person, services: services, dataDirectory: directory, settings: settings,
            catalog: .shared(for: language))
    }
}

extension CommandContext {
    /// The household: on PostgreSQL when `--database` or `$MOMENTUM_DATABASE_URL` names one
    /// (docs/postgres.md), else in the data directory's SQLite databases.
    func openHousehold(
        _ common: CommonOptions, dataDirectory: URL, librarySizeLimit: Int64, catalog: StringCatalog
    ) async throws -> HouseholdService {
        guard let url = common.database ?? environment["MOMENTUM_DATABASE_URL"].flatMap(\.nonEmpty) else {
            return try await HouseholdService.open(
                dataDirectory: dataDirectory, device: device, login: environment["USER"], timeZone: timeZone, now: now,
                makeID: makeID, librarySizeLimit: librarySizeLimit)
        }
        let location: PostgresLocation
        do {
            location = try PostgresLocation(url: url)
            try location.checkTLS()
        } catch {
            // Never the address itself: it may carry a password.
            switch error {
            case .badPort: throw CommandFailure(catalog[.errorDatabasePort])
            case .badTLSOption: throw CommandFailure(catalog[.errorDatabaseTls])
            case .tlsUnavailable: throw CommandFailure(catalog[.errorDatabaseTlsUnavailable])
            case .unreadableRootCertificate(let path):
                throw CommandFailure(catalog.format(.errorDatabaseRootCertificate, ["path": path]))
            case .notAPostgresURL, .badSchemaName: throw CommandFailure(catalog[.errorDatabaseUrl])
            }
        }
        let opened: Result<PostgresStore, StoreError>
        do throws(StoreError) {
            opened = .success(try await PostgresStore.open(location, device: device))
        } catch {
            opened = .failure(error)
        }
        // The driver's words name sockets and SQLSTATEs; the address (without its password) is
        // what a person can check.
        if case .failure(.database) = opened {
            throw CommandFailure(
                catalog.format(.errorDatabaseUnreachable, ["address": location.description]), status: .unavailable)
        }
        let store = try opened.get()
        return try await HouseholdService.open(
            postgres: store, dataDirectory: dataDirectory, device: device, login: environment["USER"],
            timeZone: timeZone, now: now, makeID: makeID, librarySizeLimit: librarySizeLimit)
    }
}

extension String {
    /// `nil` for an empty string: an empty environment variable counts as unset.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
