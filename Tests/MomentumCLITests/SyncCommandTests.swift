import Foundation
import Hummingbird
import Logging
import MomentumComposition
import MomentumCore
import MomentumServer
import MomentumServices
import MomentumTestSupport
import Synchronization
import Testing

@testable import MomentumCLI

/// A real `momentum serve` on a free loopback port, on its own data directory, with its clock
/// fixed at `wall`.
struct RunningSyncServer {
    let directory: TemporaryDirectory
    let services: MomentumServices
    let url: String
    private let task: Task<Void, any Error>

    static func start(wall: Date = Date(timeIntervalSince1970: 1_800_000_000)) async throws -> RunningSyncServer {
        let directory = try TemporaryDirectory()
        let household = try await HouseholdService.open(
            dataDirectory: directory.url, device: "server", timeZone: .gmt, now: { wall })
        let services = household.founder
        let (ports, port) = AsyncStream<Int?>.makeStream()
        var quiet = Logger(label: "sync-test-server")
        quiet.logLevel = .critical
        let application = buildApplication(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, dataDirectory: directory.url),
            dependencies: ServerDependencies(household: household, now: { wall }, logger: quiet, version: "test")
        ) { number in port.yield(number) }
        let task = Task { try await application.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        let number = try #require(await iterator.next() ?? nil)
        return RunningSyncServer(
            directory: directory, services: services, url: "http://127.0.0.1:\(number)", task: task)
    }

    /// Runs `body` with a started server, and stops the server after it.
    static func with(
        wall: Date = Date(timeIntervalSince1970: 1_800_000_000), _ body: (RunningSyncServer) async throws -> Void
    ) async throws {
        let server = try await start(wall: wall)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}

@Suite("momentum sync: the terminal as a full replica of a running server")
struct SyncCommandTests {
    @Test func twoDataDirectoriesSyncThroughARunningServer() async throws {
        try await RunningSyncServer.with { server in try await twoDataDirectoriesSync(through: server) }
    }

    @Test func theServerRefusesInTheLanguageTheTransportAsksIn() async throws {
        try await RunningSyncServer.with { server in
            for language in Language.allCases {
                let transport = try HTTPSyncTransport(server: server.url, token: nil, language: language)
                await #expect(
                    throws: SyncClientError.refused(
                        status: 400, code: "invalid_page",
                        message: StringCatalog.shared(for: language)[.errorSyncOutOfStep])
                ) { try await transport.pull(after: -1, limit: 10) }
            }
        }
    }

    func twoDataDirectoriesSync(through server: RunningSyncServer) async throws {
        let laptop = try TestTerminal()
        let desktop = try TestTerminal()

        #expect(await laptop.run(["timer", "add", "Tea", "3m", "--item", "Kettle"]) == 0)
        #expect(await laptop.run(["settings", "set", "goal.workout", "30"]) == 0)
        let first = try TestTerminal(sharing: laptop)
        #expect(await first.run(["sync", "--server", server.url]) == 0, "\(first.errors.text)")
        #expect(first.output.text.hasPrefix("Synced with \(server.url): sent "))

        let pulled = try TestTerminal(sharing: desktop)
        #expect(await pulled.run(["sync", "--server", server.url]) == 0, "\(pulled.errors.text)")
        let listing = try TestTerminal(sharing: desktop)
        #expect(await listing.run(["timer", "show", "Tea"]) == 0)
        #expect(listing.output.text.contains("Kettle"))
        let goal = try TestTerminal(sharing: desktop)
        #expect(await goal.run(["settings", "--json"]) == 0)
        let settings = try #require(
            try JSONSerialization.jsonObject(with: Data(goal.output.text.utf8)) as? [String: Any])
        #expect(settings["goal.workout"] as? String == "30")

