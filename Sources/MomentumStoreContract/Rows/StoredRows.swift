import Foundation
import MomentumCore

// The rows of a person's data as SQLite keeps them and a backup document lists them (docs/backup.md):
// column for column, by SQLite's column names; each turns into its domain value, checked.

/// One saved sit as stored: its plan in the plan's own JSON form (durations in milliseconds).
public struct MeditationPresetRow: Codable, Sendable, Equatable {
    /// The table SQLite keeps these rows in, and their kind's name in errors.
    public static let tableName = "meditationPreset"
    public var id: String
    public var name: String
    public var plan: String
    public var createdAtMs: Int64
    public var updatedAtMs: Int64
    /// Optional as read: a backup made before sits were reordered has no such column (0).
    public var sortOrder: Int?

    public init(_ preset: MeditationPreset) throws(StoreError) {
        id = preset.id
        name = preset.name
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            plan = String(decoding: try encoder.encode(preset.plan), as: UTF8.self)
        } catch {
            throw .corruptRow(table: Self.tableName, id: preset.id, reason: "\(error)")
        }
        createdAtMs = preset.createdAt.millisecondsSince1970
        updatedAtMs = preset.updatedAt.millisecondsSince1970
        sortOrder = preset.sortOrder
    }

    public func preset() throws(StoreError) -> MeditationPreset {
        do {
            let plan = try JSONDecoder().decode(MeditationPlan.self, from: Data(self.plan.utf8))
            return try MeditationPreset(
                id: id, name: name, plan: plan, createdAt: Date(millisecondsSince1970: createdAtMs),
                updatedAt: Date(millisecondsSince1970: updatedAtMs), sortOrder: sortOrder ?? 0)
        } catch {
            throw .corruptRow(table: Self.tableName, id: id, reason: "\(error)")
        }
    }
}

/// One of the person's own workout programs as stored: times in whole seconds, exercise names
/// as a JSON array.
public struct WorkoutProgramRow: Codable, Sendable, Equatable {
    /// The table SQLite keeps these rows in, and their kind's name in errors.
    public static let tableName = "workoutProgram"
    public var id: String
    public var name: String
    public var getReadySeconds: Int64
    public var warmUpSeconds: Int64
    public var workSeconds: Int64
    public var restSeconds: Int64
    public var rounds: Int
    public var sets: Int
    public var setRestSeconds: Int64
    public var coolDownSeconds: Int64
    public var exerciseNames: String
    public var activity: String
    public var createdAtMs: Int64
    public var updatedAtMs: Int64

    public init(_ program: WorkoutProgram, createdAt: Date, updatedAt: Date) {
        let plan = program.plan
        id = program.id
        name = program.name
        getReadySeconds = plan.getReady.wholeMilliseconds / 1000
        warmUpSeconds = plan.warmUp.wholeMilliseconds / 1000
        workSeconds = plan.work.wholeMilliseconds / 1000
        restSeconds = plan.rest.wholeMilliseconds / 1000
        rounds = plan.rounds
        sets = plan.sets
        setRestSeconds = plan.setRest.wholeMilliseconds / 1000
        coolDownSeconds = plan.coolDown.wholeMilliseconds / 1000
        // try?: encoding texts cannot fail (JSONEncoder throws only for non-finite numbers).
        let names = try? JSONEncoder().encode(plan.exerciseNames)
        exerciseNames = names.map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        activity = plan.activity.rawValue
        createdAtMs = createdAt.millisecondsSince1970
        updatedAtMs = updatedAt.millisecondsSince1970
    }

    public func program() throws(StoreError) -> WorkoutProgram {
        func corrupt(_ reason: String) -> StoreError {
            .corruptRow(table: Self.tableName, id: id, reason: reason)
        }
        // try?: names that do not read are thrown as a corrupt row just below
        guard let names = try? JSONDecoder().decode([String].self, from: Data(exerciseNames.utf8)) else {
            throw corrupt("exercise names are not a JSON array of strings")
        }
        guard let activity = WorkoutActivity(rawValue: activity) else { throw corrupt("unknown activity \(activity)") }
        let plan = WorkoutPlan(
            getReady: .seconds(getReadySeconds), warmUp: .seconds(warmUpSeconds), work: .seconds(workSeconds),
            rest: .seconds(restSeconds), rounds: rounds, sets: sets, setRest: .seconds(setRestSeconds),
            coolDown: .seconds(coolDownSeconds), exerciseNames: names, activity: activity)
        do {
            return try WorkoutProgram(id: id, name: name, plan: plan)
        } catch {
            throw corrupt("\(error)")
        }
    }
}

/// One stored setting: a key and its value as JSON text.
public struct SettingRow: Codable, Sendable, Equatable {
    /// The table SQLite keeps these rows in, and their kind's name in errors.
    public static let tableName = "setting"
    public var key: String
    public var value: String
    public var updatedAtMs: Int64

    public init(key: String, value: String, updatedAtMs: Int64) {
        (self.key, self.value, self.updatedAtMs) = (key, value, updatedAtMs)
    }
}

/// One of the person's own breathing presets as stored: phases in milliseconds.
public struct BreathingPresetRow: Codable, Sendable, Equatable {
    /// The table SQLite keeps these rows in, and their kind's name in errors.
    public static let tableName = "breathingPreset"
    public var id: String
    public var name: String
    public var inhaleMs: Int64
    public var holdAfterInhaleMs: Int64
    public var exhaleMs: Int64
    public var holdAfterExhaleMs: Int64
    public var rounds: Int
    public var createdAtMs: Int64
    public var updatedAtMs: Int64

