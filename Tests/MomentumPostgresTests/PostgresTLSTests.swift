import Foundation
import MomentumStoreContract
import MomentumStoreTestSupport
import Testing

@testable import MomentumPostgres

/// TLS to PostgreSQL: `sslmode` and `sslrootcert` in the address (libpq's names), read strictly,
/// and — against the test cluster, whose certificate a root of its own signed
/// (scripts/postgres-cluster.sh) — connections that are encrypted, checked, or refused.
@Suite("PostgreSQL over TLS: sslmode and sslrootcert")
struct PostgresTLSTests {
    static let base = "postgres://momentum@db.example/momentum"

    @Test func theAddressSaysHowTheConnectionIsEncrypted() throws {
        #expect(try PostgresLocation(url: Self.base).tls == .disable)
        #expect(try PostgresLocation(url: Self.base + "?sslmode=disable").tls == .disable)
        #expect(try PostgresLocation(url: Self.base + "?sslmode=prefer").tls == .prefer)
        #expect(try PostgresLocation(url: Self.base + "?sslmode=require").tls == .require)
        // A root with `require` checks the certificate, as libpq does.
        #expect(
            try PostgresLocation(url: Self.base + "?sslmode=require&sslrootcert=/etc/ca.pem").tls
                == .verifyCA(rootCertificate: "/etc/ca.pem"))
        #expect(
            try PostgresLocation(url: Self.base + "?sslmode=verify-ca&sslrootcert=/etc/ca.pem").tls
                == .verifyCA(rootCertificate: "/etc/ca.pem"))
        #expect(try PostgresLocation(url: Self.base + "?sslmode=verify-full").tls == .verifyFull(rootCertificate: nil))
        let full = try PostgresLocation(url: Self.base + "?sslrootcert=%2Fsrv%2Fmy%20ca.pem&sslmode=verify-full")
        #expect(full.tls == .verifyFull(rootCertificate: "/srv/my ca.pem"))
        #expect(
            full.description
                == "postgres://momentum@db.example:5432/momentum?sslmode=verify-full&sslrootcert=/srv/my ca.pem")
    }

    @Test(arguments: [
        "?sslmode=allow", "?sslmode=VERIFY-FULL", "?sslmode=", "?sslmode", "?sslmode=verify-ca",
        "?sslrootcert=/etc/ca.pem", "?sslmode=require&sslmode=disable", "?sslmode=verify-full&sslrootcert=",
        "?application_name=x", "?sslmode=require&connect_timeout=3", "?", "?&",
    ])
    func anOptionTheStoreDoesNotTakeIsRefused(query: String) {
        #expect(throws: PostgresLocationError.badTLSOption) { try PostgresLocation(url: Self.base + query) }
    }

    @Test func aRootCertificateThatCannotBeReadIsNamedBeforeAnythingConnects() async throws {
        let missing = try PostgresLocation(url: Self.base + "?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem")
        #expect(throws: PostgresLocationError.unreadableRootCertificate(path: "/nonexistent/ca.pem")) {
            try missing.checkTLS()
        }
        let notPEM = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-root-\(UUID()).pem")
        try Data("not a certificate\n".utf8).write(to: notPEM)
        defer { try? FileManager.default.removeItem(at: notPEM) }
        let garbled = try PostgresLocation(url: Self.base + "?sslmode=verify-ca&sslrootcert=\(notPEM.path)")
        #expect(throws: PostgresLocationError.unreadableRootCertificate(path: notPEM.path)) { try garbled.checkTLS() }
        await #expect(throws: StoreError.self) { try await PostgresStore.open(garbled) }
    }

    // MARK: Against the test cluster

    /// The test cluster's TLS folder (`MOMENTUM_TEST_POSTGRES_TLS`, set by .ci/run).
    static var tlsFolder: String? {
        ProcessInfo.processInfo.environment["MOMENTUM_TEST_POSTGRES_TLS"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The test cluster's address with `host` and `query` in place of its own.
    static func location(host: String = "localhost", _ query: String) throws -> PostgresLocation {
        var location = try StoreUnderTest.location()
        location.host = host
        let url = "postgres://\(location.user)@\(location.host):\(location.port)/\(location.database)\(query)"
        return try PostgresLocation(url: url)
    }

    /// Whether the store's connection is encrypted, as the server sees it.
    static func isEncrypted(_ location: PostgresLocation, schema: String) async throws -> Bool {
        let store = try await PostgresStore.open(location, schema: schema, poolSize: 1)
        defer { store.close() }
        return try await store.read { session throws(StoreError) -> Bool in
            let rows = try await session.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
            return try rows.first?.columns(Bool.self) ?? false
        }
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil && tlsFolder != nil))
    func connectionsAreEncryptedCheckedOrRefusedAsTheAddressSays() async throws {
        let tests = try await StoreUnderTest(.postgres)
        let schema = try #require(tests.schema)
        let folder = try #require(Self.tlsFolder)
        let (root, other) = ("\(folder)/root.crt", "\(folder)/other-root.crt")

        await #expect(try !Self.isEncrypted(try Self.location(""), schema: schema))
        await #expect(try Self.isEncrypted(try Self.location("?sslmode=prefer"), schema: schema))
        await #expect(try Self.isEncrypted(try Self.location("?sslmode=require"), schema: schema))
        await #expect(try Self.isEncrypted(try Self.location("?sslmode=verify-ca&sslrootcert=\(root)"), schema: schema))
        await #expect(
            try Self.isEncrypted(try Self.location("?sslmode=verify-full&sslrootcert=\(root)"), schema: schema))
        // The same server by an address the certificate does not name (it names `localhost`):
        // verify-ca connects, verify-full compares the name and refuses.
        let unnamed = "127.0.0.1"
        await #expect(
            try Self.isEncrypted(
                try Self.location(host: unnamed, "?sslmode=verify-ca&sslrootcert=\(root)"), schema: schema))

        // A root that signed nothing here, a name the certificate does not have, or no root this
        // system trusts: refused before anything is read or written.
        for refused in [
            try Self.location("?sslmode=verify-ca&sslrootcert=\(other)"),
            try Self.location("?sslmode=verify-full&sslrootcert=\(other)"),
            try Self.location(host: unnamed, "?sslmode=verify-full&sslrootcert=\(root)"),
            try Self.location("?sslmode=verify-full"),
        ] {
            await #expect(throws: StoreError.self, "\(refused)") {
                try await PostgresStore.open(refused, schema: schema)
            }
        }
    }
}
