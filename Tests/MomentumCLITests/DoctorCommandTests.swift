import Foundation
import GRDB
import MomentumCore
import MomentumServices
import MomentumStoreContract
import Testing

@testable import MomentumCLI

/// `momentum doctor` finds what a self-hoster gets wrong and says what to fix (issue 40): a
/// read-only data directory, a damaged database, one of a newer Momentum, a server that does not
/// answer, a proxy that does not pass `X-Forwarded-Proto` or the host name.
@Suite("momentum doctor")
struct DoctorCommandTests {
    /// A data directory with a database in it (a sit logged).
    func terminalWithData() async throws -> TestTerminal {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["log", "add", "--minutes", "10", "--start", "2027-01-15 07:30"]) == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: terminal.directory.url.path)
        return try TestTerminal(sharing: terminal)  // what doctor says, alone
    }

    func doctor(_ terminal: TestTerminal, _ arguments: [String] = [], health: HealthAnswer? = nil) async -> Int32 {
        await terminal.run(["doctor"] + arguments) { _ in health.map { .success($0) } ?? .failure(.refused) }
    }

    func findings(_ terminal: TestTerminal) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(terminal.output.text.utf8)) as? [String: Any]
        return try #require(object?["findings"] as? [[String: Any]])
    }

    static func execute(_ sql: String, in file: URL) throws {
        let queue = try DatabaseQueue(path: file.path)
        try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
        try queue.close()
    }

    @Test func aHealthyDirectoryAndServerAreAllWell() async throws {
        let terminal = try await terminalWithData()
        let answer = HealthAnswer(status: 200, version: MomentumCommand.version, secure: false, host: "127.0.0.1:8080")
        #expect(await doctor(terminal, health: answer) == 0)
        let text = terminal.output.text
        #expect(text.contains("✓ Data directory \(terminal.directory.url.path): writable, only for its owner"))
        #expect(text.contains("✓ Database momentum.sqlite: intact, schema up to date (v"))
        #expect(text.contains("✓ Server at http://127.0.0.1:8080/health: answers, version \(MomentumCommand.version)."))
        #expect(text.contains("– Proxy and HTTPS: not checked."))
        #expect(text.hasSuffix("All is well.\n"))
    }

    @Test func aReadOnlyDataDirectoryIsAProblemWithTheCommandThatFixesIt() async throws {
        let terminal = try await terminalWithData()
        let path = terminal.directory.url.path
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: path) }
        #expect(await doctor(terminal, ["--json"]) == CommandExit.ioError.rawValue)
        let directory = try #require(try findings(terminal).first)
        #expect(directory["check"] as? String == "dataDirectory")
        #expect(directory["status"] as? String == "problem")
        #expect(
            directory["message"] as? String
                == "Data directory \(path) cannot be written (mode 555, owner uid \(getuid())): nothing can be saved.")
        #expect((directory["fix"] as? String)?.contains("chmod 750 \(path)") == true)
    }

    @Test func aDamagedDatabaseIsAProblemAndStaysAsItWas() async throws {
        let terminal = try await terminalWithData()
        let file = terminal.directory.url.appendingPathComponent("momentum.sqlite")
        // Fold the write-ahead log in, then overwrite the pages after the header with noise.
        try Self.execute("PRAGMA wal_checkpoint(TRUNCATE)", in: file)
        var bytes = try Data(contentsOf: file)
        try #require(bytes.count > 8192)
        for index in 4096..<bytes.count where index % 7 != 0 { bytes[index] = UInt8(truncatingIfNeeded: index * 31) }
        try bytes.write(to: file)
        #expect(await doctor(terminal) == CommandExit.dataError.rawValue)
        #expect(terminal.output.text.contains("✗ Database momentum.sqlite is damaged: "))
        #expect(terminal.output.text.contains("Fix: Stop the server, keep a copy of the damaged file"))
        #expect(try Data(contentsOf: file) == bytes, "doctor changed the damaged file")

        let notADatabase = try TestTerminal()
        try Data("not sqlite at all, just text".utf8).write(
            to: notADatabase.directory.url.appendingPathComponent("momentum.sqlite"))
        #expect(await doctor(notADatabase) == CommandExit.dataError.rawValue)
        #expect(notADatabase.output.text.contains("✗ Database momentum.sqlite is damaged: "))
    }

    @Test func aDatabaseOfANewerMomentumIsNamedAndLeftUntouched() async throws {
        let terminal = try await terminalWithData()
        let file = terminal.directory.url.appendingPathComponent("momentum.sqlite")
        try Self.execute("INSERT INTO grdb_migrations VALUES ('v99: from the future')", in: file)
        #expect(await doctor(terminal) == CommandExit.dataError.rawValue)
        #expect(
            terminal.output.text.contains(
                "✗ Database momentum.sqlite was made by a newer Momentum (v99: from the future); this one (\(MomentumCommand.version)) leaves it untouched."
            ))
    }

    @Test func noServerIsAWarningInOurWords() async throws {
        let terminal = try await terminalWithData()
        #expect(await doctor(terminal) == 0)
        #expect(
            terminal.output.text.contains("! Nothing answers at http://127.0.0.1:8080/health: nothing listens there."))
        let elsewhere = try TestTerminal(sharing: terminal)
        #expect(
            await elsewhere.run(["doctor"], environment: ["MOMENTUM_HOST": "0.0.0.0", "MOMENTUM_PORT": "9000"]) == 0)
        #expect(elsewhere.output.text.contains("http://127.0.0.1:9000/health"))
    }

    /// Given a proxy that serves HTTPS; when it does not pass `X-Forwarded-Proto`, the server
    /// judges requests plain HTTP (cookies without Secure, wrong links): a problem with the nginx
    /// line that fixes it; when it passes it, all is well.
    @Test func aProxyThatDropsXForwardedProtoIsFound() async throws {
        let terminal = try await terminalWithData()
        let url = ["--url", "https://momentum.example.org"]
        let dropped = HealthAnswer(
            status: 200, version: MomentumCommand.version, secure: false, host: "momentum.example.org")
        #expect(await doctor(terminal, url + ["--json"], health: dropped) == CommandExit.unavailable.rawValue)
        let proxy = try #require(try findings(terminal).first { $0["check"] as? String == "proxy" })
        #expect(proxy["status"] as? String == "problem")
        #expect((proxy["message"] as? String)?.contains("the proxy does not pass X-Forwarded-Proto") == true)
        #expect(proxy["fix"] as? String == "In nginx: proxy_set_header X-Forwarded-Proto $scheme;")

        let passed = try TestTerminal(sharing: terminal)
        let good = HealthAnswer(
            status: 200, version: MomentumCommand.version, secure: true, host: "momentum.example.org")
        #expect(await passed.run(["doctor"] + url) { _ in .success(good) } == 0)
        #expect(
            passed.output.text.contains(
                "✓ https://momentum.example.org: HTTPS through a proxy that passes X-Forwarded-Proto"))

        let refused = try TestTerminal(sharing: terminal)
        #expect(await refused.run(["doctor"] + url) { _ in .success(HealthAnswer(status: 421)) } != 0)
        #expect(refused.output.text.contains("✗ The server refuses the name momentum.example.org (HTTP 421)."))
        #expect(refused.output.text.contains("--allowed-host momentum.example.org"))

        let plain = try TestTerminal(sharing: terminal)
        #expect(await plain.run(["doctor", "--url", "http://192.168.1.5:8080"]) { _ in .success(dropped) } == 0)
        #expect(plain.output.text.contains("! http://192.168.1.5:8080 is not HTTPS"))
    }

    @Test func inGermanToo() async throws {
        let terminal = try await terminalWithData()
        #expect(await terminal.run(["doctor", "--lang", "de"]) == 0)
        #expect(
            terminal.output.text.contains("Unter http://127.0.0.1:8080/health antwortet nichts: dort lauscht nichts."))
        #expect(terminal.output.text.contains("Probleme: 0. Warnungen: 1."))
    }
}
