import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum sync`: this data directory is a full replica. It pushes the changes made here since
/// the last sync, pulls everyone else's, and works offline in between (docs/sync.md).
struct SyncCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync timers, the practice log and settings with a momentum serve.",
        discussion: """
            The first time, name the server: momentum sync --server http://192.168.1.20:8080 \
            --token SECRET (a token from momentum token create on the server; also \
            $MOMENTUM_SYNC_TOKEN). Later runs remember the server. Work done offline waits in the \
            outbox and is sent with the next sync. --status shows the server, this replica's node, \
            its cursor, pending changes and the last sync.
            """
    )

    @Option(help: ArgumentHelp("The server, e.g. http://192.168.1.20:8080 (remembered).", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("An access token of the server (or $MOMENTUM_SYNC_TOKEN).", valueName: "token"))
    var token: String?

    @Flag(help: "Show where this replica stands instead of syncing.")
    var status = false

    @Flag(help: "With --status: as JSON.")
    var json = false

    @OptionGroup var common: CommonOptions

    func run(in context: CommandContext) async throws {
        try await context.withSession(common) { session in
            let catalog = session.catalog
            let sync = session.services.sync
            if status {
                let current = try sync.status()
                context.output.write(
                    json ? try Self.json(current) : Self.text(current, catalog: catalog, timeZone: context.timeZone))
                return
            }
            let remembered = try sync.status().serverURL
            guard let server = server ?? remembered else {
                throw CommandFailure(catalog[.syncNoServer])
            }
            let token = token ?? context.environment["MOMENTUM_SYNC_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            let transport = try HTTPSyncTransport(server: server, token: token, language: catalog.language)
            let report = try await sync.sync(server: server, transport: transport)
            if report.fullSync { context.errors.write(catalog[.syncFullSync] + "\n") }
            if !report.farAhead.isEmpty {
                context.errors.write(catalog.format(.syncFarAhead, ["count": "\(report.farAhead.count)"]) + "\n")
            }
            context.output.write(
                catalog.format(
                    .syncDone, ["server": server, "pushed": "\(report.pushed)", "pulled": "\(report.pulled)"]) + "\n")
        }
    }

    static func text(_ status: SyncStatus, catalog: StringCatalog, timeZone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        let rows = [
            [catalog[.syncStatusServer], status.serverURL ?? catalog[.syncStatusNone]],
            [catalog[.syncStatusNode], status.node ?? catalog[.syncStatusNone]],
            [catalog[.syncStatusCursor], "\(status.cursor)"],
            [catalog[.syncStatusPending], "\(status.pending)"],
            [catalog[.syncStatusLastSync], status.lastSyncAt.map(formatter.string) ?? catalog[.syncStatusNever]],
        ]
        return TextTable.render(rows)
    }

    struct StatusJSON: Encodable {
        var server: String?
        var node: String?
        var cursor: Int64
        var pending: Int
        var lastSync: String?
    }

    static func json(_ status: SyncStatus) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let value = StatusJSON(
            server: status.serverURL, node: status.node, cursor: status.cursor, pending: status.pending,
            lastSync: status.lastSyncAt.map { ISO8601DateFormatter().string(from: $0) })
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}
