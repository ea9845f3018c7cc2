import Foundation
import MomentumCore
import MomentumServices

/// One sit together (issue 45) as the server keeps it: its code, the practice every phone plays
/// (a run made as any run is, never started: its plan, timeline and how it is logged), the
/// core's ``TogetherSession`` of it, who was invited, and each person's ending once logged.
struct TogetherRoom: Sendable {
    /// Six characters a person can read out: no 0/O, 1/I/L.
    static let codeAlphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    static let codeLength = 6

    let code: String
    let practice: PracticeRun
    var session: TogetherSession<Person.ID, WallInstant>
    /// The people of the household who may see and join it (the host among them).
    let invited: Set<Person.ID>
    /// How each person's part ended, once it was logged in their own log: at their leaving, or
    /// when the session ended with them in it.
    var endings: [Person.ID: PracticeRun.Ending] = [:]

    init(code: String, practice: PracticeRun, host: Person.ID, invited: Set<Person.ID>, createdAt: WallInstant)
        throws(TogetherError)
    {
        self.code = code
        self.practice = practice
        session = try TogetherSession(timeline: practice.run.timeline, host: host, createdAt: createdAt)
        self.invited = invited.union([host])
    }

    /// The code made of an id's last bytes (ids are random; tests pass their own).
    static func code(from id: UUID) -> String {
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        return String(bytes.suffix(codeLength).map { codeAlphabet[Int($0) % codeAlphabet.count] })
    }

    /// A code as a person may type it: any case, spaces and dashes left out; `nil` when it cannot
    /// be one.
    static func normalized(_ text: String) -> String? {
        let code = text.uppercased().filter { $0 != " " && $0 != "-" }
        guard code.count == codeLength, code.allSatisfy(codeAlphabet.contains) else { return nil }
        return code
    }

    /// When it ended for everyone: its timeline's end, or the host's stop; `nil` while it goes on.
    func endedAt(at instant: WallInstant) -> WallInstant? {
        guard session.isOver(at: instant) else { return nil }
        return session.run.stoppedAt ?? session.run.endInstant
    }
}

/// Where the sits together in progress are kept. One place for the whole household (a sit
/// together is between people); on SQLite this server's memory (``TogetherRoomRegistry``).
protocol TogetherRooms: Sendable {
    func add(_ room: TogetherRoom) async throws
    func room(code: String) async throws -> TogetherRoom?
    /// Every room, in no promised order.
    func all() async throws -> [TogetherRoom]
    /// Changes the room `code` by `change`, keeping the change only when it succeeds; one change
    /// of a room at a time. Throws 404 when there is none.
    func update<Result: Sendable>(code: String, _ change: @Sendable (inout TogetherRoom) async throws -> Result)
        async throws -> Result
    /// Forgets rooms that ended before `instant`.
    func forget(endedBefore instant: WallInstant) async throws
}

/// The sits together in this server's memory: a session lost when the server restarts has its
/// people's parts unlogged, like a run's.
actor TogetherRoomRegistry: TogetherRooms {
    private var rooms: [String: TogetherRoom] = [:]
    private let turns = ChangeTurns<String>()

    func add(_ room: TogetherRoom) throws {
        guard rooms[room.code] == nil else { throw APIError.conflict(.apiServerFault) }
        rooms[room.code] = room
    }

    func room(code: String) -> TogetherRoom? { rooms[code] }

    func all() -> [TogetherRoom] { Array(rooms.values) }

    func update<Result: Sendable>(code: String, _ change: @Sendable (inout TogetherRoom) async throws -> Result)
        async throws -> Result
    {
        try await turns.run(code) {
            guard var room = rooms[code] else { throw APIError.notFound(.apiNoTogether, ["code": code]) }
            let result = try await change(&room)
            if rooms[code] != nil { rooms[code] = room }
            return result
        }
    }

    func forget(endedBefore instant: WallInstant) {
        rooms = rooms.filter { _, room in room.endedAt(at: instant).map { $0 >= instant } ?? true }
    }
}
