import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import MomentumServer

/// One connection behind the guard, as the server's pipeline has it: the HTTP encoder and
/// decoder, then the guard. Time moves only when the test moves it.
private struct GuardedConnection {
    let channel = EmbeddedChannel()
    let connections: OpenConnections

    init(limits: ConnectionLimits = ConnectionLimits(maxConnections: 100), connections: OpenConnections? = nil) throws {
        self.connections = connections ?? OpenConnections(limits: limits, logger: Logger(label: "test"))
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(HTTPResponseEncoder())
        try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)))
        try pipeline.addHandler(
            ConnectionGuardHandler(
                limits: self.connections.limits, connections: self.connections, logger: Logger(label: "test")))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40_000)).wait()
    }

    func send(_ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    func send(bytes: [UInt8]) throws {
        try channel.writeInbound(ByteBuffer(bytes: bytes))
    }

    /// The server asks for more bytes (what NIO does whenever a handler is ready for them).
    func serverAsksForMore() {
        channel.pipeline.read()
    }

    func advance(_ duration: Duration) {
        channel.embeddedEventLoop.advanceTime(by: TimeAmount(duration))
    }

    /// Everything written to the client so far, as text.
    func written() throws -> String {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            text += String(buffer: buffer)
        }
        return text
    }

    /// Request parts passed on to the server's handlers.
    func passedOn() throws -> [HTTPServerRequestPart] {
        var parts: [HTTPServerRequestPart] = []
        while let part = try channel.readInbound(as: HTTPServerRequestPart.self) { parts.append(part) }
        return parts
    }

    func answer(_ status: HTTPResponseStatus, keepAlive: Bool = true) throws {
        try channel.writeOutbound(
            HTTPServerResponsePart.head(
                HTTPResponseHead(version: .http1_1, status: status, headers: ["Content-Length": "0"])))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
    }
}

@Suite("The connection guard")
struct ConnectionGuardTests {
    /// The malformed requests of issue 46 that each held a connection for good.
    static let malformedHeads: [String] = [
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\u{01}b\r\n\r\n",
        "G@T /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /health HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nNoColonHere\r\n\r\n",
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\r\n folded\r\n\r\n",
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1\rX-A: a\r\n\r\n",
        "GET /hea\u{01}lth HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "POST /health HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
        "POST /health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n",
        "POST /health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: " + String(repeating: "a", count: 200_000) + "\r\n\r\n",
        // Bare line feeds: the parser is strict (they were cut only after 30 s before).
        "GET /health HTTP/1.1\nHost: 127.0.0.1\n\n",
    ]

    @Test(arguments: malformedHeads.indices)
    func aMalformedHeadIsAnswered400AndClosedAtOnce(index: Int) throws {
        let connection = try GuardedConnection()
        try connection.send(Self.malformedHeads[index])
        #expect(try connection.written().hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(!connection.channel.isActive)
        #expect(try connection.passedOn().isEmpty)
    }

    @Test func aRawNonASCIIByteInTheHeadIsRefused() throws {
        let connection = try GuardedConnection()
        try connection.send(bytes: Array("GET /h".utf8) + [0xE9] + Array("alth HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(try connection.written().hasPrefix("HTTP/1.1 400"))
        #expect(!connection.channel.isActive)
    }

    @Test func aHeadThatNeverEndsIsCutAtTheHeaderTimeout() throws {
        let connection = try GuardedConnection()
        try connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        connection.advance(.seconds(29))
        #expect(connection.channel.isActive)
        try connection.send("X")  // trickling bytes does not move the deadline
        connection.advance(.seconds(1))
        #expect(try connection.written().hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(!connection.channel.isActive)
    }

    @Test func aCompleteHeadStopsTheHeaderClock() throws {
        let connection = try GuardedConnection()
        try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try connection.passedOn().count == 2)
        connection.advance(.seconds(40))
        #expect(connection.channel.isActive)
        #expect(try connection.written().isEmpty)
    }

    @Test func aBodyTricklingInIsCutAfterTheBodyTimeout() throws {
        let connection = try GuardedConnection()
        try connection.send("POST /api/v1/restores HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n")
        for _ in 0..<4 {
            connection.serverAsksForMore()
            connection.advance(.seconds(5))
            try connection.send("x")
        }
        #expect(connection.channel.isActive)
        connection.serverAsksForMore()
        connection.advance(.seconds(5))
        #expect(try connection.written().hasPrefix("HTTP/1.1 408"))
        #expect(!connection.channel.isActive)
    }

    @Test func aBodyAtTheMinimumPaceIsNeverCut() throws {
        let connection = try GuardedConnection()
        try connection.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n")
        for _ in 0..<60 {
            connection.serverAsksForMore()
            connection.advance(.seconds(1))
            try connection.send(String(repeating: "x", count: 500))
        }
        #expect(connection.channel.isActive)
        #expect(try connection.written().isEmpty)
    }

    @Test func timeTheServerIsNotAskingForTheBodyDoesNotCount() throws {
        let connection = try GuardedConnection()
        try connection.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\nabc")
        // The handler is busy (writing what came to disk, say): it asks for nothing for a minute.
        connection.advance(.seconds(60))
        #expect(connection.channel.isActive)
        connection.serverAsksForMore()
        connection.advance(.seconds(19))
        #expect(connection.channel.isActive)
        connection.advance(.seconds(2))
        #expect(!connection.channel.isActive)
    }

    @Test func anAnswerBeforeTheBodyCameClosesTheConnection() throws {
        let connection = try GuardedConnection()
        try connection.send("POST /api/v1/timers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000\r\n\r\nab")
        try connection.answer(.unauthorized)
        #expect(try connection.written().hasPrefix("HTTP/1.1 401"))
        #expect(!connection.channel.isActive)
    }

    @Test func aKeptAliveConnectionServesTheNextRequest() throws {
        let connection = try GuardedConnection()
        try connection.send("POST /a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\nok")
        try connection.answer(.ok)
        try connection.send("GET /b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try connection.answer(.ok)
        #expect(connection.channel.isActive)
        #expect(try connection.passedOn().count == 5)
        #expect(try connection.written().components(separatedBy: "HTTP/1.1 200").count == 3)
    }

    @Test func aMalformedSecondRequestIsAnsweredAfterTheFirst() throws {
        let connection = try GuardedConnection()
        try connection.send("GET /a HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try connection.answer(.ok)
        try connection.send("GET /b HTTP/1.1\r\nNoColon\r\n\r\n")
        let written = try connection.written()
        #expect(written.hasPrefix("HTTP/1.1 200"))
        #expect(written.contains("HTTP/1.1 400"))
        #expect(!connection.channel.isActive)
    }
}

@Suite("Open connections under a cap")
struct OpenConnectionsTests {
    private func connectedChannel(_ address: String = "127.0.0.1") throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: address, port: 40_000)).wait()
        return channel
    }

