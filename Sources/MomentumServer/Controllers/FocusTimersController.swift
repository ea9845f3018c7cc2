import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `/api/v1/timers`: focus timers with their checklists, and their runs (start, pause, reset).
/// Timers and items are named in paths by id (a name works too, as in the terminal).
///
/// The list holds the person's own timers and those others of the household shared with them
/// (marked with their `owner`); a shared timer is named by its id, and its sharers may run, edit
/// and tick it, while only its owner moves, deletes or shares it (`PUT /{id}/sharing`).
struct FocusTimersController {
    let timers: FocusTimerService
    /// What a page did to the timers while the server was out of reach.
    let intentService: FocusTimerIntentService
    let household: HouseholdService
    /// Whose routes these are.
    let person: Person.ID
    /// Told whom a timer's sharing reached, so their timers refresh live.
    let liveFeeds: LiveFeeds
    let now: @Sendable () -> Date

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get(use: list)
        group.post(use: add)
        group.post("intents", use: applyIntents)
        group.get(":id", use: show)
        group.patch(":id", use: edit)
        group.delete(":id", use: delete)
        group.put(":id/sharing", use: share)
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

    /// The services' timer view, which `momentum timer list|show --json` prints too, with whose it
    /// is (`owner`, for a timer someone shared) and whom it is shared with.
    struct Timer: Encodable {
        var view: FocusTimerView
        /// The owner's name, for a timer another person shared; absent for one's own.
        var owner: String?
        /// The names of the people who see it too.
        var sharedWith: [String]

        init(_ timer: FocusTimer, at instant: Date, owner: String? = nil, sharedWith: [String] = []) {
            view = FocusTimerView(timer, at: instant)
            self.owner = owner
            self.sharedWith = sharedWith
        }

        enum CodingKeys: String, CodingKey {
            case owner
            case sharedWith
        }

        func encode(to encoder: any Encoder) throws {
            try view.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(owner, forKey: .owner)
            try container.encode(sharedWith, forKey: .sharedWith)
        }
    }

    struct Timers: Encodable {
        var timers: [Timer]
    }

    struct Sharing: Decodable {
        /// The names of the people to share with; empty shares with no one.
        var with: [String]
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

    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timers> {
        JSONResponse(Timers(timers: try await listed()))
    }

    /// The list as `GET` answers it: one's own timers with whom each is shared, then those shared.
    func listed() async throws -> [Timer] {
        let instant = now()
        let shares = try await household.timerShares(ownedBy: person)
        let people = try await household.people()
        let own = try await timers.timers().map { timer in
            let sharees = Set(shares.filter { $0.timerID == timer.id }.map(\.personID))
            return Timer(timer, at: instant, sharedWith: people.filter { sharees.contains($0.id) }.map(\.name))
        }
        let shared = try await sharedTimers().map { shared in
            Timer(shared.timer, at: instant, owner: shared.owner.name)
        }
        return own + shared
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let (service, id) = try await target(context)
        return try await answer(try await service.timer(named: id))
    }

    @Sendable func add(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let body = try await RequestBody.decode(NewTimer.self, from: request)
        let timer = try await timers.addTimer(
            name: body.name, duration: body.durationMs.map { .milliseconds($0) } ?? FocusTimer.defaultDuration,
            items: body.items ?? [], icon: body.icon ?? FocusTimer.defaultIcon,
            color: body.color ?? FocusTimer.defaultColor, notes: body.notes ?? "")
        return try await answer(timer, status: .created)
    }

    @Sendable func edit(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let body = try await RequestBody.decode(TimerChanges.self, from: request)
        let edit = FocusTimerService.Edit(
            name: body.name, duration: body.durationMs.map { .milliseconds($0) }, icon: body.icon, color: body.color,
            notes: body.notes)
        let (service, id) = try await target(context)
        return try await answer(try service.editTimer(named: id, edit))
    }

