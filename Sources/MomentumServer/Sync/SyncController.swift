import Foundation
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStore
import MomentumStoreContract

/// `/api/v1/sync`: devices push their changes and pull everyone's (docs/sync.md).
///
/// - `POST /api/v1/sync/push` `{"changes": [ChangeMessage…]}` → `{"seqs": [12, 13, …]}`: the batch
///   is checked whole (at most 1000 changes, stamps at most 5 minutes ahead), then merged in one
///   transaction; each change gets its sequence number (a duplicate its earlier one).
/// - `GET /api/v1/sync/pull?after=N&limit=L` → `{"changes": [{"seq", "change"}…], "last", "more"}`.
/// - `GET /api/v1/sync/last-change?type=&id=&field=` → the field's value, stamp and device.
struct SyncController {
    let sync: SyncService
    let household: HouseholdService
    /// Whose routes these are: a push names only their own timers (docs/people.md).
    let person: Person.ID

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
        // Answered as soon as its group is merged: the rest of this request runs at high priority,
        // which on Linux is a thread of its own, not the back of the queue of reads waiting for
        // Swift's threads (under load a push waited there twice — before and after its merge).
        // The connection's later requests keep the priority (a task's is never lowered). Swift 6.2's
        // API: on macOS before 26 a push waits as before.
        if #available(macOS 26, *) { withUnsafeCurrentTask { $0?.escalatePriority(to: .high) } }
        let body = try await RequestBody.decode(PushBody.self, from: request)
        if let index = try await household.changeOfSomeoneElse(in: body.changes, pushedBy: person) {
            var refusal = APIError(
                .unprocessableContent, code: "not_yours", key: .apiSyncNotYours, arguments: ["index": "\(index)"])
            refusal.index = index
            throw refusal
        }
        do {
            return JSONResponse(PushAnswer(seqs: try await sync.acceptPush(body.changes)))
        } catch {
            throw Self.apiError(error)
        }
    }

    /// The page is written by the store around the changes' logged JSON texts, which are passed
    /// on unread: decoding and encoding every change again cost most of a pull.
    @Sendable func pull(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        func number(_ name: Substring, default value: Int64) throws -> Int64 {
            guard let text = query[name] else { return value }
            guard let number = Int64(String(text)) else {
                throw APIError.badRequest(
                    .apiWholeNumber, ["name": String(name), "value": String(text.prefix(40))], code: "invalid_cursor")
            }
            return number
        }
        let after = try number("after", default: 0)
        let limit = try number("limit", default: Int64(Self.defaultPullLimit))
        do {
            return await JSONBody.response(try sync.pullPageJSON(after: after, limit: Int(clamping: limit)))
        } catch {
            throw Self.apiError(error)
        }
    }

    struct FieldAnswer: Encodable {
        var value: SyncValue
        var stamp: String
        var device: String
        /// Who made it, for "changed by" in the page's words (never the raw `web@host`).
        var by: Author
    }

    /// `{"kind": "browser"}` (a browser without a name), `{"kind": "terminal", "host": "laptop"}` or
    /// `{"kind": "device", "name": "Anna's phone"}`: ``ChangeAuthor`` as JSON.
    struct Author: Encodable {
        var kind: String
        var host: String?
        var name: String?

        init(_ author: ChangeAuthor) {
            switch author {
            case .browser: kind = "browser"
            case .terminal(let host): (kind, self.host) = ("terminal", host)
            case .device(let name): (kind, self.name) = ("device", name)
            }
        }
    }

    @Sendable func lastChange(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<
        FieldAnswer
    > {
        let query = request.uri.queryParameters
        guard let typeText = query["type"], let id = query["id"], let field = query["field"] else {
            throw APIError.badRequest(.apiSyncFieldQuery)
        }
        guard let type = SyncEntityType(rawValue: String(typeText)) else {
            throw APIError.invalid(.apiSyncUnknownType, ["type": String(typeText.prefix(40))], code: "unknown_type")
        }
        guard let canonical = type.canonicalID(String(id)) else {
            let id = String(id.prefix(40))
            throw APIError(.unprocessableContent, code: "malformed_id") { catalog in
                catalog.format(.apiSyncMalformedID, ["id": id, "type": catalog[type.nameKey]])
            }
        }
        guard let version = try await sync.lastChange(of: String(field), in: SyncEntityKey(type: type, id: canonical))
        else {
            let field = String(field.prefix(40))
            throw APIError(.notFound, code: "not_found") { catalog in
                catalog.format(.apiSyncNoChange, ["field": field, "type": catalog[type.nameKey], "id": canonical])
            }
        }
        return JSONResponse(
            FieldAnswer(
                value: version.value, stamp: version.stamp.description, device: version.device,
                by: Author(ChangeAuthor(device: version.device))))
    }

    /// A plain GET of the live feed's address (no WebSocket upgrade).
    @Sendable func live(_ request: Request, context: BasicRequestContext) throws -> Response {
        throw APIError(.upgradeRequired, code: "websocket_required", key: .apiLiveIsWebSocket)
    }

    /// A sync refusal with the code `momentum sync` and the browser read; its sentence is the one
    /// the terminal shows for the same refusal.
    static func apiError(_ error: any Error) -> any Error {
        guard let error = error as? SyncError else { return error }
        switch error {
        case .batch(.tooManyChanges):
            return APIError(.contentTooLarge, code: "too_many_changes", describing: error)
        case .batch(.invalidChange(let index, let problem)):
            var apiError = APIError(.unprocessableContent, code: code(of: problem)) { catalog in
                catalog.format(
                    .apiSyncChangeAt,
                    ["index": "\(index)", "reason": ErrorMessages.message(for: error, catalog: catalog)])
            }
            apiError.index = index
            return apiError
        case .cursorBeyondHead:
            return APIError(.conflict, code: "cursor_beyond_head", describing: error)
        case .invalidPage:
            return APIError(.badRequest, code: "invalid_page", describing: error)
        case .invalidPulledChange:
            return APIError(.unprocessableContent, code: "invalid_value", describing: error)
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
}
