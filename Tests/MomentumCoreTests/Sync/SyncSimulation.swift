import Foundation

@testable import MomentumCore

/// Devices that work on their own replicas, go offline, and push to and pull from a server that
/// numbers every accepted change — all driven by one seeded generator, so a failing run replays.
struct SyncSimulation {
    struct Device {
        var name: String
        var clock: HybridLogicalClock
        /// How far this device's wall clock is off, in milliseconds.
        var skew: Int64
        var replica = ReplicaState()
        /// Made here, not yet known to be accepted by the server.
        var outbox: [Change] = []
        /// The server sequence number of the last change pulled.
        var cursor = 0
        var isOnline = true
        var watch = DeletionWatch()
    }

    var generator: SeededRandomNumberGenerator
    var devices: [Device]
    var server = ReplicaState()
    var serverWatch = DeletionWatch()
    /// The server's log: sequence number n is `log[n - 1]`.
    var log: [Change] = []
    /// Every change any device made, in the order made.
    var made: [Change] = []
    /// Global time in milliseconds since 1970.
    var now: Int64 = SyncFixtures.t0
    var nextID = 1
    /// Every id ever created, per type, deleted or not.
    var created: [SyncEntityType: [String]] = [:]
    /// Times a deleted entity had fields again after a change, on any replica.
    var resurrections: Int { serverWatch.resurrections + devices.map(\.watch.resurrections).reduce(0, +) }

    init(seed: UInt64, deviceCount: Int = 3) throws {
        generator = SeededRandomNumberGenerator(seed: seed)
        var devices: [Device] = []
        for index in 0..<deviceCount {
            let name = "device-\(index)"
            devices.append(
                Device(
                    name: name, clock: try HybridLogicalClock(node: "n\(index)"),
                    skew: Int64.random(in: -3_000...3_000, using: &generator)))
        }
        self.devices = devices
    }

    // MARK: The run