    private func admitted(_ admission: OpenConnections.Admission) throws -> OpenConnections.ID {
        guard case .admitted(let id) = admission else {
            Issue.record("refused")
            throw CancellationError()
        }
        return id
    }

    @Test func atTheCapTheConnectionIdleLongestMakesRoom() throws {
        let connections = OpenConnections(limits: ConnectionLimits(maxConnections: 3), logger: Logger(label: "test"))
        let first = try connectedChannel()
        let second = try connectedChannel()
        let third = try connectedChannel()
        let firstID = try admitted(connections.admit(first, address: nil))
        let secondID = try admitted(connections.admit(second, address: nil))
        _ = try admitted(connections.admit(third, address: nil))
        connections.markBusy(firstID)
        connections.markBusy(secondID)
        connections.markIdle(firstID)  // idle again, more recently than the third

        _ = try admitted(connections.admit(try connectedChannel(), address: nil))
        #expect(!third.isActive)
        #expect(first.isActive && second.isActive)
        #expect(connections.count == 3)
    }

    @Test func whenEveryConnectionIsBusyANewOneIsRefused() throws {
        let connections = OpenConnections(limits: ConnectionLimits(maxConnections: 2), logger: Logger(label: "test"))
        let busy = try [connectedChannel(), connectedChannel()]
        for channel in busy { connections.markBusy(try admitted(connections.admit(channel, address: nil))) }
        let late = try connectedChannel()
        #expect(connections.admit(late, address: nil) == .refused)
        for channel in busy { #expect(channel.isActive) }
    }

    @Test func oneAddressCannotTakeMoreThanItsShare() throws {
        var limits = ConnectionLimits(maxConnections: 100)
        limits.maxConnectionsPerAddress = 2
        let connections = OpenConnections(limits: limits, logger: Logger(label: "test"))
        for _ in 0..<2 {
            connections.markBusy(try admitted(connections.admit(try connectedChannel(), address: "192.0.2.7")))
        }
        let third = try connectedChannel()
        #expect(connections.admit(third, address: "192.0.2.7") == .refused)
        _ = try admitted(connections.admit(try connectedChannel(), address: "192.0.2.8"))
        #expect(connections.count == 3)
    }

    @Test func aClosedConnectionLeavesRoom() throws {
        let connections = OpenConnections(limits: ConnectionLimits(maxConnections: 1), logger: Logger(label: "test"))
        let id = try admitted(connections.admit(try connectedChannel(), address: nil))
        connections.markBusy(id)
        let second = try connectedChannel()
        #expect(connections.admit(second, address: nil) == .refused)
        connections.remove(id)
        _ = try admitted(connections.admit(try connectedChannel(), address: nil))
    }

    @Test func loopbackClientsShareNoCapPerAddress() throws {
        let loopback = try connectedChannel("127.0.0.1")
        let lan = try connectedChannel("192.168.1.20")
        #expect(ConnectionGuardHandler.countedAddress(of: loopback) == nil)
        #expect(ConnectionGuardHandler.countedAddress(of: lan) == "192.168.1.20")
    }

    @Test(arguments: [(1024, 384), (20_000, 4096), (256, 32), (4_000, 1872)])
    func theCapFollowsTheFileDescriptorLimit(limit: Int, cap: Int) {
        #expect(ConnectionLimits.maxConnections(fileDescriptorLimit: limit) == cap)
    }
}

@Suite("A body's pace")
struct BodyPaceTests {
    @Test func eachMinimumRateOfBytesEarnsASecond() {
        let pace = BodyPace()
        #expect(pace.allowance(afterReceiving: 0) == .seconds(20))
        #expect(pace.allowance(afterReceiving: 5_000) == .seconds(30))
        #expect(!pace.isOverdue(waited: .seconds(20), received: 0))
        #expect(pace.isOverdue(waited: .seconds(21), received: 1))
    }
}
