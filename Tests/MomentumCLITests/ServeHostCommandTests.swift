import Foundation
import MomentumComposition
import MomentumCore
import MomentumServer
import MomentumServices
import Testing

@testable import MomentumCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `momentum serve --host` as people write it, and what `serve` says it listens on (issue 46).
@Suite("serve: host parsing and what it says")
struct ServeHostCommandTests {
    let catalog = StringCatalog.shared(for: .english)
    let data = URL(fileURLWithPath: "/tmp/momentum")

    func configuration(_ arguments: [String]) throws -> ServerConfiguration {
        try Serve.parse(arguments).configuration(environment: [:], dataDirectory: data, catalog: catalog)
    }

    @Test(arguments: [
        ("[::1]", "::1", "http://[::1]:8080/"), ("::1", "::1", "http://[::1]:8080/"),
        ("localhost.", "localhost", "http://localhost:8080/"), ("LocalHost", "localhost", "http://localhost:8080/"),
        ("127.0.0.1", "127.0.0.1", "http://127.0.0.1:8080/"), ("[::]", "::", "http://[::]:8080/"),
        ("homeserver.local.", "homeserver.local", "http://homeserver.local:8080/"),
    ])
    func aBracketedAddressAndATrailingDotAreTakenAsPeopleMeanThem(host: String, bound: String, address: String) throws {
        let configuration = try configuration(["--host", host])
        #expect(configuration.host == bound)
        #expect(configuration.address == address)
    }

    @Test func theLoopbackNamesStayLoopback() throws {
        for host in ["[::1]", "localhost.", "::1"] {
            let configuration = try configuration(["--host", host])
            #expect(configuration.isLoopback, "\(host)")
            #expect(!configuration.requiresToken, "\(host)")
        }
    }

