import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// The HTTP channel (with its WebSocket upgrade) with a ``ConnectionGuardHandler`` after its
/// HTTP decoder and upgrade handler, so every connection is held to ``ConnectionLimits``, and
/// closed once its handling ends whatever happened (Hummingbird leaves a connection open when the first request's head cannot be
/// parsed: a client could hold such connections for ever). The requests of the connection are
/// answered with ``ClientConnection/current`` naming it.
struct GuardedHTTPChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let inner: HTTP1WebSocketUpgradeChannel
    let connections: OpenConnections

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let connections = connections
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // Last for now: after the decoder and the upgrade handler, which passes the request on
            // once it decided not to upgrade (and adds the HTTP handlers after this one), or tells
            // it the connection became a WebSocket. Between the decoder and the upgrade handler
            // it would see the raw bytes that follow an upgrade.
            let guardHandler = ConnectionGuardHandler(
                limits: connections.limits, connections: connections, logger: logger)
            try channel.pipeline.syncOperations.addHandler(guardHandler, position: .last)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        // What Hummingbird logs here are clients' faults (a head that could not be parsed, a
        // connection reset); the guard logs them at debug, so a flood of bad connections cannot
        // flood the log with an error per socket.
        var quiet = logger
        quiet.logLevel = .critical
        let connection = ClientConnection(channel: value.channel)
        await ClientConnection.$current.withValue(connection) {
            await inner.handle(value: value, logger: quiet)
        }
        // try?: the connection is done; the handler has mostly closed it already (then close
        // throws "already closed") or the client has gone, and nothing is left to send.
        try? await value.channel.close()
    }
}

/// The connection whose request is being answered: its channel and the client's address as the
/// connection has it (a reverse proxy's own address when there is one: `X-Forwarded-For` is not
/// trusted).
struct ClientConnection: Sendable {
    let channel: any Channel
    var address: String? { channel.remoteAddress?.ipAddress }

    @TaskLocal static var current: ClientConnection?
}