    /// Runs until the devices have made at least `operations` operations, then lets every device
    /// come online, push and pull everything.
    mutating func run(operations: Int) throws {
        var done = 0
        while done < operations {
            now += Int64.random(in: 0...4, using: &generator)
            let device = Int.random(in: 0..<devices.count, using: &generator)
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<70:
                try operate(on: device)
                done += 1
            case 70..<80: try push(from: device)
            case 80..<92: try pull(into: device)
            default: devices[device].isOnline.toggle()
            }
        }
        try settle()
    }

    /// Everyone online, everything pushed and pulled.
    mutating func settle() throws {
        for index in devices.indices {
            devices[index].isOnline = true
            while !devices[index].outbox.isEmpty { try push(from: index, all: true) }
        }
        for index in devices.indices {
            while devices[index].cursor < log.count { try pull(into: index) }
        }
    }

    // MARK: Protocol

    /// Sends part of the outbox as JSON; sometimes the answer is lost, so the same changes go again.
    mutating func push(from index: Int, all: Bool = false) throws {
        guard devices[index].isOnline, !devices[index].outbox.isEmpty else { return }
        let count =
            all ? devices[index].outbox.count : Int.random(in: 1...devices[index].outbox.count, using: &generator)
        let batch = Array(devices[index].outbox.prefix(min(count, ChangeBatch.maximumCount)))
        let data = try JSONEncoder().encode(batch.map(ChangeMessage.init))
        let messages = try JSONDecoder().decode([ChangeMessage].self, from: data)
        let outcomes = try server.apply(messages, receivedAt: wall(ofServer: ()))
        for (change, outcome) in zip(batch, outcomes) {
            if outcome != .duplicate { log.append(change) }
            serverWatch.note(change.entity, in: server)
        }
        let answerLost = !all && Int.random(in: 0..<5, using: &generator) == 0
        if !answerLost { devices[index].outbox.removeFirst(batch.count) }
    }

    /// Pulls a page after the cursor; sometimes the cursor was not saved, so a page comes twice.
    mutating func pull(into index: Int) throws {
        guard devices[index].isOnline else { return }
        if Int.random(in: 0..<10, using: &generator) == 0 {
            devices[index].cursor = max(0, devices[index].cursor - Int.random(in: 1...20, using: &generator))
        }
        let page = log.dropFirst(devices[index].cursor).prefix(Int.random(in: 1...60, using: &generator))
        let wall = self.wall(of: index)
        for change in page {
            try devices[index].clock.receive(change.stamp, at: wall)
            devices[index].replica.apply(change)
            devices[index].watch.note(change.entity, in: devices[index].replica)
        }
        devices[index].cursor += page.count
    }

    // MARK: Operations

    mutating func operate(on index: Int) throws {
        let replica = devices[index].replica
        let timers = live(.focusTimer, in: replica)
        let items = live(.checklistItem, in: replica)
        let records = live(.practiceRecord, in: replica)
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<10:
            let id = newID(.focusTimer)
            try make(
                on: index, .focusTimer, id,
                [
                    "name": .string("Timer \(id.suffix(4))"), "durationMs": .integer(Int64(pick(1...60)) * 60_000),
                    "sortOrder": .integer(Int64(pick(0...20))), "createdAt": .integer(now),
                ])
        case 10..<20:
            guard let timer = timers.randomElement(using: &generator) else { return try operate(on: index) }
            let edits: [(String, SyncValue)] = [
                ("name", .string("Renamed \(pick(0...999))")), ("notes", .string("note \(pick(0...999))")),
                ("color", .string(["#B5835A", "#3A6EA5", "#7A9E7E"].randomElement(using: &generator) ?? "#B5835A")),
                ("durationMs", .integer(Int64(pick(1...90)) * 60_000)),
                (
                    "run",
                    .object([
                        "status": .string("running"), "startedAt": .integer(now), "resumedAt": .integer(now),
                        "elapsedBeforeMs": .integer(0),
                    ])
                ),
                ("run", .object(["status": .string("idle")])),
            ]
            let (field, value) = edits[pick(0...(edits.count - 1))]
            try make(on: index, .focusTimer, timer, [field: value])
        case 20..<35:
            guard let timer = timers.randomElement(using: &generator) else { return try operate(on: index) }
            let id = newID(.checklistItem)
            try make(
                on: index, .checklistItem, id,
                [
                    SyncEntityType.timerReferenceField: .string(timer), "text": .string("Item \(id.suffix(4))"),
                    "done": .bool(false), "sortOrder": .integer(Int64(pick(0...20))),
                ])
        case 35..<55:
            guard let item = items.randomElement(using: &generator) else { return try operate(on: index) }
            let done = replica.values(of: SyncEntityKey(type: .checklistItem, id: item))?["done"] == .bool(true)
            try make(on: index, .checklistItem, item, ["done": .bool(!done)])
        case 55..<63:
            let entities = (timers.map { (SyncEntityType.focusTimer, $0) } + items.map { (.checklistItem, $0) })
            for _ in 0..<min(3, entities.count) {
                guard let (type, id) = entities.randomElement(using: &generator) else { break }
                try make(on: index, type, id, ["sortOrder": .integer(Int64(pick(0...50)))])
            }
        case 63..<68:
            guard let timer = timers.randomElement(using: &generator) else { return try operate(on: index) }
            try delete(on: index, .focusTimer, timer)
        case 68..<74:
            guard let item = items.randomElement(using: &generator) else { return try operate(on: index) }
            try delete(on: index, .checklistItem, item)
        case 74..<84:
            let start = now - Int64(pick(600...7200)) * 1000
            let seconds = pick(60...600)
            try make(
                on: index, .practiceRecord, newID(.practiceRecord),
                [
                    "kind": .string(PracticeKind.allCases.randomElement(using: &generator)?.rawValue ?? "focus"),
                    "start": .integer(start), "end": .integer(start + Int64(seconds) * 1000),
                    "countedSeconds": .integer(Int64(seconds)), "device": .string(devices[index].name),
                    "details": .object(["note": .string("n\(pick(0...9))")]), "energyKilocalories": .null,
                ])
        case 84..<88:
            guard let record = records.randomElement(using: &generator) else { return try operate(on: index) }
            if Bool.random(using: &generator) {
                try make(on: index, .practiceRecord, record, ["countedSeconds": .integer(Int64(pick(0...60)))])
            } else {
                try delete(on: index, .practiceRecord, record)
            }
        case 88..<94:
            let settings: [(String, SyncValue)] = [
                ("sound", .string(Bool.random(using: &generator) ? "on" : "off")),
                ("goal.workout", .string("\(pick(1...120))")), ("meditation.duration", .string("\(pick(1...60))")),
                ("language", .string(["en", "de", "auto"].randomElement(using: &generator) ?? "en")),
            ]
            let (key, value) = settings[pick(0...(settings.count - 1))]
            try make(on: index, .setting, key, [SyncEntityType.settingValueField: value])
        default:
            // A write to any id ever made, deleted or not: edits of deleted ids and attempts to
            // make them again.
            let type = [SyncEntityType.focusTimer, .checklistItem, .practiceRecord][pick(0...2)]
            guard let id = created[type]?.randomElement(using: &generator) else { return try operate(on: index) }
            let field: [String: SyncValue] =
                switch type {
                case .focusTimer: ["name": .string("Again")]
                case .checklistItem: ["done": .bool(true)]
                default:
                    // Half the time a whole row again (a put), beside or after other writes.
                    Bool.random(using: &generator)
                        ? ["countedSeconds": .integer(1)]
                        : [
                            "kind": .string("focus"), "start": .integer(now - 120_000), "end": .integer(now),
                            "countedSeconds": .integer(Int64(pick(0...120))), "device": .string(devices[index].name),
                            "details": .object([:]), "energyKilocalories": .null,
                        ]
                }
            try make(on: index, type, id, field)
        }
    }

    private mutating func make(
        on index: Int, _ type: SyncEntityType, _ id: String, _ fields: [String: SyncValue]
    ) throws {
        if Change.isWholeRow(fields, of: type) {
            // A whole row is one put, as the stores log a new row.
            return try record(
                Change(
                    entityType: type, entityID: id, operation: .put(fields: fields),
                    stamp: devices[index].clock.send(at: wall(of: index)), device: devices[index].name),
                on: index)
        }
        for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
            try record(
                Change(
                    entityType: type, entityID: id, operation: .set(field: field, value: value),
                    stamp: devices[index].clock.send(at: wall(of: index)), device: devices[index].name),
                on: index)
        }
    }

    private mutating func delete(on index: Int, _ type: SyncEntityType, _ id: String) throws {
        try record(
            Change(
                entityType: type, entityID: id, operation: .delete,
                stamp: devices[index].clock.send(at: wall(of: index)), device: devices[index].name),
            on: index)
    }

    private mutating func record(_ change: Change, on index: Int) {
        devices[index].replica.apply(change)
        devices[index].watch.note(change.entity, in: devices[index].replica)
        devices[index].outbox.append(change)
        made.append(change)
    }

    // MARK: Helpers

    private mutating func newID(_ type: SyncEntityType) -> String {
        defer { nextID += 1 }
        let id = SyncFixtures.id(nextID)
        created[type, default: []].append(id)
        return id
    }

    /// A few ids of `type` that are live in `replica`, picked from the ids ever made (in the
    /// order made, so the run does not depend on how sets are hashed).
    private mutating func live(_ type: SyncEntityType, in replica: ReplicaState) -> [String] {
        guard let ids = created[type], !ids.isEmpty else { return [] }
        var found: [String] = []
        for _ in 0..<12 {
            let id = ids[pick(max(0, ids.count - 200)...(ids.count - 1))]
            if replica.values(of: SyncEntityKey(type: type, id: id)) != nil { found.append(id) }
        }
        return found
    }

    private mutating func pick(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }

    func wall(of index: Int) -> Date { Date(timeIntervalSince1970: Double(now + devices[index].skew) / 1000) }
    func wall(ofServer: Void) -> Date { Date(timeIntervalSince1970: Double(now) / 1000) }
}

