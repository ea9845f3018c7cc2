import Logging
import NIOCore
import Synchronization

/// The server's open connections, held under a cap so that `/health` and the person's own
/// requests always find room, whatever other clients do.
///
/// A new connection over the cap (the server's, or its address's for addresses other than
/// loopback) makes room by closing the idle connection unused longest — one waiting for its
/// first request or kept alive between requests. Connections busy with a request or a WebSocket
/// are never closed to make room; when every one is busy the new connection is refused. Both are
/// logged once when they start, and once with a count when they stop, never once per socket.
final class OpenConnections: Sendable {
    struct ID: Hashable, Sendable {
        fileprivate let value: Int
    }

    /// What became of a connection that asked to be let in.
    enum Admission: Equatable {
        case admitted(ID)
        case refused
    }

    private struct Entry {
        var channel: any Channel
        /// The client's address, when it is not loopback: the cap per address counts these.
        var address: String?
        var isBusy = false
        /// When it last became idle (or opened); the oldest idle one is closed first.
        var idleSince: Int
    }

    private struct State {
        var entries: [ID: Entry] = [:]
        var perAddress: [String: Int] = [:]
        var nextID = 0
        /// A logical clock for "idle longest": each change of state takes the next tick.
        var tick = 0
        var refusedSinceLogged = 0
        var closedSinceLogged = 0
    }

    let limits: ConnectionLimits
    private let logger: Logger
    private let state = Mutex(State())

    init(limits: ConnectionLimits, logger: Logger) {
        self.limits = limits
        self.logger = logger
    }

    var count: Int { state.withLock { $0.entries.count } }

    /// Lets `channel` in, closing an idle connection if that makes room, or refuses it.
    func admit(_ channel: any Channel, address: String?) -> Admission {
        let (admission, victims, message) = state.withLock { state -> (Admission, [any Channel], Logger.Message?) in
            var victims: [any Channel] = []
            var message: Logger.Message?
            if let address, state.perAddress[address, default: 0] >= limits.maxConnectionsPerAddress {
                guard let victim = Self.oldestIdle(in: state, from: address) else {
                    return (.refused, [], Self.countRefusal(&state))
                }
                if let closed = Self.remove(victim, from: &state) { victims.append(closed) }
            }
            if state.entries.count >= limits.maxConnections {
                guard let victim = Self.oldestIdle(in: state, from: nil) else {
                    return (.refused, [], Self.countRefusal(&state))
                }
                if let closed = Self.remove(victim, from: &state) { victims.append(closed) }
            }
            if !victims.isEmpty {
                if state.closedSinceLogged == 0 {
                    message = "At the connection cap: closing idle connections to make room for new ones"
                }
                state.closedSinceLogged += victims.count
            }
            let id = ID(value: state.nextID)
            state.nextID += 1
            state.tick += 1
            state.entries[id] = Entry(channel: channel, address: address, idleSince: state.tick)
            if let address { state.perAddress[address, default: 0] += 1 }
            return (.admitted(id), victims, message)
        }
        if let message { logger.warning(message, metadata: ["cap": "\(limits.maxConnections)"]) }
        for victim in victims { victim.close(promise: nil) }
        return admission
    }

    /// A request started on the connection (or it became a WebSocket): it is not closed to make room.
    func markBusy(_ id: ID) {
        state.withLock { state in state.entries[id]?.isBusy = true }
    }

    /// Its request was answered and it waits for the next one: it may be closed to make room.
    func markIdle(_ id: ID) {
        state.withLock { state in
            guard state.entries[id] != nil else { return }
            state.tick += 1
            state.entries[id]?.isBusy = false
            state.entries[id]?.idleSince = state.tick
        }
    }

    /// The connection closed.
    func remove(_ id: ID) {
        let message = state.withLock { state -> Logger.Message? in
            guard Self.remove(id, from: &state) != nil else { return nil }
            // Below nine tenths of the cap the pressure is over: say how much it cost, once.
            guard state.entries.count < limits.maxConnections * 9 / 10,
                state.refusedSinceLogged + state.closedSinceLogged > 0
            else { return nil }
            defer {
                state.refusedSinceLogged = 0
                state.closedSinceLogged = 0
            }
            return """
                Below the connection cap again: \(state.refusedSinceLogged) connections were refused \
                and \(state.closedSinceLogged) idle ones closed to make room
                """
        }
        if let message { logger.notice(message) }
    }

    private static func oldestIdle(in state: State, from address: String?) -> ID? {
        state.entries.filter { !$0.value.isBusy && (address == nil || $0.value.address == address) }
            .min { $0.value.idleSince < $1.value.idleSince }?.key
    }

    @discardableResult
    private static func remove(_ id: ID, from state: inout State) -> (any Channel)? {
        guard let entry = state.entries.removeValue(forKey: id) else { return nil }
        if let address = entry.address {
            state.perAddress[address, default: 1] -= 1
            if state.perAddress[address] == 0 { state.perAddress[address] = nil }
        }
        return entry.channel
    }

    private static func countRefusal(_ state: inout State) -> Logger.Message? {
        state.refusedSinceLogged += 1
        guard state.refusedSinceLogged == 1 else { return nil }
        return "At the connection cap with every connection busy: refusing new connections"
    }
}
