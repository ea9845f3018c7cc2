import Foundation
import MomentumCore
import MomentumStoreContract

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A page the server answers to a pull: the server's own ``SyncPage``, as JSON.
public typealias SyncPullAnswer = SyncPage

/// How a replica talks to its server: push a batch, pull a page.
public protocol SyncTransport: Sendable {
    /// The server's sequence number of each change.
    func push(_ changes: [ChangeMessage]) async throws(SyncClientError) -> [Int64?]
    func pull(after cursor: Int64, limit: Int) async throws(SyncClientError) -> SyncPullAnswer
}

/// Why a sync did not finish. What was already merged stays merged; unsent changes stay queued.
public enum SyncClientError: Error, Equatable, Sendable {
    case invalidServerURL(String)
    case unreachable(server: String, reason: String)
    case unauthorized
    /// The server answered with an error: its status, code and message.
    case refused(status: Int, code: String, message: String)
    case badAnswer(server: String, detail: String)
    case sync(SyncError)
    case store(StoreError)
}

/// What one sync did.
public struct SyncReport: Sendable, Equatable {
    public var pushed = 0
    /// Changes pulled that were new here.
    public var pulled = 0
    /// Whether the server's log was behind the cursor, so everything was pulled again.
    public var fullSync = false
    /// Pulled stamps too far ahead of this machine's clock (applied anyway).
    public var farAhead: [HybridTimestamp] = []
}

/// Sync for one person: the server's side (``acceptPush(_:)``, pulls, the live feed's changes)
/// over any ``SyncLogStore``, and — on SQLite, where the terminal keeps a full replica —
/// `momentum sync`, which pushes the outbox, then pulls what is new.
public struct SyncService: Sendable {
    private let log: any SyncLogStore
    /// The terminal's replica; `nil` for a person kept on PostgreSQL (a server, never a client).
    private let replica: (any TerminalReplicaStore)?
    private let now: @Sendable () -> Date

    public init(replica: any TerminalReplicaStore & SyncLogStore, now: @escaping @Sendable () -> Date) {
        self.log = replica
        self.replica = replica
        self.now = now
    }

    /// The server's side only, over `log` (a person kept on PostgreSQL).
    public init(log: any SyncLogStore, now: @escaping @Sendable () -> Date) {
        self.log = log
        self.replica = nil
        self.now = now
    }

    /// The terminal's replica, or why there is none.
    private var database: any TerminalReplicaStore {
        get throws(StoreError) {
            guard let replica else { throw .unavailable(what: "the terminal's sync replica") }
            return replica
        }
    }

    public static let pullPageSize = 500

    /// Pushes every queued local change (in batches of at most 1000), then pulls every change
    /// after the cursor, page by page, each page merged in one transaction with the cursor.
    public func sync(server: String, transport: any SyncTransport) async throws(SyncClientError) -> SyncReport {
        var report = SyncReport()
        do {
            try database.connectSyncServer(server, at: now())
            while true {
                let pending = try database.pendingChanges(limit: ChangeBatch.maximumCount)
                guard !pending.isEmpty else { break }
                _ = try await transport.push(pending.map(\.change))
                try database.acknowledgePushed(pending.map(\.seq))
                report.pushed += pending.count
            }
            var cursor = try database.syncStatus().cursor
            while true {
                let page: SyncPullAnswer
                do {
                    page = try await transport.pull(after: cursor, limit: Self.pullPageSize)
                } catch {
                    // The server lost its log (restored from a backup): everything again.
                    guard case .refused(_, "cursor_beyond_head", _) = error, cursor > 0 else { throw error }
                    report.fullSync = true
                    cursor = 0
                    continue
                }
                let result = try database.applyPulled(page.changes, cursor: page.last, at: now())
                report.pulled += result.applied
                report.farAhead += result.farAhead
                cursor = page.last
                if !page.more || page.changes.isEmpty { break }
            }
            try database.markSynced(at: now())
            return report
        } catch let error as SyncClientError {
            throw error
        } catch let error as SyncError {
            throw .sync(error)
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.database(message: "\(error)"))
        }
    }

    public func status() throws(StoreError) -> SyncStatus {
        try database.syncStatus()
    }

    /// The last sequence number of the server's log.
    public func head() async throws(StoreError) -> Int64 {
        try await log.syncHead()
    }

    // MARK: The server's side

    /// Merges a pushed batch (checked whole first), in one transaction with the batches other
    /// devices push at the same moment (group commit): each change's sequence number, a
    /// duplicate's earlier one.
    public func acceptPush(_ changes: [ChangeMessage]) async throws(SyncError) -> [Int64?] {
        try await log.acceptPushGrouped(changes, at: now())
    }

    /// A page of the log after `cursor` as the pull route's JSON answer (see
    /// ``MomentumDatabase/pullPageJSON(after:limit:at:)``).
    public func pullPageJSON(after cursor: Int64, limit: Int) async throws(SyncError) -> Data {
        try await log.pullPageJSON(after: cursor, limit: limit, at: now())
    }

    /// The last change of `field` of `key`, if any is known.
    public func lastChange(of field: String, in key: SyncEntityKey) async throws(StoreError) -> FieldVersion? {
        try await log.lastChange(of: field, in: key)
    }

    /// Calls `observer` with every change logged from now on, in order: merged pushes and local
    /// writes alike (the server's live feed).
    public func observeChanges(_ observer: @escaping @Sendable ([LoggedChange]) -> Void) async {
        await log.observeChanges(observer)
    }
}

