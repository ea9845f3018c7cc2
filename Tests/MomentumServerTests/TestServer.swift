import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumComposition
import MomentumCore
import MomentumServices
import MomentumTestSupport
import Synchronization
import Testing

@testable import MomentumServer

/// A clock the test moves by hand.
final class ManualWallClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0.addTimeInterval(seconds) } }
}

/// A monotonic clock the test moves by hand: for stalls and deadlines counted in instants.
final class ManualInstants: Sendable {
    private let current = Mutex(ContinuousClock.now)
    var now: ContinuousClock.Instant { current.withLock { $0 } }
    func advance(by duration: Duration) { current.withLock { $0 += duration } }
}

/// Ids 00000000-0000-0000-0000-000000000001, …0002, … in order.
final class SequentialIDs: Sendable {
    private let next = Mutex(1)
    func make() -> UUID {
        let number = next.withLock { value in
            defer { value += 1 }
            return value
        }
        return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(number / 256), UInt8(number % 256)))
    }
}

/// The whole server on a temporary data directory, with a hand-moved clock and predictable ids.
struct TestServer {
    let directory: TemporaryDirectory
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))  // 2027-01-15T08:00:00Z
    let ids = SequentialIDs()
    let household: HouseholdService
    /// The founder's services (the one person of a new household).
    var services: MomentumServices { household.founder }
    let configuration: ServerConfiguration
    let router: Router<BasicRequestContext>
    /// What the router was built with: a live router built of the same shares its feeds.
    let dependencies: ServerDependencies

    init(
        host: String = "127.0.0.1", bodyLimit: Int = ServerConfiguration.defaultBodyLimit,
        publicDirectory: URL? = nil,
        librarySizeLimit: Int64 = LibraryService.defaultSizeLimit,
        interfaceAddresses: [String] = Self.homeNetwork, pushTransport: (any PushTransport)? = nil,
        rendering: AudioRendering = .live
    ) async throws {
        directory = try TemporaryDirectory()
        let (clock, ids) = (clock, ids)
        household = try await HouseholdService.open(
            dataDirectory: directory.url, device: "test", login: "Ada", timeZone: .gmt,
            now: { clock.now }, makeID: { ids.make() }, librarySizeLimit: librarySizeLimit)
        configuration = ServerConfiguration(
            host: host, dataDirectory: directory.url, bodyLimit: bodyLimit, publicDirectory: publicDirectory)
        var dependencies = ServerDependencies(
            household: household, now: { clock.now }, makeID: { ids.make() }, version: "test-version")
        dependencies.interfaceAddresses = { interfaceAddresses }
        dependencies.rendering = rendering
        dependencies.pushDelivery = pushTransport.map { [household] transport in
            PushDelivery(household: household, transport: transport, configuration: .init(), now: { clock.now })
        }
        router = buildRouter(configuration: configuration, dependencies: dependencies)
        self.dependencies = dependencies
    }

    /// The interfaces of the machine a test server runs on: loopback, a home network's IPv4
    /// address and a link-local IPv6 one.
    static let homeNetwork = ["127.0.0.1", "::1", "192.168.1.5", "fe80::1"]

    /// One person's routes (every person has the same): what the server answers besides its files.
    var personRouter: Router<BasicRequestContext> {
        let clock = clock
        return buildPersonRouter(
            configuration: configuration,
            dependencies: ServerDependencies(household: household, version: "test-version"),
            person: Person.founderID, services: services,
            shared: SharedServerParts(configuration: configuration, now: { clock.now }))
    }

    /// Runs `body` against the router in process.
    func test<Value>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await Application(router: router).test(.router, body)
    }
}

extension TestClientProtocol {
    /// Sends `json` (any JSON text) with `method`.
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        if json != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    /// The body as a JSON object.
    var object: [String: Any] {
        get throws {
            try #require(JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
        }
    }

    var text: String { String(buffer: body) }

    /// The error code of a JSON error body.
    var errorCode: String? {
        ((try? object)?["error"] as? [String: Any])?["code"] as? String
    }

    var errorMessage: String? {
        ((try? object)?["error"] as? [String: Any])?["message"] as? String
    }

    /// The field a refusal names (`durationMs`, `name`), if it names one.
    var errorField: String? {
        ((try? object)?["error"] as? [String: Any])?["field"] as? String
    }
}
