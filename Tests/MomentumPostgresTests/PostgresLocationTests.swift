import MomentumPostgres
import Testing

@Suite("PostgreSQL: the database URL")
struct PostgresLocationTests {
    @Test func aFullURLIsRead() throws {
        let location = try PostgresLocation(url: "postgres://momentum:s%40cret@db.example:6543/momentum_prod")
        #expect(
            location
                == PostgresLocation(
                    host: "db.example", port: 6543, user: "momentum", password: "s@cret", database: "momentum_prod"))
        // The password never shows.
        #expect(location.description == "postgres://momentum:***@db.example:6543/momentum_prod")
    }

    @Test func thePortDefaultsAndPostgresqlIsTheSameScheme() throws {
        let location = try PostgresLocation(url: "postgresql://me@127.0.0.1/db")
        #expect(location == PostgresLocation(host: "127.0.0.1", port: 5432, user: "me", database: "db"))
        #expect(location.description == "postgres://me@127.0.0.1:5432/db")
    }

    @Test(arguments: [
        "", "momentum", "sqlite:///tmp/x.sqlite", "http://me@host/db", "postgres://host/db", "postgres://me@/db",
        "postgres://me@host", "postgres://me@host/", "postgres://me@host/db/more",
        "postgres://me@host/db#x", "postgres://me@host/d b", "postgres://me@host/db\n",
    ])
    func anythingElseIsRefused(url: String) {
        #expect(throws: PostgresLocationError.notAPostgresURL) { try PostgresLocation(url: url) }
    }

    @Test(arguments: ["postgres://me@host:0/db", "postgres://me@host:70000/db", "postgres://me@host:/db"])
    func aPortOutOfRangeIsRefused(url: String) {
        #expect(throws: PostgresLocationError.self) { try PostgresLocation(url: url) }
    }

    @Test func schemaNamesArePlainIdentifiers() {
        #expect(PostgresLocation.isSchemaName("test_0af3"))
        #expect(PostgresLocation.isSchemaName("_x"))
        for refused in ["", "Test", "1abc", "a-b", "a;DROP", "a b", String(repeating: "a", count: 64)] {
            #expect(!PostgresLocation.isSchemaName(refused))
        }
    }
}
