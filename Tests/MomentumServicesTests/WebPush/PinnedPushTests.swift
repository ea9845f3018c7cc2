import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization
import Testing

@testable import MomentumServices

/// The push is posted to the address that was checked, not to whatever the name resolves to when
/// the connection is made (DNS rebinding): a name the system cannot resolve at all still reaches
/// the address the check resolved it to. Over TLS the endpoint's name is verified on the
/// certificate; an untrusted one gets nothing. A redirect comes back as it is, with `Retry-After`.
@Suite("Push transport: the connection goes to the checked address")
struct PinnedPushTests {
    /// A push service on 127.0.0.1 answering `status` (and `Retry-After`) and keeping what it got.
    final class LocalPushService: Sendable {
        struct Received: Sendable {
            var host: String?
            var path: String
            var headers: [String: String]
            var body: [UInt8]
        }

        let recorder = Recorder()
        /// What it got, in order.
        var got: [Received] { recorder.received.withLock { $0 } }
        let channel: any Channel
        var port: Int { channel.localAddress?.port ?? 0 }

        init(status: HTTPResponseStatus = .created, retryAfter: String? = nil, tls: NIOSSLContext? = nil) async throws {
            let recorder = self.recorder
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(
                            Answering(status: status, retryAfter: retryAfter, recorder: recorder))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
        }

        func close() async { try? await channel.close() }  // try?: a test server already closed is closed
    }

    final class Recorder: Sendable {
        let received = Mutex<[LocalPushService.Received]>([])
    }

    final class Answering: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let status: HTTPResponseStatus
        let retryAfter: String?
        let recorder: Recorder
        let pending = Mutex<LocalPushService.Received?>(nil)

        init(status: HTTPResponseStatus, retryAfter: String?, recorder: Recorder) {
            (self.status, self.retryAfter, self.recorder) = (status, retryAfter, recorder)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                let headers = Dictionary(
                    head.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
                pending.withLock {
                    $0 = .init(host: head.headers.first(name: "Host"), path: head.uri, headers: headers, body: [])
                }
            case .body(var buffer):
                let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
                pending.withLock { $0?.body += bytes }
            case .end:
                if let request = pending.withLock({ $0 }) { recorder.received.withLock { $0.append(request) } }
                var headers = HTTPHeaders([("Content-Length", "0"), ("Connection", "close")])
                if let retryAfter { headers.add(name: "Retry-After", value: retryAfter) }
                if status == .temporaryRedirect { headers.add(name: "Location", value: "http://127.0.0.1:1/elsewhere") }
                context.write(
                    wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                    promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
            }
        }
    }

    private func request(_ url: String, admitting origin: String) throws -> PushRequest {
        PushRequest(
            endpoint: try PushEndpoint(url, admitting: try PushOrigins([origin])),
            headers: [("TTL", "60"), ("Content-Encoding", "aes128gcm")], body: Data("sealed".utf8))
    }

    @Test func aNameThatNoLongerResolvesStillReachesOnlyTheCheckedAddress() async throws {
        let service = try await LocalPushService()
        let origin = "http://push.rebinding.invalid:\(service.port)"
        let checked = try #require(PushAddress(literal: "127.0.0.1"))
        let transport = HTTPPushTransport(admitting: try PushOrigins([origin]), resolve: { _ in [checked] })
        let response = try await transport.send(try request("\(origin)/push/abc?x=1", admitting: origin))
        #expect(response.status == 201)
        let got = try #require(service.got.first)
        #expect(got.host == "push.rebinding.invalid:\(service.port)")
        #expect(got.path == "/push/abc?x=1")
        #expect(got.headers["ttl"] == "60" && got.headers["content-length"] == "6")
        #expect(got.body == Array("sealed".utf8))
        await service.close()
    }

    @Test func aRedirectComesBackAsItIsWithRetryAfter() async throws {
        for (status, retryAfter) in [(HTTPResponseStatus.temporaryRedirect, nil), (.serviceUnavailable, "120")] {
            let service = try await LocalPushService(status: status, retryAfter: retryAfter)
            let origin = "http://127.0.0.1:\(service.port)"
            let transport = HTTPPushTransport(admitting: try PushOrigins([origin]))
            let response = try await transport.send(try request("\(origin)/push/1", admitting: origin))
            #expect(response.status == Int(status.code))
            #expect(response.retryAfter == retryAfter)
            #expect(service.got.count == 1)
            await service.close()
        }
    }

    @Test func nothingListeningIsUnreachable() async throws {
        let service = try await LocalPushService()
        let origin = "http://127.0.0.1:\(service.port)"
        await service.close()
        let transport = HTTPPushTransport(admitting: try PushOrigins([origin]), timeout: .seconds(2))
        await #expect {
            _ = try await transport.send(try request("\(origin)/push/1", admitting: origin))
        } throws: { error in
            guard case PushTransportError.unreachable = error else { return false }
            return true
        }
    }

    /// The TLS test cluster's certificates (`scripts/postgres-cluster.sh`): `localhost` signed by
    /// `root.crt`; `other-root.crt` signed nothing here.
    static let certificates = ProcessInfo.processInfo.environment["MOMENTUM_TEST_POSTGRES_TLS"]

    @Test(.enabled(if: certificates != nil))
    func overTLSTheNameIsVerifiedOnTheCertificateAndAnUntrustedOneGetsNothing() async throws {
        let folder = URL(fileURLWithPath: try #require(Self.certificates))
        let server = try NIOSSLContext(
            configuration: .makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(folder.appendingPathComponent("server.crt").path)
                    .map { .certificate($0) },
                privateKey: .privateKey(
                    try NIOSSLPrivateKey(file: folder.appendingPathComponent("server.key").path, format: .pem))))
        let service = try await LocalPushService(tls: server)
        let origin = "https://localhost:\(service.port)"
        let loopback = try #require(PushAddress(literal: "127.0.0.1"))
        let trusting = HTTPPushTransport(
            admitting: try PushOrigins([origin]), resolve: { _ in [loopback] },
            trustRoots: .file(folder.appendingPathComponent("root.crt").path))
        let response = try await trusting.send(try request("\(origin)/push/secure", admitting: origin))
        #expect(response.status == 201)
        #expect(service.got.map(\.path) == ["/push/secure"])

        let untrusting = HTTPPushTransport(
            admitting: try PushOrigins([origin]), resolve: { _ in [loopback] },
            trustRoots: .file(folder.appendingPathComponent("other-root.crt").path))
        await #expect {
            _ = try await untrusting.send(try request("\(origin)/push/secure", admitting: origin))
        } throws: { error in
            guard case PushTransportError.unreachable(let reason) = error else { return false }
            return reason.hasPrefix("TLS")
        }
        #expect(service.got.count == 1, "the untrusted connection sent nothing")
        await service.close()
    }
}
