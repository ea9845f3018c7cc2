import Foundation
import MomentumCore
import MomentumServer
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

    @Test func onEveryAddressItShowsAnAddressABrowserCanOpen() throws {
        for host in ["0.0.0.0", "::", "[::]"] {
            let configuration = try configuration(["--host", host, "--port", "9000"])
            let shown = Serve.listening(configuration, networkAddresses: ["192.168.1.5", "10.0.0.2"], catalog: catalog)
            #expect(
                shown
                    == "Momentum is running on every address of this machine. Open http://127.0.0.1:9000/ in a "
                    + "browser here, or http://192.168.1.5:9000/ from another device (Ctrl-C stops it).")
            #expect(!shown.contains("0.0.0.0") && !shown.contains("[::]"))
            let alone = Serve.listening(configuration, networkAddresses: [], catalog: catalog)
            #expect(alone.contains("http://127.0.0.1:9000/") && alone.contains("port 9000"))
        }
        let german = Serve.listening(
            try configuration(["--host", "0.0.0.0", "--port", "9000"]), networkAddresses: ["192.168.1.5"],
            catalog: .shared(for: .german))
        #expect(german.contains("Momentum läuft auf allen Adressen dieses Rechners"))
        #expect(german.contains("http://192.168.1.5:9000/"))
        let one = Serve.listening(
            try configuration(["--port", "9000"]), networkAddresses: ["192.168.1.5"], catalog: catalog)
        #expect(one == "Momentum is running. Open http://127.0.0.1:9000/ in your browser (Ctrl-C stops it).")
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
    /// machines can.
    @Test func requireTokenOnLoopbackSaysOnlyThisMachineReachesIt() async throws {
        let taken = try TakenPort()
        let terminal = try TestTerminal()
        #expect(await terminal.run(["serve", "--require-token", "--port", "\(taken.port)"]) != 0)
        #expect(
            terminal.output.text.hasPrefix(
                "Only this machine can reach the server at 127.0.0.1, but --require-token asks every request "
                    + "for a sign-in: no one has one yet."))
        #expect(!terminal.output.text.contains("other machines"))
        #expect(terminal.errors.text.contains("\(taken.port)"))
    }
}
