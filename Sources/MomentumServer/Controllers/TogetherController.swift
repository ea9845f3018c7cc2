import Foundation
import Hummingbird
import Logging
import MomentumCore
import MomentumServices

/// `/api/v1/together`: a practice several people of the household sit together (issue 45,
/// docs/together.md). The host makes it from a run's body — a sit, a saved sit, a breathing
/// session, a workout or program — and it starts 5 s later; the invited join, and every phone
/// plays the same stream (`GET …/{code}/audio`) at the session's position, on a clock whose
/// offset to the server's each phone measures over the live feed. Only the host pauses, resumes
/// and stops. Each person's part is logged in their own log, by the one rule, when they leave or
/// when the session ends with them in it; nobody sees anything of another but who is sitting.
///
/// A person who is not invited gets the same 404 as for a code that does not exist.
struct TogetherController {
    let rooms: any TogetherRooms
    let runs: RunsController
    let household: HouseholdService
    let person: Person.ID
    let liveFeeds: LiveFeeds
    let streams: TimelineStreams
    let now: @Sendable () -> Date

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get(use: list)
        group.post(use: start)
        group.post("clock", use: clock)
        group.get(":code", use: show)
        group.get(":code/audio", use: audio)
        group.post(":code/join", use: join)
        group.post(":code/leave", use: leave)
        group.post(":code/pause", use: pause)
        group.post(":code/resume", use: resume)
        group.post(":code/stop", use: stop)
    }

    /// A run's body (``RunsController/StartBody``, without `at`: the server fixes the start) and
    /// whom to invite, by name; without `invite`, everyone of the household.
    struct StartBody: Decodable {
        var practice: RunsController.StartBody
        var invite: [String]?

        private enum CodingKeys: String, CodingKey { case invite }

        init(from decoder: any Decoder) throws {
            practice = try RunsController.StartBody(from: decoder)
            invite = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([String].self, forKey: .invite)
        }
    }

    /// `{"samples": [{"sentAt": …, "serverAt": …, "receivedAt": …}]}`: a page's round trips over
    /// the live feed.
    struct ClockBody: Decodable {
        var samples: [ClockSample]
    }

    struct ClockResponse: Encodable {
        /// What the page adds to its clock to read the server's, in milliseconds.
        var offsetMs: Double
        /// Right to within this, either way.
        var uncertaintyMs: Double
    }

    /// What a person of the session sees of it.
    struct View: Encodable {
        var code: String
        var kind: PracticeRun.Kind
        /// `waiting` (before its start), `running`, `paused` or `over`.
        var status: String
        var startsAtMs: Int64
        /// The server's clock when this was answered, and the position then: the page plays
        /// at position + (server now − serverAtMs) while running.
        var serverAtMs: Int64
        var positionMs: Int64
        var lengthMs: Int64
        var timeline: Timeline
        var name: String?
        var summary: String?
        /// The stream every phone plays.
        var audio: String
        /// Who is sitting now, the host first.
        var sitting: [String]
        var host: String
        var youAreHost: Bool
        var youAreIn: Bool
        /// Your part, once logged in your log.
        var ending: RunsController.EndingBody?
        /// Once it is over (or you left): everyone who sat in it, you among them.
        var satTogether: [String]?
    }

    struct ViewList: Encodable {
        var sessions: [View]
    }

    /// What goes out on the live feed of everyone invited at each step, so every page acts at
    /// once: `{"together": {"code": …, "status": …, "positionMs": …, "serverAtMs": …}}`.
    struct Event: Encodable {
        struct Body: Encodable {
            var code: String
            var status: String
            var positionMs: Int64
            var serverAtMs: Int64
        }
        var together: Body
    }

    // MARK: Routes

    /// The sits together this person is invited to that have not ended.
    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<ViewList> {
        let instant = WallInstant(now())
        try await settle(at: instant, logger: context.logger)
        let names = try await namesByID()
        let language = try await language(of: request)
        let open = try await rooms.all()
            .filter { $0.invited.contains(person) && $0.endedAt(at: instant) == nil }
            .sorted { $0.session.startsAt < $1.session.startsAt }
        return JSONResponse(
            ViewList(sessions: open.map { view(of: $0, at: instant, names: names, language: language) }))
    }

    @Sendable func start(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<View> {
        let instant = WallInstant(now())
        try await settle(at: instant, logger: context.logger)
        let body = try await RequestBody.decode(StartBody.self, from: request)
        if body.practice.at != nil { throw JSONInputError.unknownField("at") }
        let language = try await language(of: request)
        let people = try await household.people()
        var invited = Set(people.map(\.id))
        if let names = body.invite {
            invited = [person]
            guard names.count < TogetherSession<Person.ID, WallInstant>.capacity else {
                throw APIError.invalid(.apiTogetherFull)
            }
            for name in names {
                try TextInput.check(name, field: "invite")
                let text = String(name.prefix(80))
                guard let found = people.first(where: { $0.name.caseInsensitiveCompare(text) == .orderedSame }) else {
                    throw APIError.invalid(.apiTogetherPerson, ["name": text])
                }
                invited.insert(found.id)
            }
        }
        let practice = try await runs.makeRun(body.practice, language: language)
        // A code in use (one in 887 million) gives way to another.
        var code = TogetherRoom.code(from: practice.id)
        for _ in 0..<4 where try await rooms.room(code: code) != nil { code = TogetherRoom.code(from: runs.makeID()) }
        let room: TogetherRoom
        do {
            room = try TogetherRoom(code: code, practice: practice, host: person, invited: invited, createdAt: instant)
        } catch { throw Self.apiError(error) }
        try await rooms.add(room)
        announce(room, at: instant)
        let names = Dictionary(uniqueKeysWithValues: people.map { ($0.id, $0.name) })
        return JSONResponse(view(of: room, at: instant, names: names, language: language), status: .created)
    }

    @Sendable func clock(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<ClockResponse> {
        let body = try await RequestBody.decode(ClockBody.self, from: request)
        do {
            let offset = try ClockOffset(samples: body.samples)
            return JSONResponse(ClockResponse(offsetMs: offset.milliseconds, uncertaintyMs: offset.uncertainty))
        } catch {
            throw APIError.invalid(.apiClockSamples)
        }
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<View> {
        let instant = WallInstant(now())
        try await settle(at: instant, logger: context.logger)
        let room = try await visibleRoom(context)
        return JSONResponse(
            view(of: room, at: instant, names: try await namesByID(), language: try await language(of: request)))
    }

    /// The session's sound: its timeline as one WAV stream, as a run's (``RunAudioController``),
    /// for those invited; it ends when the host stops the session.
    @Sendable func audio(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let room = try await visibleRoom(context)
        let playsBed = try RunAudioController.playsBed(request)
        guard room.session.run.stoppedAt == nil else { throw APIError.conflict(.apiRunAudioEnded) }
        let (rooms, code) = (rooms, room.code)
        return try await streams.response(
            for: room.practice.run.timeline, openEndedLength: RunAudioController.openEndedLength,
            playsBed: playsBed, person: person, request: request, context: context
        ) {
            // A store that fails for a moment ends nothing: the next chunk asks again.
            do { return try await rooms.room(code: code).map { $0.session.run.stoppedAt != nil } ?? true } catch {
                return false
            }
        }
    }

    @Sendable func join(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<View> {
        try await step(request, context) { room, instant in
            guard room.endings[person] == nil else { throw APIError.conflict(.apiTogetherLeft) }
            try room.session.join(person, at: instant)
        }
    }

    @Sendable func leave(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<View> {
        try await step(request, context) { room, instant in
            try room.session.leave(person, at: instant)
            try await logParts(of: &room, at: instant)
        }
    }

    @Sendable func pause(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<View> {
        try await step(request, context) { room, instant in try room.session.pause(by: person, at: instant) }
    }

    @Sendable func resume(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<View> {
        try await step(request, context) { room, instant in try room.session.resume(by: person, at: instant) }
    }

    @Sendable func stop(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<View> {
        try await step(request, context) { room, instant in
            try room.session.stop(by: person, at: instant)
            try await logParts(of: &room, at: instant)
        }
    }

    // MARK: Steps and logging

    /// Takes one step of the room named in the path, now, and tells everyone invited.
    private func step(
        _ request: Request, _ context: BasicRequestContext,
        _ action: @Sendable (inout TogetherRoom, WallInstant) async throws -> Void
    ) async throws -> JSONResponse<View> {
        let instant = WallInstant(now())
        try await settle(at: instant, logger: context.logger)
        let code = try await visibleRoom(context).code
        let room = try await rooms.update(code: code) { room in
            do {
                try await action(&room, instant)
            } catch let error as TogetherError {
                throw Self.apiError(error)
            }
            return room
        }
        announce(room, at: instant)
        return JSONResponse(
            view(of: room, at: instant, names: try await namesByID(), language: try await language(of: request)))
    }

    /// Logs the part of everyone who has left (or was there when it ended) and is not logged yet,
    /// each in their own log.
    private func logParts(of room: inout TogetherRoom, at instant: WallInstant) async throws {
        let ended = room.endedAt(at: instant)
        for presence in room.session.presences where room.endings[presence.person] == nil {
            let person = presence.person
            // Someone still in a session that goes on is logged when they leave or it ends.
            let stillIn = room.session.presences.contains { $0.person == person && $0.leftAt == nil }
            guard let end = ended ?? (stillIn ? nil : instant) else { continue }
            guard let outcome = room.session.outcome(for: person, at: end) else { continue }
            let joined = room.session.presences.first { $0.person == person }?.joinedAt ?? room.session.startsAt
            let left = room.session.presences.last { $0.person == person }?.leftAt ?? end
            let services = try await household.services(forID: person)
            let ending = try await room.practice.log(
                PracticeRun.StopOutcome(outcome, of: room.practice), services: services,
                startedAt: max(joined, room.session.startsAt).date, endedAt: min(left, end).date, keep: true,
                recordID: Self.recordID(room.practice.id, person))
            room.endings[person] = PracticeRun.Ending(
                outcome: ending.outcome.rawValue, practicedMs: ending.practiced.wholeMilliseconds,
                logged: ending.isLogged)
            if ending.isLogged { runs.metrics.recordSessionLogged(kind: room.practice.kind.rawValue) }
        }
    }

    /// Logs the people of every room that ended (its timeline ran out) and forgets rooms that
    /// ended over an hour ago. A person whose part cannot be logged for good stays unlogged, with
    /// the reason in the server's log; a busy database is passed on (503).
    func settle(at instant: WallInstant, logger: Logger) async throws {
        for room in try await rooms.all() where room.endedAt(at: instant) != nil {
            let unlogged = room.session.presences.contains { room.endings[$0.person] == nil }
            guard unlogged else { continue }
            do {
                try await rooms.update(code: room.code) { room in try await logParts(of: &room, at: instant) }
            } catch  where FailureKind.of(error) == .unavailable {
                throw error
            } catch {
                logger.error("a sit together could not be logged", metadata: ["error": "\(error)"])
                try await rooms.update(code: room.code) { room in
                    for presence in room.session.presences where room.endings[presence.person] == nil {
                        room.endings[presence.person] = .init(outcome: "completed", practicedMs: 0, logged: false)
                    }
                }
            }
        }
        try await rooms.forget(endedBefore: instant.advanced(by: .seconds(-3600)))
    }

    /// Each person's record of a session: one id for the session and the person, so a part
    /// logged twice is one record.
    static func recordID(_ session: UUID, _ person: Person.ID) -> UUID {
        var bytes = session.uuid
        withUnsafeMutableBytes(of: &bytes) { raw in
            let person = withUnsafeBytes(of: person.bigEndian) { Array($0) }
            for index in 0..<8 { raw[8 + index] ^= person[index] }
        }
        return UUID(uuid: bytes)
    }

    // MARK: Views

    /// The room named in the path, if this person is invited to it; otherwise the 404 of no room.
    private func visibleRoom(_ context: BasicRequestContext) async throws -> TogetherRoom {
        let text = context.parameters.get("code") ?? ""
        let shown = String(text.prefix(12))
        guard let code = TogetherRoom.normalized(text), let room = try await rooms.room(code: code),
            room.invited.contains(person)
        else { throw APIError.notFound(.apiNoTogether, ["code": shown]) }
        return room
    }

    private func announce(_ room: TogetherRoom, at instant: WallInstant) {
        let event = Event(
            together: .init(
                code: room.code, status: Self.status(of: room, at: instant),
                positionMs: room.session.position(at: instant).wholeMilliseconds,
                serverAtMs: instant.millisecondsSince1970))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // try?: an event of strings and numbers always encodes; pages re-read at their next step.
        guard let data = try? encoder.encode(event) else { return }
        liveFeeds.send(String(decoding: data, as: UTF8.self), to: room.invited)
    }

    static func status(of room: TogetherRoom, at instant: WallInstant) -> String {
        if room.endedAt(at: instant) != nil { return "over" }
        if instant < room.session.startsAt { return "waiting" }
        return room.session.run.state(at: instant).status == .paused ? "paused" : "running"
    }

    private func view(
        of room: TogetherRoom, at instant: WallInstant, names: [Person.ID: String], language: Language
    ) -> View {
        let session = room.session
        let name = { (id: Person.ID) in names[id] ?? "" }
        let youAreIn = session.present(at: instant).contains(person)
        let done = room.endedAt(at: instant) != nil || room.endings[person] != nil
        var everyone: [Person.ID] = []
        for presence in session.presences where !everyone.contains(presence.person) {
            everyone.append(presence.person)
        }
        var view = View(
            code: room.code, kind: room.practice.kind, status: Self.status(of: room, at: instant),
            startsAtMs: session.startsAt.millisecondsSince1970, serverAtMs: instant.millisecondsSince1970,
            positionMs: session.position(at: instant).wholeMilliseconds,
            lengthMs: (room.practice.run.timeline.totalDuration ?? .zero).wholeMilliseconds,
            timeline: room.practice.run.timeline, audio: "/api/v1/together/\(room.code)/audio",
            sitting: session.present(at: instant).map(name), host: name(session.host),
            youAreHost: session.host == person, youAreIn: youAreIn,
            ending: room.endings[person].map {
                RunsController.EndingBody($0, kind: room.practice.kind.practiceKind, language: language)
            },
            satTogether: done ? everyone.map(name) : nil)
        if case .meditation(let sit) = room.practice.plan {
            view.name = room.practice.meditationPreset?.name
            view.summary = sit.plan.summary(.shared(for: language))
        }
        return view
    }

    private func namesByID() async throws -> [Person.ID: String] {
        Dictionary(try await household.people().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    private func language(of request: Request) async throws -> Language {
        try await LanguageChoice.language(
            for: request, settings: try await household.services(forID: person).settings)
    }

    static func apiError(_ error: TogetherError) -> APIError {
        switch error {
        case .openEnded: .invalid(.apiTogetherOpenEnded)
        case .notHost: APIError(.forbidden, code: "forbidden", key: .apiTogetherNotHost)
        case .over: .conflict(.apiTogetherOver)
        case .full: .conflict(.apiTogetherFull)
        case .notPresent: .conflict(.apiTogetherNotIn)
        case .run(let error): APIError(.conflict, code: "conflict", describing: error)
        }
    }
}
