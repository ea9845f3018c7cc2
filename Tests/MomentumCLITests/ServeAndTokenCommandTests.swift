import Foundation
import MomentumCore
import MomentumServer
import MomentumStore
import Testing

@testable import MomentumCLI

@Suite("serve and token commands")
struct ServeAndTokenCommandTests {
    @Test func aTokenIsPrintedOnceListedWithoutItsSecretAndRevoked() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["token", "create", "--name", "phone"]) == 0)
        #expect(terminal.output.lines.count == 2)
        let secret = try #require(terminal.output.lines.last)
        #expect(secret.count >= 40)
        let id = try #require(terminal.output.lines.first?.split(separator: " ").dropFirst().first.map(String.init))

        let list = try TestTerminal(sharing: terminal)
        #expect(await list.run(["token", "list"]) == 0)
        #expect(list.output.lines == ["\(id)  phone  2027-01-15  full access  active"])
        #expect(!list.output.text.contains(secret))

        let revoke = try TestTerminal(sharing: terminal)
        #expect(await revoke.run(["token", "revoke", id]) == 0)
        #expect(revoke.output.lines == ["Token \(id) (phone) revoked: it no longer opens the web app."])
        let again = try TestTerminal(sharing: terminal)
        #expect(await again.run(["token", "revoke", id]) != 0)
        #expect(again.errors.text == "momentum: Token \(id) is already revoked.\n")
        let database = try MomentumDatabase.open(directory: terminal.directory.url)
        #expect(try database.accessTokens().first?.secretHash != secret)

        let json = try TestTerminal(sharing: terminal)
        #expect(await json.run(["token", "list", "--json"]) == 0)
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.text.utf8)) as? [[String: String]])
        #expect(rows.count == 1)
        #expect(rows.first?["id"] == id)
        #expect(rows.first?["scope"] == "full")
        #expect(rows.first?["createdAt"] == "2027-01-15T08:00:00.000Z")
        #expect(rows.first?["revokedAt"] != nil)
        let hash = try #require(try database.accessTokens().first?.secretHash)
        #expect(!json.output.text.contains(secret) && !json.output.text.contains(hash))
    }

    @Test func aFeedTokenSaysWhatItOpensAndIsListedWithItsScope() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["token", "create", "--name", "calendar", "--scope", "feed"]) == 0)
        #expect(terminal.output.lines.count == 3)
        #expect(terminal.output.lines.last?.contains("/reminders.ics?token=") == true)
        let list = try TestTerminal(sharing: terminal)
        #expect(await list.run(["token", "list"]) == 0)
        #expect(list.output.text.contains("calendar  2027-01-15  calendar feed only  active"))
        let wrong = try TestTerminal(sharing: terminal)
        #expect(await wrong.run(["token", "create", "--scope", "admin"]) != 0)
    }

    @Test func serveRefusesAnAllowedHostThatIsNotAName() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["serve", "--port", "0", "--allowed-host", "evil.example:80"]) != 0)
        #expect(terminal.errors.text.contains("--allowed-host evil.example:80"))
    }

    @Test func anEmptyTokenListSaysHowToMakeOne() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["token", "list"]) == 0)
        #expect(terminal.output.lines == ["No access tokens yet. Make one with momentum token create."])
    }

    /// Given no way in yet (no token, no paired device); when `serve` is asked to listen off
    /// loopback on an address this machine does not have; then it says that in one sentence, in
    /// the person's language, and nothing else — no pairing code is shown (or made) for a server
    /// that never listened. (What it says once it listens: `ServeHostCommandTests`.)
    @Test func serveOffLoopbackThatCannotListenSaysOnlyThat() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["serve", "--host", "192.0.2.123", "--port", "18099"]) != 0)
        #expect(terminal.output.text.isEmpty)
        #expect(terminal.errors.text.contains("192.0.2.123"))
        let german = try TestTerminal(sharing: terminal)
        let environment = ["LANG": "de_DE.UTF-8", "MOMENTUM_HOST": "192.0.2.124", "MOMENTUM_PORT": "18099"]
        #expect(await german.run(["serve"], environment: environment) != 0)
        #expect(german.output.text.isEmpty)
        #expect(german.errors.text.contains("192.0.2.124"))
        #expect(german.errors.text.contains("kann nicht gelauscht werden"))
    }

    /// A name no resolver knows is the same mistake in other words: one sentence naming it, never
    /// "something went wrong inside Momentum".
    @Test(arguments: ["momentum-no-such-host.invalid"])
    func serveOnANameThatResolvesToNothingSaysItCannotListen(host: String) async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["serve", "--host", host, "--port", "18098"]) != 0)
        #expect(terminal.output.text.isEmpty)
        #expect(terminal.errors.text == "momentum: Cannot listen on \(host) port 18098; check --host and --port.\n")
    }

    @Test(arguments: ["0", "65536", "http", "99999"])
    func aBadPortIsRefused(port: String) async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["serve", "--port", port]) != 0)
        #expect(terminal.errors.text == "momentum: Not a port: \(port). Use a number from 1 to 65535.\n")
    }

    @Test(arguments: ["0", "100001", "lots", "1.5"])
    func aBadUploadLimitIsRefused(value: String) async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["serve", "--max-upload-mb", value]) != 0)
        #expect(
            terminal.errors.text
                == "momentum: Not an upload size: \(value). Use a whole number of MiB from 1 to 100000.\n")
    }

    @Test func optionsWinOverTheEnvironmentWhichWinsOverTheDefaults() throws {
        let catalog = StringCatalog.shared(for: .english)
        let data = URL(fileURLWithPath: "/tmp/momentum")
        let environment = ["MOMENTUM_HOST": "::1", "MOMENTUM_PORT": "9000"]
        let fromEnvironment = try Serve.parse([]).configuration(
            environment: environment, dataDirectory: data, catalog: catalog)
        #expect(fromEnvironment.host == "::1")
        #expect(fromEnvironment.port == 9000)
        #expect(fromEnvironment.address == "http://[::1]:9000/")
        let fromOptions = try Serve.parse(["--host", "localhost", "--port", "8181"]).configuration(
            environment: environment, dataDirectory: data, catalog: catalog)
        #expect(fromOptions.address == "http://localhost:8181/")
        let defaults = try Serve.parse([]).configuration(environment: [:], dataDirectory: data, catalog: catalog)
        #expect(defaults.address == "http://127.0.0.1:8080/")
        #expect(defaults.bodyLimit == 1 << 20)
    }
}

@Suite("momentum serve --render-cache-mb")
struct ServeRenderCacheTests {
    let catalog = StringCatalog.shared(for: .english)
    let data = URL(fileURLWithPath: "/tmp/momentum")

    @Test func theRenderCacheHolds500MiBUnlessToldOtherwise() throws {
        let defaults = try Serve.parse([]).configuration(environment: [:], dataDirectory: data, catalog: catalog)
        #expect(defaults.renderLimits.cacheBytes == 500 << 20)
        let small = try Serve.parse(["--render-cache-mb", "20"]).configuration(
            environment: [:], dataDirectory: data, catalog: catalog)
        #expect(small.renderLimits.cacheBytes == 20 << 20)
        let none = try Serve.parse(["--render-cache-mb", "0"]).configuration(
            environment: [:], dataDirectory: data, catalog: catalog)
        #expect(none.renderLimits.cacheBytes == 0)
    }

    @Test(arguments: ["1.5", "100001", "lots"])
    func aBadRenderCacheSizeIsRefused(value: String) async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["serve", "--render-cache-mb", value]) != 0)
        #expect(
            terminal.errors.text
                == "momentum: Not a render cache size: \(value). Use a whole number of MiB from 0 to 100000.\n")
    }
}