    public init(_ preset: BreathingPreset, createdAt: Date, updatedAt: Date) {
        id = preset.id
        name = preset.name
        inhaleMs = preset.pattern.inhale.wholeMilliseconds
        holdAfterInhaleMs = preset.pattern.holdAfterInhale.wholeMilliseconds
        exhaleMs = preset.pattern.exhale.wholeMilliseconds
        holdAfterExhaleMs = preset.pattern.holdAfterExhale.wholeMilliseconds
        rounds = preset.rounds
        createdAtMs = createdAt.millisecondsSince1970
        updatedAtMs = updatedAt.millisecondsSince1970
    }

    public func preset() throws(StoreError) -> BreathingPreset {
        do {
            let pattern = try BreathingPattern(
                inhale: Double(inhaleMs) / 1000, holdAfterInhale: Double(holdAfterInhaleMs) / 1000,
                exhale: Double(exhaleMs) / 1000, holdAfterExhale: Double(holdAfterExhaleMs) / 1000)
            return try BreathingPreset(id: id, name: name, pattern: pattern, rounds: rounds)
        } catch {
            throw .corruptRow(table: Self.tableName, id: id, reason: "\(error)")
        }
    }
}

/// A practice record as stored: instants in milliseconds, details as JSON text.
public struct PracticeRecordRow: Codable, Sendable, Equatable {
    /// The table SQLite keeps these rows in, and their kind's name in errors.
    public static let tableName = "practiceRecord"
    public var id: String
    public var kind: String
    public var startMs: Int64
    public var endMs: Int64
    public var countedSeconds: Int
    public var energyKilocalories: Double?
    public var details: String
    public var device: String
    public var createdAtMs: Int64
    public var updatedAtMs: Int64

    public init(_ record: PracticeRecord, createdAt: Date, updatedAt: Date) {
        id = record.id.uuidString.lowercased()
        kind = record.kind.rawValue
        startMs = record.start.millisecondsSince1970
        endMs = record.end.millisecondsSince1970
        countedSeconds = record.countedSeconds
        energyKilocalories = record.energyKilocalories
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // try?: encoding texts cannot fail (JSONEncoder throws only for non-finite numbers); details are texts
        details = (try? encoder.encode(record.details)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        device = record.device
        createdAtMs = createdAt.millisecondsSince1970
        updatedAtMs = updatedAt.millisecondsSince1970
    }

    public init(_ logged: LoggedRecord) {
        self.init(logged.record, createdAt: logged.createdAt, updatedAt: logged.updatedAt)
    }

    public func logged() throws(StoreError) -> LoggedRecord {
        LoggedRecord(
            record: try record(), createdAt: Date(millisecondsSince1970: createdAtMs),
            updatedAt: Date(millisecondsSince1970: updatedAtMs))
    }

    public func record() throws(StoreError) -> PracticeRecord {
        func corrupt(_ reason: String) -> StoreError {
            .corruptRow(table: Self.tableName, id: id, reason: reason)
        }
        guard let uuid = UUID(uuidString: id) else { throw corrupt("id is not a UUID") }
        guard let kind = PracticeKind(rawValue: kind) else { throw corrupt("unknown kind \(kind)") }
        // try?: details that do not read are thrown as a corrupt row just below
        guard let details = try? JSONDecoder().decode([String: String].self, from: Data(details.utf8)) else {
            throw corrupt("details are not a JSON object of strings")
        }
        do {
            return try PracticeRecord(
                id: uuid, kind: kind, start: Date(millisecondsSince1970: startMs),
                end: Date(millisecondsSince1970: endMs), countedSeconds: countedSeconds,
                energyKilocalories: energyKilocalories, details: details, device: device)
        } catch {
            throw corrupt("\(error)")
        }
    }
}

/// The Morse course's one row: the whole progress (both directions, streak, schedule) as JSON.
public struct MorseCourseRow: Codable, Sendable, Equatable {
    /// The table SQLite keeps these rows in, and their kind's name in errors.
    public static let tableName = "morseCourse"
    public var id: Int = 1
    public var progress: String
    public var updatedAtMs: Int64

    public init(progress: String, updatedAtMs: Int64) {
        (self.progress, self.updatedAtMs) = (progress, updatedAtMs)
    }
}

public struct MorseSessionRow: Codable, Sendable, Equatable {
    /// The table SQLite keeps these rows in, and their kind's name in errors.
    public static let tableName = "morseSession"
    public var id: String
    public var direction: String
    public var koch: String
    public var level: Int
    public var nextLevel: Int
    public var startedAtMs: Int64
    public var endedAtMs: Int64
    public var trainingMs: Int64
    public var attempts: Int
    public var correct: Int

    public init(_ summary: MorseSessionSummary) {
        id = summary.id.uuidString.lowercased()
        direction = summary.direction.rawValue
        koch = summary.order.rawValue
        level = summary.level
        nextLevel = summary.nextLevel
        startedAtMs = summary.startedAt.millisecondsSince1970
        endedAtMs = summary.endedAt.millisecondsSince1970
        trainingMs = summary.trainingMilliseconds
        attempts = summary.attempts
        correct = summary.correct
    }

    public func summary() throws(StoreError) -> MorseSessionSummary {
        guard let uuid = UUID(uuidString: id), let direction = MorseDirection(rawValue: direction),
            let order = KochOrder(rawValue: koch)
        else { throw .corruptRow(table: Self.tableName, id: id, reason: "unknown id, direction or order") }
        return MorseSessionSummary(
            id: uuid, direction: direction, order: order, level: level, nextLevel: nextLevel,
            startedAt: Date(millisecondsSince1970: startedAtMs), endedAt: Date(millisecondsSince1970: endedAtMs),
            trainingMilliseconds: trainingMs, attempts: attempts, correct: correct)
    }
}
