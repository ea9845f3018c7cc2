import Foundation
import Hummingbird
import MomentumCore
import MomentumStore

/// `/api/v1/sync`: devices push their changes and pull everyone's (docs/sync.md).
///
/// - `POST /api/v1/sync/push` `{"changes": [ChangeMessage…]}` → `{"seqs": [12, 13, …]}`: the batch
///   is checked whole (at most 1000 changes, stamps at most 5 minutes ahead), then merged in one
///   transaction; each change gets its sequence number (a duplicate its earlier one).
/// - `GET /api/v1/sync/pull?after=N&limit=L` → `{"changes": [{"seq", "change"}…], "last", "more"}`.
/// - `GET /api/v1/sync/last-change?type=&id=&field=` → the field's value, stamp and device.
struct SyncController {
    let database: MomentumDatabase
    let now: @Sendable () -> Date

    static let defaultPullLimit = 500

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.post("sync/push", use: push)
        group.get("sync/pull", use: pull)
        group.get("sync/last-change", use: lastChange)
        group.get("live", use: live)
    }

    struct PushBody: Decodable {
        var changes: [ChangeMessage]
    }

    struct PushAnswer: Encodable {
        var seqs: [Int64?]
    }

    @Sendable func push(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<PushAnswer> {
        let body = try await RequestBody.decode(PushBody.self, from: request)
        do {
            return JSONResponse(PushAnswer(seqs: try database.acceptPush(body.changes, at: now())))
        } catch {
            throw Self.apiError(error)
        }
    }

    /// The page is written around the changes' logged JSON texts, which are passed on unread:
    /// decoding and encoding every change again cost most of a pull.
    @Sendable func pull(_ request: Request, context: BasicRequestContext) throws -> Response {
        let query = request.uri.queryParameters
        func number(_ name: Substring, default value: Int64) throws -> Int64 {
            guard let text = query[name] else { return value }
            guard let number = Int64(String(text)) else {
                throw APIError.badRequest("`\(name)` must be a whole number, not `\(text)`.", code: "invalid_cursor")
            }
            return number
        }
        let after = try number("after", default: 0)
        let limit = try number("limit", default: Int64(Self.defaultPullLimit))
        do {
            let page = try database.loggedChangeTexts(after: after, limit: Int(clamping: limit), at: now())
            var body = #"{"changes":["#
            body.reserveCapacity(page.changes.reduce(64) { $0 + $1.message.utf8.count + 32 })
            for (index, logged) in page.changes.enumerated() {
                body += (index == 0 ? "" : ",") + #"{"seq":\#(logged.seq),"change":"# + logged.message + "}"
            }
            body += #"],"last":\#(page.last),"more":\#(page.more)}"#
            return JSONBody.response(Data(body.utf8))
        } catch {
            throw Self.apiError(error)
        }
    }

    struct FieldAnswer: Encodable {
        var value: SyncValue
        var stamp: String
        var device: String
    }

    @Sendable func lastChange(_ request: Request, context: BasicRequestContext) throws -> JSONResponse<FieldAnswer> {
        let query = request.uri.queryParameters
        guard let typeText = query["type"], let id = query["id"], let field = query["field"] else {
            throw APIError.badRequest("`type`, `id` and `field` are needed.")
        }
        guard let type = SyncEntityType(rawValue: String(typeText)) else {
            throw APIError.invalid("There is no synced type `\(typeText)`.", code: "unknown_type")
        }
        guard let canonical = type.canonicalID(String(id)) else {
            throw APIError.invalid("`\(id)` is not the id of a \(type.rawValue).", code: "malformed_id")
        }
        guard
            let version = try database.lastChange(
                of: String(field), in: SyncEntityKey(type: type, id: canonical))
        else { throw APIError.notFound("No change of `\(field)` of \(type.rawValue) \(canonical) is known.") }
        return JSONResponse(
            FieldAnswer(value: version.value, stamp: version.stamp.description, device: version.device))
    }

    /// A plain GET of the live feed's address (no WebSocket upgrade).
    @Sendable func live(_ request: Request, context: BasicRequestContext) throws -> Response {
        throw APIError(
            .upgradeRequired, code: "websocket_required",
            message: "/api/v1/live is a WebSocket: connect with `Upgrade: websocket`.")
    }

    static func apiError(_ error: any Error) -> any Error {
        guard let error = error as? SyncError else { return error }
        switch error {
        case .batch(.tooManyChanges(let count, let maximum)):
            return APIError(
                .contentTooLarge, code: "too_many_changes",
                message: "A batch holds at most \(maximum) changes; this one has \(count). Nothing was stored.")
        case .batch(.invalidChange(let index, let problem)):
            var apiError = APIError.invalid(
                "Change \(index) (from 0): \(describe(problem)). Nothing of the batch was stored.",
                code: code(of: problem))
            apiError.index = index
            return apiError
        case .cursorBeyondHead(let cursor, let head):
            return APIError(
                .conflict, code: "cursor_beyond_head",
                message: "The cursor \(cursor) is beyond the server's last change \(head): pull again from 0.")
        case .invalidPage(let after, let limit):
            return APIError.badRequest(
                "`after` must be 0 or more and `limit` 1–\(MomentumDatabase.maximumPullLimit) (got \(after), \(limit)).",
                code: "invalid_page")
        case .invalidPulledChange(let seq, let problem):
            return APIError.invalid("Change \(seq): \(describe(problem)).")
        case .store(let storeError):
            return storeError
        }
    }

    static func code(of problem: ChangeError) -> String {
        switch problem {
        case .unknownEntityType: "unknown_type"
        case .malformedEntityID: "malformed_id"
        case .unknownField: "unknown_field"
        case .wrongValue: "wrong_value"
        case .malformedOperation: "malformed_operation"
        case .notDeletable: "not_deletable"
        case .invalidDevice: "invalid_device"
        case .stamp(.tooFarAhead): "stamp_too_far_ahead"
        case .stamp: "malformed_stamp"
        }
    }

    static func describe(_ problem: ChangeError) -> String {
        switch problem {
        case .unknownEntityType(let type): "there is no synced type `\(type)`"
        case .malformedEntityID(let type, let id): "`\(id)` is not the id of a \(type.rawValue)"
        case .unknownField(let type, let field): "a \(type.rawValue) has no field `\(field)`"
        case .wrongValue(let type, let field, let expected): "`\(field)` of a \(type.rawValue) takes \(expected)"
        case .malformedOperation(let op): "`op` must be `set` with `field` and `value`, or `delete` alone (got `\(op)`)"
        case .notDeletable(let type): "a \(type.rawValue) cannot be deleted"
        case .invalidDevice(let device): "the device `\(device)` must be 1–\(Change.maximumDeviceLength) characters"
        case .stamp(.tooFarAhead(let stamp, _)):
            "the stamp \(stamp) is more than 5 minutes ahead of the server's clock"
        case .stamp(let clockError): "the stamp is malformed (\(clockError))"
        }
    }
}