        // The desktop ticks the item offline; the next two syncs bring it to the laptop.
        #expect(await desktop.run(["timer", "check", "Tea", "Kettle"]) == 0)
        let status = try TestTerminal(sharing: desktop)
        #expect(await status.run(["sync", "--status", "--json"]) == 0)
        let pending = try #require(
            try JSONSerialization.jsonObject(with: Data(status.output.text.utf8)) as? [String: Any])
        #expect(pending["pending"] as? Int == 1)
        #expect(pending["server"] as? String == server.url)
        #expect(await desktop.run(["sync"]) == 0)
        #expect(await laptop.run(["sync"]) == 0)
        let ticked = try TestTerminal(sharing: laptop)
        #expect(await ticked.run(["timer", "show", "Tea"]) == 0)
        #expect(ticked.output.text.contains("[x] 1. Kettle"), "\(ticked.output.text)")

        let after = try TestTerminal(sharing: laptop)
        #expect(await after.run(["sync", "--status"]) == 0)
        #expect(after.output.text.contains("Changes waiting to be sent  0"), "\(after.output.text)")
        #expect(after.output.text.contains(server.url))
    }

    @Test func aTimerEditedOnOneDeviceAndDeletedOnTheOtherStaysDeletedEverywhere() async throws {
        for deleterFirst in [true, false] {
            try await RunningSyncServer.with { server in
                try await editAndDelete(through: server, deleterFirst: deleterFirst)
            }
        }
    }

    func editAndDelete(through server: RunningSyncServer, deleterFirst: Bool) async throws {
        do {
            let editor = try TestTerminal()
            let deleter = try TestTerminal()
            #expect(await editor.run(["timer", "add", "Reading", "10", "--item", "Lamp"]) == 0)
            #expect(await editor.run(["sync", "--server", server.url]) == 0)
            #expect(await deleter.run(["sync", "--server", server.url]) == 0)
            // Both offline: one renames and ticks, the other deletes.
            #expect(await editor.run(["timer", "edit", "Reading", "--name", "Reading later"]) == 0)
            #expect(await editor.run(["timer", "check", "Reading later", "Lamp"]) == 0)
            #expect(await deleter.run(["timer", "delete", "Reading"]) == 0)
            for terminal in deleterFirst ? [deleter, editor, deleter] : [editor, deleter, editor] {
                #expect(await terminal.run(["sync"]) == 0)
            }
            for terminal in [editor, deleter] {
                let listing = try TestTerminal(sharing: terminal)
                #expect(await listing.run(["timer", "list"]) == 0)
                #expect(!listing.output.text.contains("Reading"), "\(listing.output.text)")
            }
            await #expect(try server.services.focusTimers.timers().isEmpty)
        }
    }

    @Test func stampsFarAheadOfThisClockAreAppliedWithAWarning() async throws {
        try await RunningSyncServer.with(wall: Date(timeIntervalSince1970: 1_800_000_000 + 600)) { server in
            try await farAheadStampsAreApplied(from: server)
        }
    }

    func farAheadStampsAreApplied(from server: RunningSyncServer) async throws {
        try await server.services.focusTimers.addTimer(name: "From the future")
        let terminal = try TestTerminal()
        #expect(await terminal.run(["sync", "--server", server.url]) == 0)
        #expect(terminal.errors.text.contains("more than 5 minutes ahead of this computer's clock"))
        let listing = try TestTerminal(sharing: terminal)
        #expect(await listing.run(["timer", "list"]) == 0)
        #expect(listing.output.text.contains("From the future"))
    }

    @Test func anUnreachableServerKeepsTheChangesQueued() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["timer", "add", "Tea", "3m"]) == 0)
        #expect(await terminal.run(["sync", "--server", "http://127.0.0.1:1"]) != 0)
        #expect(terminal.errors.text.hasPrefix("momentum: Cannot reach http://127.0.0.1:1"), "\(terminal.errors.text)")
        let status = try TestTerminal(sharing: terminal)
        #expect(await status.run(["sync", "--status", "--json"]) == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.output.text.utf8)) as? [String: Any])
        #expect((json["pending"] as? Int ?? 0) > 0)
    }

    @Test func badServerAddressesAndAMissingServerAreRefused() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["sync"]) != 0)
        #expect(terminal.errors.text == "momentum: No server yet: run momentum sync --server URL.\n")
        let bad = try TestTerminal(sharing: terminal)
        #expect(await bad.run(["sync", "--server", "ftp://example"]) != 0)
        #expect(bad.errors.text.hasPrefix("momentum: Not a server address: ftp://example."))
    }
}
