import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `/api/v1/timers`: focus timers with their checklists, and their runs (start, pause, reset).
/// Timers and items are named in paths by id (a name works too, as in the terminal).
struct FocusTimersController {
    let timers: FocusTimerService
    let now: @Sendable () -> Date

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get(use: list)
        group.post(use: add)
        group.get(":id", use: show)
        group.patch(":id", use: edit)
        group.delete(":id", use: delete)
        group.post(":id/move", use: move)
        group.get(":id/timeline", use: timeline)
        group.post(":id/start", use: start)
        group.post(":id/pause", use: pause)
        group.post(":id/reset", use: reset)
        group.post(":id/items", use: addItem)
        group.patch(":id/items/:item", use: editItem)
        group.delete(":id/items/:item", use: deleteItem)
        group.post(":id/items/:item/move", use: moveItem)
    }

    /// The services' timer view, which `momentum timer list|show --json` prints too.
    typealias Timer = FocusTimerView

    struct Timers: Encodable {
        var timers: [Timer]
    }

    struct NewTimer: Decodable {
        var name: String
        var durationMs: Int64?
        var items: [String]?
        var icon: String?
        var color: String?
        var notes: String?
    }

    struct TimerChanges: Decodable {
        var name: String?
        var durationMs: Int64?
        var icon: String?
        var color: String?
        var notes: String?
    }

    struct Position: Decodable {
        /// From 1.
        var position: Int
    }

    struct NewItem: Decodable {
        var text: String
    }

    struct ItemChanges: Decodable {
        var text: String?
        var done: Bool?
    }

    @Sendable func list(_ request: Request, context: BasicRequestContext) throws -> JSONResponse<Timers> {
        let instant = now()
        return JSONResponse(Timers(timers: try timers.timers().map { Timer($0, at: instant) }))
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) throws -> JSONResponse<Timer> {
        answer(try timers.timer(named: try timerID(context)))
    }

    @Sendable func add(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let body = try await RequestBody.decode(NewTimer.self, from: request)
        let timer = try timers.addTimer(
            name: body.name, duration: body.durationMs.map { .milliseconds($0) } ?? FocusTimer.defaultDuration,
            items: body.items ?? [], icon: body.icon ?? FocusTimer.defaultIcon,
            color: body.color ?? FocusTimer.defaultColor, notes: body.notes ?? "")
        return answer(timer, status: .created)
    }

    @Sendable func edit(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let body = try await RequestBody.decode(TimerChanges.self, from: request)
        let edit = FocusTimerService.Edit(
            name: body.name, duration: body.durationMs.map { .milliseconds($0) }, icon: body.icon, color: body.color,
            notes: body.notes)
        return answer(try timers.editTimer(named: try timerID(context), edit))
    }

    @Sendable func delete(_ request: Request, context: BasicRequestContext) throws -> Response {
        try timers.deleteTimer(named: try timerID(context))
        return Response(status: .noContent)
    }

    @Sendable func move(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timers> {
        let body = try await RequestBody.decode(Position.self, from: request)
        let instant = now()
        let moved = try timers.moveTimer(named: try timerID(context), to: body.position)
        return JSONResponse(Timers(timers: moved.map { Timer($0, at: instant) }))
    }

    @Sendable func timeline(_ request: Request, context: BasicRequestContext) throws -> JSONResponse<Timeline> {
        JSONResponse(try timers.timer(named: try timerID(context)).timeline())
    }

    @Sendable func start(_ request: Request, context: BasicRequestContext) throws -> JSONResponse<Timer> {
        answer(try timers.start(named: try timerID(context)))
    }

    @Sendable func pause(_ request: Request, context: BasicRequestContext) throws -> JSONResponse<Timer> {
        answer(try timers.pause(named: try timerID(context)))
    }

    @Sendable func reset(_ request: Request, context: BasicRequestContext) throws -> JSONResponse<Timer> {
        answer(try timers.reset(named: try timerID(context)))
    }

    @Sendable func addItem(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let body = try await RequestBody.decode(NewItem.self, from: request)
        let timer = try timers.editTimer(named: try timerID(context), FocusTimerService.Edit(addItems: [body.text]))
        return answer(timer, status: .created)
    }

    @Sendable func editItem(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let body = try await RequestBody.decode(ItemChanges.self, from: request)
        let (timerID, itemID) = (try timerID(context), try itemID(context))
        var timer = try timers.timer(named: timerID)
        if let text = body.text { timer = try timers.renameItem(itemID, ofTimer: timerID, to: text) }
        if let done = body.done { timer = try timers.setItem(itemID, ofTimer: timerID, done: done) }
        return answer(timer)
    }

    @Sendable func deleteItem(_ request: Request, context: BasicRequestContext) throws -> JSONResponse<Timer> {
        answer(
            try timers.editTimer(
                named: try timerID(context), FocusTimerService.Edit(removeItems: [try itemID(context)])))
    }

    @Sendable func moveItem(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let body = try await RequestBody.decode(Position.self, from: request)
        return answer(try timers.moveItem(try itemID(context), ofTimer: try timerID(context), to: body.position))
    }

    private func answer(_ timer: FocusTimer, status: HTTPResponse.Status = .ok) -> JSONResponse<Timer> {
        JSONResponse(Timer(timer, at: now()), status: status)
    }

    private func timerID(_ context: BasicRequestContext) throws -> String {
        guard let id = context.parameters.get("id"), !id.isEmpty else { throw APIError.notFound(.apiNoTimer) }
        return id
    }

    private func itemID(_ context: BasicRequestContext) throws -> String {
        guard let id = context.parameters.get("item"), !id.isEmpty else { throw APIError.notFound(.apiNoChecklistItem) }
        return id
    }
}