/// Watches one replica for deleted entities that come back.
struct DeletionWatch {
    private(set) var seen: Set<SyncEntityKey> = []
    private(set) var resurrections = 0

    /// After a change to `key`: counts it if it was deleted before and is not now (or has fields).
    mutating func note(_ key: SyncEntityKey, in replica: ReplicaState) {
        if seen.contains(key), !replica.isDeleted(key) || replica.values(of: key) != nil { resurrections += 1 }
        if replica.isDeleted(key) { seen.insert(key) }
    }

    /// Whether everything once seen deleted is deleted in `replica`.
    func allStillDeleted(in replica: ReplicaState) -> Bool { seen.allSatisfy(replica.isDeleted) }
}

/// What the merge must produce, written independently of it: from the set of changes alone.
struct ExpectedSyncState: Equatable {
    var live: [SyncEntityKey: [String: SyncValue]]
    var deleted: Set<SyncEntityKey>

    init(_ changes: some Sequence<Change>) {
        var deletedDirectly = Set<SyncEntityKey>()
        var timersOfItems: [String: Set<String>] = [:]
        for change in changes {
            switch change.operation {
            case .delete: deletedDirectly.insert(change.entity)
            case .set(SyncEntityType.timerReferenceField, .string(let timer)):
                timersOfItems[change.entity.id, default: []].insert(timer)
            case .set, .put: break
            }
        }
        func isDeleted(_ key: SyncEntityKey) -> Bool {
            deletedDirectly.contains(key)
                || (key.type == .checklistItem
                    && (timersOfItems[key.id] ?? []).contains {
                        deletedDirectly.contains(SyncEntityKey(type: .focusTimer, id: $0))
                    })
        }
        // The latest write per field, comparing stamps by their text form (which sorts like them).
        var latest: [SyncEntityKey: [String: (stamp: String, value: SyncValue)]] = [:]
        var deleted = Set<SyncEntityKey>()
        for change in changes {
            guard !isDeleted(change.entity) else {
                deleted.insert(change.entity)
                continue
            }
            let writes: [String: SyncValue]
            switch change.operation {
            case .set(let field, let value): writes = [field: value]
            case .put(let fields): writes = fields
            case .delete: continue
            }
            let stamp = change.stamp.description
            for (field, value) in writes {
                if let current = latest[change.entity]?[field], current.stamp >= stamp { continue }
                latest[change.entity, default: [:]][field] = (stamp, value)
            }
        }
        self.live = latest.mapValues { $0.mapValues(\.value) }
        self.deleted = deleted
    }

    func matches(_ replica: ReplicaState) -> Bool {
        var entities: [SyncEntityKey: [String: SyncValue]] = [:]
        for (type, ofType) in replica.entities {
            for (id, fields) in ofType { entities[SyncEntityKey(type: type, id: id)] = fields.mapValues(\.value) }
        }
        return entities == live && deleted.allSatisfy(replica.isDeleted)
    }
}
