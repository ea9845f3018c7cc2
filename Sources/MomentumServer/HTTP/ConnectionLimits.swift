import Foundation

/// What a connection owes the server and by when, and how many connections it keeps open.
///
/// Every number is in docs/security.md ("Limits and timeouts"). The defaults follow what web
/// servers facing the internet use: nginx's header and keep-alive timeouts, and the body rule of
/// Apache's `mod_reqtimeout` (`body=20,MinRate=500`).
public struct ConnectionLimits: Sendable, Equatable {
    /// How long a client may take to send its first request's head (request line and headers).
    /// A client that trickles header bytes is cut off too: only a complete head stops the clock.
    public var headerTimeout: Duration = .seconds(30)
    /// How long a kept-alive connection may sit idle between an answer and the next request.
    public var idleTimeout: Duration = .seconds(60)
    /// The body's pace: see ``BodyPace``.
    public var bodyPace = BodyPace()
    /// Connections open at once; at the cap the idle ones longest unused are closed to make room,
    /// and a new connection is refused only when every open one is busy with a request.
    public var maxConnections: Int
    /// Connections open at once from one address, for addresses other than loopback (behind a
    /// reverse proxy on this machine every client is `127.0.0.1`, so a cap per address would be
    /// a cap on everyone).
    public var maxConnectionsPerAddress = 64

    public init(maxConnections: Int = Self.maxConnections(fileDescriptorLimit: Self.fileDescriptorLimit())) {
        self.maxConnections = maxConnections
    }

    /// The connection cap for a process that may open `limit` file descriptors: half of what is
    /// left after 256 for the database, audio files and renders, between 32 and 4096.
    public static func maxConnections(fileDescriptorLimit limit: Int) -> Int {
        min(4096, max(32, (limit - 256) / 2))
    }

    /// The process's soft limit on open file descriptors (`ulimit -n`).
    public static func fileDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return Int(clamping: limit.rlim_cur)  // RLIM_INFINITY is the largest value: clamped to Int.max
    }
}

/// How long a request body may take to arrive: `timeout` for the first bytes, and one second
/// more for every `minimumRate` bytes that have come — so a fast upload of any size is never cut,
/// and a client sending a byte every few seconds is cut after `timeout`.
///
/// Only time the server spends waiting for the client counts: while a handler is busy with what
/// it has read (writing an upload to disk, say) the clock stands still.
///
/// ```swift
/// let pace = BodyPace()                                   // 20 s, then 500 bytes a second
/// pace.allowance(afterReceiving: 5_000)                   // 30 s
/// pace.isOverdue(waited: .seconds(21), received: 1)      // true
/// ```
public struct BodyPace: Sendable, Equatable {
    public var timeout: Duration = .seconds(20)
    /// Bytes per second; each such amount received earns one more second.
    public var minimumRate = 500

    public init(timeout: Duration = .seconds(20), minimumRate: Int = 500) {
        self.timeout = timeout
        self.minimumRate = max(1, minimumRate)
    }

    /// The waiting the client is allowed once `received` bytes of the body have arrived.
    public func allowance(afterReceiving received: Int) -> Duration {
        let earned = Duration.seconds(Double(max(0, received)) / Double(minimumRate))
        return timeout + earned
    }

    /// Whether a client that kept the server waiting `waited` for `received` bytes is too slow.
    public func isOverdue(waited: Duration, received: Int) -> Bool {
        waited > allowance(afterReceiving: received)
    }
}
