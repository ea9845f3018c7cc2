import Logging
import NIOCore
import NIOHTTP1

/// Holds one connection to what it owes the server (see ``ConnectionLimits``):
///
/// - its first request's head within the header timeout, else 408 and closed;
/// - a request body at the pace of ``BodyPace``, else 408 and closed;
/// - a head the HTTP parser refuses (a bad method, a control byte, a header without a colon,
///   `Transfer-Encoding` with `Content-Length`, …) answered 400 and closed at once;
/// - an answer sent before its request's body arrived closes the connection, so a client cannot
///   go on trickling a body nobody reads.
///
/// It sits after the HTTP decoder, so it sees decoded request parts and the decoder's errors, and
/// the response parts on their way out. It lets ``OpenConnections`` know when the connection is
/// busy and when it is idle, and leaves the pipeline when the connection becomes a WebSocket
/// (which then counts as busy until it closes).
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A body on its way in: how much came and how long the server has waited for it.
    private struct BodyProgress {
        var received = 0
        var waited = Duration.zero
        /// When the server last asked for more and has not had it yet.
        var waitingSince: NIODeadline?

        func waited(at now: NIODeadline) -> Duration {
            waited + (waitingSince.map { Duration(now - $0) } ?? .zero)
        }
    }

    private let limits: ConnectionLimits
    private let connections: OpenConnections
    private let logger: Logger
    private var id: OpenConnections.ID?
    private var headDeadline: Scheduled<Void>?
    private var bodyCheck: Scheduled<Void>?
    private var body: BodyProgress?
    /// Request heads read whose answers have not ended yet.
    private var unansweredRequests = 0
    private var isResponseOpen = false
    /// This handler answered (400 or 408) and the connection is closing: nothing else goes out.
    private var isAnswered = false

    init(limits: ConnectionLimits, connections: OpenConnections, logger: Logger) {
        self.limits = limits
        self.connections = connections
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimers()
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isAnswered else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            headDeadline?.cancel()
            headDeadline = nil
            unansweredRequests += 1
            if let id { connections.markBusy(id) }
            if Self.hasBody(head) {
                body = BodyProgress()
                scheduleBodyCheck(context, in: limits.bodyPace.allowance(afterReceiving: 0))
            }
        case .body(let buffer):
            if var progress = body {
                let now = context.eventLoop.now
                progress.waited = progress.waited(at: now)
                progress.waitingSince = nil
                progress.received += buffer.readableBytes
                body = progress
            }
        case .end:
            body = nil
            bodyCheck?.cancel()
            bodyCheck = nil
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        // The server asks for more: from now until bytes come, the client keeps it waiting.
        if body != nil, body?.waitingSince == nil { body?.waitingSince = context.eventLoop.now }
        context.read()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !isAnswered else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head:
            isResponseOpen = true
        case .body:
            break
        case .end:
            isResponseOpen = false
            unansweredRequests = max(0, unansweredRequests - 1)
            if unansweredRequests == 0, body != nil {
                // Answered before its body came (a 401, a 413, …): no one will read the rest.
                context.writeAndFlush(data).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
                promise?.succeed()
                return
            }
            if unansweredRequests == 0, let id { connections.markIdle(id) }
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .upgradeComplete = event as? HTTPServerUpgradeEvents {
            // A WebSocket now: busy until it closes, with timeouts of its own (pings).
            cancelTimers()
            body = nil
            context.fireUserInboundEventTriggered(event)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        logger.debug("Malformed request refused", metadata: ["error": "\(error)"])
        answer(context, .badRequest)
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard id == nil, !isAnswered else { return }
        switch connections.admit(context.channel, address: Self.countedAddress(of: context.channel)) {
        case .refused:
            isAnswered = true
            context.close(promise: nil)
        case .admitted(let id):
            self.id = id
            let connections = connections
            context.channel.closeFuture.whenComplete { _ in connections.remove(id) }
            headDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limits.headerTimeout)) {
                self.logger.debug("A request head did not arrive in time")
                self.answer(context, .requestTimeout)
            }
        }
    }

    private func scheduleBodyCheck(_ context: ChannelHandlerContext, in delay: Duration) {
        bodyCheck = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(max(delay, .milliseconds(100)))) {
            self.bodyCheck = nil
            guard let progress = self.body else { return }
            let pace = self.limits.bodyPace
            let waited = progress.waited(at: context.eventLoop.now)
            if pace.isOverdue(waited: waited, received: progress.received) {
                self.logger.debug("A request body came too slowly", metadata: ["received": "\(progress.received)"])
                self.answer(context, .requestTimeout)
            } else {
                self.scheduleBodyCheck(context, in: pace.allowance(afterReceiving: progress.received) - waited)
            }
        }
    }

    /// Ends the connection with `status` (or just closes it when an answer is already under way).
    private func answer(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus) {
        guard !isAnswered else { return }
        isAnswered = true
        cancelTimers()
        guard !isResponseOpen else {
            context.close(promise: nil)
            return
        }
        let head = HTTPResponseHead(
            version: .http1_1, status: status, headers: ["Connection": "close", "Content-Length": "0"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    private func cancelTimers() {
        headDeadline?.cancel()
        headDeadline = nil
        bodyCheck?.cancel()
        bodyCheck = nil
    }

    private static func hasBody(_ head: HTTPRequestHead) -> Bool {
        let length = head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
        return length > 0 || head.headers.contains(name: "transfer-encoding")
    }

    /// The client's address for the cap per address; nil for loopback, which every client of a
    /// reverse proxy on this machine shares.
    static func countedAddress(of channel: any Channel) -> String? {
        guard let address = channel.remoteAddress?.ipAddress else { return nil }
        return IPAddress(address)?.isLoopback == true ? nil : address
    }
}
