import Foundation
import Testing

@testable import MomentumCLI

/// `--database` / `MOMENTUM_DATABASE_URL`: a wrong or unreachable PostgreSQL address is one
/// sentence in the person's language, and never shows the password.
@Suite("The PostgreSQL address of every command")
struct DatabaseOptionTests {
    @Test func anAddressThatIsNotPostgreSQLIsRefusedBeforeAnythingConnects() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["log", "--database", "https://user:secret@example.org/db"]) != 0)
        #expect(terminal.errors.text.hasPrefix("momentum: That is not a PostgreSQL address"))
        #expect(!terminal.errors.text.contains("secret"))
        #expect(
            !FileManager.default.fileExists(
                atPath: terminal.directory.url.appendingPathComponent("momentum.sqlite").path))
    }

    @Test func aPortOutOfRangeIsNamed() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(
            ["user", "list"],
            environment: ["LANG": "en_GB.UTF-8", "MOMENTUM_DATABASE_URL": "postgres://u:secret@db:70000/m"])
        #expect(status != 0)
        #expect(terminal.errors.text.contains("must be a number from 1 to 65535"))
        #expect(!terminal.errors.text.contains("secret"))
    }

    @Test func aTLSOptionTheStoreDoesNotTakeOrARootItCannotReadIsNamed() async throws {
        let terminal = try TestTerminal()
        let environment = ["LANG": "en_GB.UTF-8"]
        #expect(
            await terminal.run(
                ["log", "--database", "postgres://u:secret@db/m?sslmode=allow"], environment: environment) != 0)
        #expect(
            terminal.errors.text.hasPrefix(
                "momentum: The PostgreSQL address (--database or MOMENTUM_DATABASE_URL) takes only ?sslmode="))
        #expect(!terminal.errors.text.contains("secret"))
        let other = try TestTerminal()
        let root = "/nonexistent/momentum-root.pem"
        #expect(
            await other.run(
                ["log", "--database", "postgres://u:secret@db/m?sslmode=verify-full&sslrootcert=\(root)"],
                environment: environment) != 0)
        #expect(other.errors.text.hasPrefix("momentum: Cannot read the root certificate \(root) named by sslrootcert"))
        #expect(!other.errors.text.contains("secret"))
    }

    @Test func anUnreachableDatabaseIsNamedWithoutItsPasswordInThePersonsLanguage() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(
            ["log", "--lang", "de"],
            environment: ["LANG": "de_DE.UTF-8", "MOMENTUM_DATABASE_URL": "postgres://u:secret@127.0.0.1:1/m"])
        #expect(status != 0)
        #expect(
            terminal.errors.text
                == "momentum: Die PostgreSQL-Datenbank postgres://u:***@127.0.0.1:1/m ließ sich nicht öffnen. "
                + "Prüfe, ob sie läuft, ob Adresse, Benutzer und Passwort stimmen und ob dieser Rechner sich "
                + "verbinden darf.\n")
    }

    @Test func anEmptyVariableCountsAsUnset() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run(["log"], environment: ["LANG": "en_GB.UTF-8", "MOMENTUM_DATABASE_URL": ""])
        #expect(status == 0)
        #expect(
            FileManager.default.fileExists(
                atPath: terminal.directory.url.appendingPathComponent("momentum.sqlite").path))
    }
}
