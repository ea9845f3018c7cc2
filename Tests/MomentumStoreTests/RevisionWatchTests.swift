import Foundation
import MomentumTestSupport
import Synchronization
import Testing

@testable import MomentumStore

@Suite("The store revision is kept while the database files stand still")
struct RevisionWatchTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.file("momentum.sqlite").path
        try Data("one".utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A `read` that counts its calls and answers the next revision each time.
    final class CountingReader: Sendable {
        let calls = Mutex(0)
        func read() -> Int64 {
            calls.withLock {
                $0 += 1
                return Int64($0)
            }
        }
        var count: Int { calls.withLock { $0 } }
    }

    @Test func settledFilesAreNotReadAgain() throws {
        let watch = RevisionWatch(databasePath: path, now: { Date().timeIntervalSince1970 + 3600 })
        let reader = CountingReader()
        #expect(try watch.revision { reader.read() } == 1)
        #expect(try watch.revision { reader.read() } == 1)
        #expect(reader.count == 1)
    }

    @Test func aChangedFileIsReadAgain() throws {
        let watch = RevisionWatch(databasePath: path, now: { Date().timeIntervalSince1970 + 3600 })
        let reader = CountingReader()
        _ = try watch.revision { reader.read() }
        try Data("two, longer".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try watch.revision { reader.read() } == 2)
        try Data("wal".utf8).write(to: URL(fileURLWithPath: path + "-wal"))
        #expect(try watch.revision { reader.read() } == 3)
        try FileManager.default.removeItem(atPath: path + "-wal")
        #expect(try watch.revision { reader.read() } == 4)
        #expect(try watch.revision { reader.read() } == 4)
    }

    /// A file changed within the racy window might change again in the same clock tick without its
    /// stamps moving, so it is read every time until it has settled.
    @Test func recentlyChangedFilesAreAlwaysRead() throws {
        let watch = RevisionWatch(databasePath: path)
        let reader = CountingReader()
        _ = try watch.revision { reader.read() }
        _ = try watch.revision { reader.read() }
        _ = try watch.revision { reader.read() }
        #expect(reader.count == 3)
    }

    @Test func aWriteThroughAnotherConnectionMovesTheRevisionAtOnce() throws {
        let first = try MomentumDatabase.open(directory: directory.url.appendingPathComponent("data"))
        let second = try MomentumDatabase.open(directory: directory.url.appendingPathComponent("data"))
        let before = try first.logRevision()
        #expect(try first.logRevision() == before)
        try second.saveSettingValues(["goal.meditation": "30"], at: Date())
        #expect(try first.logRevision() > before)
    }

    /// The people: kept for a moment while the files move for other reasons (pushes), read again
    /// after it, and at once after this process changed them.
    @Test func aValueKeptForAMomentIsReadAgainAfterItOrWhenForgotten() throws {
        let clock = Mutex(Date().timeIntervalSince1970)
        let watch = StampedCache<Int64>(databasePath: path, rereadAfter: 0.25, now: { clock.withLock { $0 } })
        let reader = CountingReader()
        #expect(try watch.value { reader.read() } == 1)
        try Data("moved by a push".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try watch.value { reader.read() } == 1)
        clock.withLock { $0 += 0.3 }
        #expect(try watch.value { reader.read() } == 2)
        watch.forget()
        #expect(try watch.value { reader.read() } == 3)
    }

    @Test func everyChangeToThePeopleThroughThisDatabaseIsSeenAtOnce() throws {
        let database = try MomentumDatabase.open(directory: directory.url.appendingPathComponent("data"))
        _ = try database.ensureFounder(named: "Ada", at: Date())
        #expect(try database.people().map(\.name) == ["Ada"])
        let ben = try database.insertPerson(named: "Ben", role: .member, at: Date())
        #expect(try database.people().map(\.name) == ["Ada", "Ben"])
        try database.renamePerson(id: ben.id, to: "Benno")
        #expect(try database.people().map(\.name) == ["Ada", "Benno"])
        try database.setPersonRole(id: ben.id, .owner)
        #expect(try database.people().map(\.role) == [.owner, .owner])
        try database.setPersonPINHash(id: ben.id, String(repeating: "a", count: 64))
        #expect(try database.people().map(\.hasPIN) == [false, true])
        try database.deletePerson(id: ben.id)
        #expect(try database.people().map(\.name) == ["Ada"])
    }
}