    @Sendable func delete(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await timers.deleteTimer(named: try timerID(context))
        return Response(status: .noContent)
    }

    @Sendable func move(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timers> {
        let body = try await RequestBody.decode(Position.self, from: request)
        let instant = now()
        let moved = try await timers.moveTimer(named: try timerID(context), to: body.position)
        return JSONResponse(Timers(timers: moved.map { Timer($0, at: instant) }))
    }

    @Sendable func timeline(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timeline> {
        let (service, id) = try await target(context)
        return JSONResponse(try await service.timer(named: id).timeline())
    }

    @Sendable func start(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let (service, id) = try await target(context)
        return try await answer(try await service.start(named: id))
    }

    @Sendable func pause(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let (service, id) = try await target(context)
        return try await answer(try await service.pause(named: id))
    }

    @Sendable func reset(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let (service, id) = try await target(context)
        return try await answer(try await service.reset(named: id))
    }

    @Sendable func share(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let body = try await RequestBody.decode(Sharing.self, from: request)
        let timer = try await timers.timer(named: try timerID(context))
        guard let owner = try await household.person(id: person) else { throw APIError.unauthorized }
        let before = await Set(try household.sharees(ofTimer: timer.id, ownedBy: person).map(\.id))
        let after = await Set(try household.share(timer, of: owner, with: body.with).map(\.id))
        try await liveFeeds.watchSharedTimers(of: person)
        liveFeeds.nudge(before.union(after), [.focusTimer, .checklistItem])
        return try await answer(timer)
    }

    @Sendable func addItem(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let body = try await RequestBody.decode(NewItem.self, from: request)
        let (service, id) = try await target(context)
        return try await answer(
            try service.editTimer(named: id, FocusTimerService.Edit(addItems: [body.text])), status: .created)
    }

    @Sendable func editItem(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let body = try await RequestBody.decode(ItemChanges.self, from: request)
        let ((service, timerID), itemID) = await (try target(context), try itemID(context))
        var timer = try await service.timer(named: timerID)
        if let text = body.text { timer = try await service.renameItem(itemID, ofTimer: timerID, to: text) }
        if let done = body.done { timer = try await service.setItem(itemID, ofTimer: timerID, done: done) }
        return try await answer(timer)
    }

    @Sendable func deleteItem(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let (service, id) = try await target(context)
        return try await answer(
            try await service.editTimer(named: id, FocusTimerService.Edit(removeItems: [try itemID(context)])))
    }

    @Sendable func moveItem(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Timer> {
        let body = try await RequestBody.decode(Position.self, from: request)
        let (service, id) = try await target(context)
        return try await answer(try service.moveItem(try itemID(context), ofTimer: id, to: body.position))
    }

    /// `timer` as its list shows it: with its owner for a shared one, or with whom it is shared.
    private func answer(_ timer: FocusTimer, status: HTTPResponse.Status = .ok) async throws -> JSONResponse<Timer> {
        if try await timers.timers().contains(where: { $0.id == timer.id }) {
            let sharees = try await household.sharees(ofTimer: timer.id, ownedBy: person).map(\.name)
            return JSONResponse(Timer(timer, at: now(), sharedWith: sharees), status: status)
        }
        let owner = try await sharedTimers().first { $0.timer.id == timer.id }?.owner.name
        return JSONResponse(Timer(timer, at: now(), owner: owner), status: status)
    }

    /// The timers others of the household shared with this person.
    private func sharedTimers() async throws -> [HouseholdService.SharedTimer] {
        guard let me = try await household.person(id: person) else { return [] }
        return try await household.timersShared(with: me)
    }

    /// Whose service runs the timer the path names, and its name or id there: one's own timer
    /// (by id or name), else one shared with this person (by its exact id only).
    private func target(_ context: BasicRequestContext) async throws -> (FocusTimerService, String) {
        let id = try timerID(context)
        guard let me = try await household.person(id: person) else { return (timers, id) }
        return try await household.timerService(named: id, for: me)
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
