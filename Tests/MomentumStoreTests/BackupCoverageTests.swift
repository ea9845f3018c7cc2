import Foundation
import MomentumCore
import MomentumTestSupport
import Testing

@testable import MomentumStore

@Suite("Backups cover every table")
struct BackupCoverageTests {
    /// A table added by a later migration must be named either as a kind of backup or as the
    /// machine's own; otherwise backups would silently leave it out.
    @Test func everyTableIsBackedUpOrTheMachinesOwn() throws {
        let directory = try TemporaryDirectory()
        let database = try MomentumDatabase.open(directory: directory.url)
        let backedUp = Set(BackupKind.allCases.map(\.table))
        let tables = Set(try database.tableNames())
        #expect(tables.subtracting(backedUp).subtracting(MomentumDatabase.machineTables).isEmpty)
        #expect(backedUp.isSubset(of: tables))
        #expect(backedUp.isDisjoint(with: MomentumDatabase.machineTables))
    }

    @Test func anEmptyDatabaseBacksUpEveryKindAsAnEmptyList() throws {
        let directory = try TemporaryDirectory()
        let database = try MomentumDatabase.open(directory: directory.url)
        let rows = try database.backupRows()
        #expect(Set(rows.keys) == Set(BackupKind.allCases.map(\.rawValue)))
        let empty = rows.values.allSatisfy { $0.isEmpty }
        #expect(empty)
    }
}