    /// What is neither an address nor a name is refused before anything listens, in a sentence
    /// that says what to give — never "Something went wrong".
    @Test(arguments: ["[::1", "[localhost]", "a b", "host:8080", "[127.0.0.1]", ".", "exa mple.org"])
    func aHostThatIsNeitherAnAddressNorANameIsRefused(host: String) async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["serve", "--host", host, "--port", "0"]) != 0)
        #expect(
            terminal.errors.text
                == "momentum: Not an address to listen on: \(host). Use an address of this machine "
                + "(127.0.0.1, ::1 or [::1], 0.0.0.0 for every address) or its host name.\n")
    }

    func phone(_ configuration: ServerConfiguration, _ addresses: [String]) -> PhoneAddresses {
        var configuration = configuration
        configuration.machineName = "pi"
        return configuration.phoneAddresses(interfaceAddresses: ["127.0.0.1"] + addresses)
    }

    @Test func onEveryAddressItShowsTheAddressesAPhoneCanOpen() throws {
        for host in ["0.0.0.0", "::", "[::]"] {
            let configuration = try configuration(["--host", host, "--port", "9000"])
            let shown = Serve.listening(phone(configuration, ["192.168.1.5", "10.0.0.2"]), catalog: catalog)
            #expect(
                shown == [
                    "Momentum is running on every address of this machine. Open http://127.0.0.1:9000/ in a browser "
                        + "here, or one of these on a phone or another computer of your network (Ctrl-C stops it):",
                    "  http://192.168.1.5:9000/", "  http://10.0.0.2:9000/", "  http://pi.local:9000/",
                ])
            #expect(!shown.joined().contains("0.0.0.0") && !shown.joined().contains("[::]"))
            let alone = Serve.listening(phone(configuration, []), catalog: catalog).joined()
            #expect(alone.contains("http://127.0.0.1:9000/") && alone.contains("port 9000"))
        }
        let german = Serve.listening(
            phone(try configuration(["--host", "0.0.0.0", "--port", "9000"]), ["192.168.1.5"]),
            catalog: .shared(for: .german))
        #expect(german[0].contains("Momentum läuft auf allen Adressen dieses Rechners"))
        #expect(german[1] == "  http://192.168.1.5:9000/")
        let one = Serve.listening(phone(try configuration(["--port", "9000"]), ["192.168.1.5"]), catalog: catalog)
        #expect(
            one == [
                "Momentum is running. Open http://127.0.0.1:9000/ in your browser (Ctrl-C stops it).",
                "A phone cannot reach it: it listens on this machine only. To use Momentum on a phone, start it with "
                    + "--host 0.0.0.0 (or MOMENTUM_HOST=0.0.0.0).",
            ])
        let lan = Serve.listening(
            phone(try configuration(["--host", "192.168.1.5", "--port", "9000"]), ["192.168.1.5"]), catalog: catalog)
        #expect(lan == ["Momentum is running. Open http://192.168.1.5:9000/ in your browser (Ctrl-C stops it)."])
    }

    /// Given a household no one has signed in to; when `serve` starts on every address; then it
    /// shows the owner's pairing link at the first address a phone opens, its QR code (which reads
    /// back as the link) and the code to type — a code that signs a browser in.
    @Test func withNothingPairedItShowsTheOwnersPairingCodeAtAnAddressAPhoneOpens() async throws {
        let terminal = try TestTerminal()
        let configuration = try configuration(["--host", "0.0.0.0", "--port", "9000"])
        let reachable = phone(configuration, ["192.168.1.5"])
        let household = try await HouseholdService.open(dataDirectory: terminal.directory.url, device: "test")
        let owner = try await household.person(named: nil)
        let lines = try await Serve.firstWayIn(reachable, catalog: catalog) { base in
            try await PairCommand.lines(
                try household.startPairing(for: owner), base: base, isInteractive: false, timeZone: .gmt,
                catalog: catalog)
        }
        let link = try #require(lines.first)
        let code = try #require(link.split(separator: "#").last.map(String.init))
        #expect(link == "http://192.168.1.5:9000/pair.html#\(code)")
        let qr = try QRCode.encode(link, correction: .medium).terminalLines(style: .forDarkBackground)
        #expect(Array(lines[2..<(2 + qr.count)]) == qr)
        #expect(lines.contains("Or open http://192.168.1.5:9000/pair.html and type the code \(code)."))
        await #expect(try household.pair(code: code, deviceName: "phone").person.id == owner.id)
        // Nowhere a phone reaches: how to let someone in instead of a code that cannot work.
        let nowhere = await Serve.firstWayIn(phone(configuration, []), catalog: catalog) { _ in ["a code"] }
        #expect(nowhere.count == 1 && nowhere[0].hasPrefix("Listening on 0.0.0.0 lets other machines reach it"))
    }

    @Test func logLevelAndFormatAreCheckedAndTheOptionWins() throws {
        let logging = try Serve.parse(["--log-level", "DEBUG", "--log-format", "json"])
            .logging(environment: ["MOMENTUM_LOG_LEVEL": "error"], catalog: catalog)
        #expect(logging == ServerLogging(level: .debug, format: .json))
        #expect(
            try Serve.parse([]).logging(environment: ["MOMENTUM_LOG_FORMAT": "json"], catalog: catalog).format == .json)
        #expect(try Serve.parse([]).logging(environment: [:], catalog: catalog) == ServerLogging())
        #expect(throws: CommandFailure.self) {
            try Serve.parse(["--log-level", "loud"]).logging(environment: [:], catalog: catalog)
        }
        #expect(throws: CommandFailure.self) {
            try Serve.parse([]).logging(environment: ["MOMENTUM_LOG_FORMAT": "xml"], catalog: catalog)
        }
    }

    /// A loopback port already taken, so `serve` ends right after what it says before listening.
    final class TakenPort: Sendable {
        let descriptor: Int32
        let port: Int

        init() throws {
            #if canImport(Glibc)
                let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let descriptor = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            self.descriptor = descriptor
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            try #require(bound == 0 && listen(descriptor, 1) == 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            try #require(named == 0)
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }
    }

    /// Given no way in yet; when `serve --require-token` starts on this machine's own address; then
    /// it says the sign-in is asked although only this machine can reach it — not that other
    /// machines can, and no pairing code a phone could not open. A port in use ends it before
    /// anything is said but the one sentence.
    @Test func requireTokenOnLoopbackSaysOnlyThisMachineReachesIt() async throws {
        let configuration = try configuration(["--require-token", "--port", "9000"])
        let said = await Serve.firstWayIn(phone(configuration, ["192.168.1.5"]), catalog: catalog) { _ in ["a code"] }
        #expect(said.count == 1)
        #expect(
            said[0].hasPrefix(
                "Only this machine can reach the server at 127.0.0.1, but --require-token asks every request "
                    + "for a sign-in: no one has one yet."))
        #expect(!said[0].contains("other machines"))

        let taken = try TakenPort()
        let terminal = try TestTerminal()
        #expect(await terminal.run(["serve", "--require-token", "--port", "\(taken.port)"]) != 0)
        #expect(terminal.output.text.isEmpty)
        #expect(terminal.errors.text.contains("Port \(taken.port) is in use; choose another with --port."))
    }

    /// `--push-allow` and `$MOMENTUM_PUSH_ALLOW` admit exactly their origins; one that is not an
    /// origin stops `serve` before it listens, naming it.
    @Test func pushServicesAreAdmittedByOriginFromTheOptionAndTheEnvironment() throws {
        let configured = try Serve.parse(["--push-allow", "http://127.0.0.1:8181/"]).configuration(
            environment: ["MOMENTUM_PUSH_ALLOW": " https://push.home.arpa , http://[::1]:9000"], dataDirectory: data,
            catalog: catalog)
        #expect(
            configured.pushOrigins.origins == ["http://127.0.0.1:8181", "https://push.home.arpa", "http://[::1]:9000"])
        #expect(try configuration([]).pushOrigins.origins.isEmpty)
        for wrong in ["127.0.0.1:8181", "http://127.0.0.1:8181/push", "*", "http://u@host:1"] {
            #expect(throws: CommandFailure.self) { try configuration(["--push-allow", wrong]) }
            do {
                _ = try configuration(["--push-allow", wrong])
            } catch let failure as CommandFailure {
                #expect(failure.message.contains("--push-allow \(wrong) is not an origin"), "\(failure.message)")
            }
        }
    }
}
