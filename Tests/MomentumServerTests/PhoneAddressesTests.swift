import Foundation
import Logging
import Synchronization
import Testing

@testable import MomentumServer

/// Where a phone reaches the server (issue 40): never `0.0.0.0` or loopback, which a phone opens
/// as itself; and the server's log lines as text or JSON.
@Suite("Phone addresses and server logging")
struct PhoneAddressesTests {
    let home = ["127.0.0.1", "::1", "192.168.1.20", "169.254.3.4", "10.0.0.7", "fd00::2", "fe80::1", "2001:db8::5"]

    func reach(_ host: String, port: Int = 8080, name: String? = "pi") -> PhoneAddresses.Reach {
        PhoneAddresses(listenHost: host, port: port, interfaceAddresses: home, machineName: name).reach
    }

    @Test func onEveryIPv4AddressAPhoneGetsEachNetworkAddressThenTheMachinesName() {
        #expect(
            reach("0.0.0.0") == .network(["http://192.168.1.20:8080", "http://10.0.0.7:8080", "http://pi.local:8080"]))
        // A name with a domain is given as it is; none, or `localhost`, adds nothing.
        #expect(
            reach("0.0.0.0", name: "pi.home.arpa")
                == .network(["http://192.168.1.20:8080", "http://10.0.0.7:8080", "http://pi.home.arpa:8080"]))
        #expect(reach("0.0.0.0", name: "localhost") == .network(["http://192.168.1.20:8080", "http://10.0.0.7:8080"]))
        #expect(reach("0.0.0.0", name: nil) == .network(["http://192.168.1.20:8080", "http://10.0.0.7:8080"]))
        #expect(reach("0.0.0.0", port: 80, name: nil) == .network(["http://192.168.1.20", "http://10.0.0.7"]))
    }

    @Test func onEveryAddressIPv6OnesFollowButNotLinkLocalOnes() {
        #expect(
            reach("::")
                == .network([
                    "http://192.168.1.20:8080", "http://10.0.0.7:8080", "http://[fd00::2]:8080",
                    "http://[2001:db8::5]:8080", "http://pi.local:8080",
                ]))
    }

    @Test func loopbackReachesNoPhoneAndOneAddressIsItself() {
        for host in ["127.0.0.1", "127.0.0.2", "::1", "localhost"] {
            #expect(reach(host) == .thisMachineOnly, "\(host)")
        }
        #expect(reach("192.168.1.20") == .network(["http://192.168.1.20:8080"]))
        #expect(reach("fd00::2") == .network(["http://[fd00::2]:8080"]))
        #expect(reach("homeserver.lan") == .network(["http://homeserver.lan:8080"]))
        let alone = PhoneAddresses(
            listenHost: "0.0.0.0", port: 8080, interfaceAddresses: ["127.0.0.1", "fe80::1"], machineName: "pi")
        #expect(alone.reach == .noNetwork)
    }

    @Test func aPageOpenedOnLoopbackGetsTheNetworkAddressAPhoneOpens() {
        let everywhere = PhoneAddresses(listenHost: "0.0.0.0", port: 8080, interfaceAddresses: home, machineName: "pi")
        #expect(everywhere.phoneBase(forRequestBase: "http://127.0.0.1:8080") == .network(["http://192.168.1.20:8080"]))
        #expect(everywhere.phoneBase(forRequestBase: "http://localhost:8080") == .network(["http://192.168.1.20:8080"]))
        #expect(everywhere.phoneBase(forRequestBase: "http://[::1]:8080") == .network(["http://192.168.1.20:8080"]))
        // A page opened by a network address or through a proxy's name: a phone uses the same.
        #expect(everywhere.phoneBase(forRequestBase: "http://10.0.0.7:8080") == .network(["http://10.0.0.7:8080"]))
        #expect(
            everywhere.phoneBase(forRequestBase: "https://momentum.example.org")
                == .network(["https://momentum.example.org"]))
        let loopback = PhoneAddresses(listenHost: "127.0.0.1", port: 8080, interfaceAddresses: home, machineName: "pi")
        #expect(loopback.phoneBase(forRequestBase: "http://127.0.0.1:8080") == .thisMachineOnly)
    }

    @Test func theMachinesNamesAreAllowedOnlyWhenItListensOnEveryAddress() {
        var everywhere = ServerConfiguration(host: "0.0.0.0", dataDirectory: URL(fileURLWithPath: "/tmp"))
        everywhere.machineName = "Pi"
        #expect(everywhere.hostPolicy.allows(hostHeader: "pi.local:8080"))
        #expect(everywhere.hostPolicy.allows(hostHeader: "pi:8080"))
        #expect(!everywhere.hostPolicy.allows(hostHeader: "pi.evil.example:8080"))
        var loopback = ServerConfiguration(host: "127.0.0.1", dataDirectory: URL(fileURLWithPath: "/tmp"))
        loopback.machineName = "pi"
        #expect(!loopback.hostPolicy.allows(hostHeader: "pi.local:8080"))
        #expect(PhoneAddresses.names(machineName: "a b") == [])
        #expect(PhoneAddresses.names(machineName: "10.0.0.7") == [])
    }

    @Test func theLiveMachineListsItsLoopbackAddress() {
        #expect(PhoneAddresses.interfaceAddresses().contains("127.0.0.1"))
    }

    @Test func aJSONLogLineIsOneObjectWithLevelMessageAndMetadata() throws {
        let lines = LogLines()
        var logger = Logger(label: "momentum.server") { JSONLogHandler(label: $0, write: lines.append) }
        logger.logLevel = .debug
        logger[metadataKey: "request"] = "42"
        logger.debug("served \"/\"\nnext", metadata: ["path": "/a/b", "codes": .array(["1", "2"])])
        logger.trace("not at debug")
        let written = lines.all
        #expect(written.count == 1)
        let line = try #require(written.first)
        #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "debug")
        #expect(object["label"] as? String == "momentum.server")
        #expect(object["message"] as? String == "served \"/\"\nnext")
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["request"] as? String == "42")
        #expect(metadata["path"] as? String == "/a/b")
        #expect(metadata["codes"] as? [String] == ["1", "2"])
        let time = try #require(object["time"] as? String)
        #expect(time.hasSuffix("Z") && time.count == "2026-11-29T20:50:04.279Z".count)
        #expect(line.contains(#""path":"/a/b""#), "slashes are not escaped")
    }

    @Test func frameworkLinesShowFromDebugOn() {
        #expect(ServerLogging.frameworkLevel(for: .info) == .warning)
        #expect(ServerLogging.frameworkLevel(for: .notice) == .warning)
        #expect(ServerLogging.frameworkLevel(for: .error) == .error)
        #expect(ServerLogging.frameworkLevel(for: .debug) == .debug)
        #expect(ServerLogging.frameworkLevel(for: .trace) == .trace)
        #expect(ServerLogging(level: .error, format: .json).logger(label: "x").logLevel == .error)
    }
}

/// Lines a log handler wrote, kept in order.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
}