/// Push and pull over HTTP(S) with an optional bearer token.
public struct HTTPSyncTransport: SyncTransport {
    public let server: URL
    public let token: String?
    /// The language the server's refusals are asked in (`Accept-Language`).
    public let language: Language

    /// The transport for a server address such as `http://192.168.1.20:8080`.
    public init(server text: String, token: String?, language: Language = .english) throws(SyncClientError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else { throw .invalidServerURL(text) }
        server = url
        self.token = token
        self.language = language
    }

    private struct PushBody: Encodable {
        var changes: [ChangeMessage]
    }

    private struct PushAnswer: Decodable {
        var seqs: [Int64?]
    }

    private struct ErrorAnswer: Decodable {
        struct Detail: Decodable {
            var code: String
            var message: String
        }
        var error: Detail
    }

    public func push(_ changes: [ChangeMessage]) async throws(SyncClientError) -> [Int64?] {
        var request = URLRequest(url: server.appendingPathComponent("api/v1/sync/push"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        do {
            request.httpBody = try JSONEncoder().encode(PushBody(changes: changes))
        } catch {
            // A pending change that does not encode (a number that is not finite) is not sent as
            // an empty push: the sync stops with what the encoder said.
            throw .store(.database(message: "a pending change does not encode as JSON: \(error)"))
        }
        return try await send(request, as: PushAnswer.self).seqs
    }

    public func pull(after cursor: Int64, limit: Int) async throws(SyncClientError) -> SyncPullAnswer {
        var components = URLComponents(
            url: server.appendingPathComponent("api/v1/sync/pull"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "after", value: "\(cursor)"), URLQueryItem(name: "limit", value: "\(limit)"),
        ]
        guard let url = components?.url else { throw .invalidServerURL(server.absoluteString) }
        return try await send(URLRequest(url: url), as: SyncPullAnswer.self)
    }

    private func send<Answer: Decodable>(_ request: URLRequest, as type: Answer.Type) async throws(SyncClientError)
        -> Answer
    {
        var request = request
        request.timeoutInterval = 30
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.setValue(language.rawValue, forHTTPHeaderField: "Accept-Language")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw .unreachable(server: server.absoluteString, reason: error.localizedDescription)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            if status == 401 { throw .unauthorized }
            // try?: an error answer that is not Momentum's JSON (a proxy's page) is reported below
            // as a bad answer with its HTTP status.
            if let answer = try? JSONDecoder().decode(ErrorAnswer.self, from: data) {
                throw .refused(status: status, code: answer.error.code, message: answer.error.message)
            }
            throw .badAnswer(server: server.absoluteString, detail: "HTTP \(status)")
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            // What the decoder says names Swift types; the status is what a person can check.
            throw .badAnswer(server: server.absoluteString, detail: "HTTP \(status)")
        }
    }
}
