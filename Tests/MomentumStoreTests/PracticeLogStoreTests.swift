import Foundation
import GRDB
import MomentumCore
import MomentumTestSupport
import Testing

@testable import MomentumStore

/// What the records and settings do through the repository protocols runs on both stores in
/// `MomentumServicesTests/LogRepositoryTests`; this is what only SQLite has.
@Suite("Database: the practice log's schema")
struct PracticeLogStoreTests {
    let directory: TemporaryDirectory
    let database: MomentumDatabase

    init() throws {
        directory = try TemporaryDirectory()
        database = try MomentumDatabase.open(directory: directory.url)
    }

    @Test func theSchemaRejectsRowsTheCoreWouldNot() throws {
        #expect(throws: DatabaseError.self) {
            try database.writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO practiceRecord (id, kind, startMs, endMs, countedSeconds, device, createdAtMs, updatedAtMs)
                        VALUES ('x', 'napping', 0, 1, 1, 'd', 0, 0)
                        """)
            }
        }
        #expect(throws: DatabaseError.self) {
            try database.writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO practiceRecord (id, kind, startMs, endMs, countedSeconds, device, createdAtMs, updatedAtMs)
                        VALUES ('y', 'meditation', 10, 1, 1, 'd', 0, 0)
                        """)
            }
        }
        #expect(try database.practiceRecords().isEmpty)
    }
}
