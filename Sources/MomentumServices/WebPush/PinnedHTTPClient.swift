import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One POST to exactly the address that was checked (docs/notifications.md): the connection is
/// opened to that address, and TLS verifies the endpoint's name on it (SNI and the certificate),
/// so a name whose answer changes between the check and the connection (DNS rebinding) reaches
/// nothing new. HTTP/1.1, one request per connection, no redirect followed, no cookie kept.
struct PinnedHTTPClient: Sendable {
    let group: any EventLoopGroup
    /// `nil` when TLS could not be set up: every `https` send then fails.
    let tls: NIOSSLContext?
    let timeout: Duration

    /// The most of an answer's head that is read: a push service says little.
    static let maximumHeadBytes = 16 * 1024

    init(
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, trustRoots: NIOSSLTrustRoots,
        timeout: Duration
    ) {
        self.group = group
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = trustRoots
        configuration.certificateVerification = .fullVerification
        configuration.applicationProtocols = ["http/1.1"]
        // try?: a TLS context that cannot be made leaves `tls` nil, and every https send says so.
        tls = try? NIOSSLContext(configuration: configuration)
        self.timeout = timeout
    }

    /// Posts `body` with `headers` to `endpoint`, connecting to the first of `addresses` that
    /// answers (the others are tried only while none has connected: nothing is sent twice).
    func post(
        to endpoint: PushEndpoint, at addresses: [PushAddress], headers: [(name: String, value: String)], body: Data
    ) async throws(PushTransportError) -> PushResponse {
        let secure = endpoint.scheme == "https"
        guard !secure || tls != nil else { throw .unreachable("TLS is not available") }
        var failure = "no address"
        for address in addresses {
            // The answer's promise is in the pipeline from the start: a refused handshake is its failure.
            let answer = group.any().makePromise(of: PushResponse.self)
            let channel: any Channel
            do {
                channel = try await connect(to: endpoint, at: address, secure: secure, answer: answer)
            } catch {
                answer.fail(error)
                failure = Self.summary(error)
                continue
            }
            return try await send(on: channel, to: endpoint, headers: headers, body: body, answer: answer)
        }
        throw .unreachable(failure)
    }

    private func connect(
        to endpoint: PushEndpoint, at address: PushAddress, secure: Bool, answer: EventLoopPromise<PushResponse>
    ) async throws -> any Channel {
        let socket = try SocketAddress(packedIPAddress: ByteBuffer(bytes: address.bytes), port: endpoint.port)
        // A name is verified on the certificate (and sent as SNI); an address literal has none to send.
        let serverName = endpoint.literalAddress == nil ? endpoint.host : nil
        let tls = tls
        return try await ClientBootstrap(group: group)
            .connectTimeout(.nanoseconds(Int64(timeout.inSeconds * 1e9)))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if secure, let tls {
                        try pipeline.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: serverName))
                    }
                    try pipeline.addHTTPClientHandlers(leftOverBytesStrategy: .dropBytes)
                    try pipeline.addHandler(AnswerHandler(answer: answer))
                }
            }
            .connect(to: socket).get()
    }

    private func send(
        on channel: any Channel, to endpoint: PushEndpoint, headers: [(name: String, value: String)], body: Data,
        answer: EventLoopPromise<PushResponse>
    ) async throws(PushTransportError) -> PushResponse {
        let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(timeout.inSeconds * 1e9))) {
            answer.fail(PinnedHTTPClientError.timedOut)
            channel.close(promise: nil)
        }
        defer {
            deadline.cancel()
            channel.close(promise: nil)
        }
        do {
            var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: endpoint.target)
            head.headers.add(name: "Host", value: endpoint.hostHeader)
            for header in headers { head.headers.add(name: header.name, value: header.value) }
            head.headers.replaceOrAdd(name: "Content-Length", value: "\(body.count)")
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
            try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
        } catch {
            // The answer's own failure (a refused handshake) says more than the write's.
            answer.fail(error)
        }
        do {
            return try await answer.futureResult.get()
        } catch {
            throw .unreachable(Self.summary(error))
        }
    }

    /// A failure in a few words (a log line and the subscription's last failure).
    static func summary(_ error: any Error) -> String {
        switch error {
        case PinnedHTTPClientError.timedOut: "timed out"
        case PinnedHTTPClientError.closedEarly: "closed before answering"
        case PinnedHTTPClientError.headTooLarge: "answer too large"
        case let error as NIOSSLError: "TLS: \(error)".prefix(200).description
        case let error as BoringSSLError: "TLS: \(error)".prefix(200).description
        case let error as NIOConnectionError:
            "cannot connect (\(error.connectionErrors.first.map { "\($0.error)" } ?? "refused"))".prefix(200)
                .description
        default: String(describing: error).prefix(200).description
        }
    }
}

enum PinnedHTTPClientError: Error {
    case timedOut
    case closedEarly
    case headTooLarge
}

extension PushEndpoint {
    /// The `Host` header: the host (bracketed when an IPv6 address), with the port unless it is the scheme's own.
    var hostHeader: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        let isDefault = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
        return isDefault ? shown : "\(shown):\(port)"
    }
}

/// Reads the answer's status and `Retry-After`, and nothing more; the connection closes after it.
private final class AnswerHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let answer: EventLoopPromise<PushResponse>
    private var head: HTTPResponseHead?
    private var done = false

    init(answer: EventLoopPromise<PushResponse>) {
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            finish(context) {
                guard let head = self.head else { return .failure(PinnedHTTPClientError.closedEarly) }
                return .success(
                    PushResponse(status: Int(head.status.code), retryAfter: head.headers.first(name: "Retry-After")))
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A head without its end (a server that closes instead of ending the body) still answers.
        finish(context) {
            guard let head = self.head else { return .failure(PinnedHTTPClientError.closedEarly) }
            return .success(
                PushResponse(status: Int(head.status.code), retryAfter: head.headers.first(name: "Retry-After")))
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(context) { .failure(error) }
    }

    private func finish(_ context: ChannelHandlerContext, _ result: () -> Result<PushResponse, any Error>) {
        guard !done else { return }
        done = true
        answer.completeWith(result())
        context.close(promise: nil)
    }
}
