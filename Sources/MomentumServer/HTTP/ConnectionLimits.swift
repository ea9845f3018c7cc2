import HummingbirdCore
import Logging
import NIOCore

/// A connection's first request must finish its headers within `timeout`, or the connection is
/// closed: a client that opens connections and trickles header bytes cannot hold them for ever.
/// (Later requests on a kept-alive connection are held to the HTTP channel's idle timeout, which
/// counts from the previous answer.)
///
/// Wraps the HTTP channel: the deadline handler goes first in the pipeline, before the HTTP
/// decoder, and watches the raw bytes for the blank line that ends the headers.
struct HeaderDeadlineChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let timeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(HeaderDeadlineHandler(timeout: timeout), position: .first)
        }.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Closes the connection unless `\r\n\r\n` (the end of the first request's headers) arrives in
/// time; after that it only passes bytes on.
final class HeaderDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var isDone = false
    /// The last bytes seen, so a header end split across reads is still found.
    private var tail: [UInt8] = []

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !isDone {
            let buffer = unwrapInboundIn(data)
            if Self.endsHeaders(tail: &tail, buffer.readableBytesView) {
                isDone = true
                deadline?.cancel()
                deadline = nil
            }
        }
        context.fireChannelRead(data)
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard deadline == nil, !isDone else { return }
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    /// Whether `\r\n\r\n` appears in `tail` followed by `bytes`; keeps the last three bytes in `tail`.
    static func endsHeaders(tail: inout [UInt8], _ bytes: some Collection<UInt8>) -> Bool {
        let marker: [UInt8] = [13, 10, 13, 10]
        var window = tail
        for byte in bytes {
            window.append(byte)
            if window.count > 4 { window.removeFirst(window.count - 4) }
            if window == marker { return true }
        }
        tail = Array(window.suffix(3))
        return false
    }
}
