import Foundation
import MomentumCore
import MomentumPostgres
import MomentumStore
import MomentumStoreContract
import MomentumStoreTestSupport
import Testing

/// Both stores' schemas keep the core's bounds: each bounded column takes its lowest and highest
/// value and refuses one past either, and each closed list of names refuses a name outside it —
/// written past every check of the program (``MomentumDatabase/insertStoredRow(_:_:)``,
/// ``PostgresPersonStore/insertStoredRow(_:_:)``), so the schema alone decides. The bounds are
/// read from the core, so a bound changed there and not in a schema fails here.
@Suite("Schema bounds on both stores")
struct SchemaBoundsTests {
    /// One row written: its kind, the column changed from a valid row, the value, and whether
    /// the schema must take it.
    struct Probe: CustomStringConvertible, Sendable {
        var kind: BackupKind
        var column: String
        var value: BackupValue
        var accepted: Bool
        var description: String { "\(kind).\(column) = \(value): \(accepted ? "taken" : "refused")" }
    }

    static func milliseconds(_ duration: Duration) -> Int64 { duration.wholeMilliseconds }
    static func seconds(_ duration: Duration) -> Int64 { duration.wholeMilliseconds / 1000 }

    /// The lowest and highest value taken, one past either refused.
    static func edges(_ kind: BackupKind, _ column: String, _ bounds: ClosedRange<Int64>) -> [Probe] {
        [
            Probe(kind: kind, column: column, value: .integer(bounds.lowerBound - 1), accepted: false),
            Probe(kind: kind, column: column, value: .integer(bounds.lowerBound), accepted: true),
            Probe(kind: kind, column: column, value: .integer(bounds.upperBound), accepted: true),
            Probe(kind: kind, column: column, value: .integer(bounds.upperBound + 1), accepted: false),
        ]
    }

    static func range(_ bounds: ClosedRange<Duration>, _ unit: (Duration) -> Int64) -> ClosedRange<Int64> {
        unit(bounds.lowerBound)...unit(bounds.upperBound)
    }

    static func range(_ bounds: ClosedRange<Int>) -> ClosedRange<Int64> {
        Int64(bounds.lowerBound)...Int64(bounds.upperBound)
    }

    static let probes: [Probe] =
        edges(.breathingPresets, "inhaleMs", range(BreathingPattern.breathBounds, milliseconds))
        + edges(.breathingPresets, "exhaleMs", range(BreathingPattern.breathBounds, milliseconds))
        + edges(.breathingPresets, "holdAfterInhaleMs", range(BreathingPattern.holdBounds, milliseconds))
        + edges(.breathingPresets, "holdAfterExhaleMs", range(BreathingPattern.holdBounds, milliseconds))
        + edges(.breathingPresets, "rounds", range(BreathingLength.roundBounds))
        + edges(.workoutPrograms, "getReadySeconds", range(WorkoutPlan.getReadyBounds, seconds))
        + edges(.workoutPrograms, "warmUpSeconds", range(WorkoutPlan.warmUpBounds, seconds))
        + edges(.workoutPrograms, "workSeconds", range(WorkoutPlan.workBounds, seconds))
        + edges(.workoutPrograms, "restSeconds", range(WorkoutPlan.restBounds, seconds))
        + edges(.workoutPrograms, "rounds", range(WorkoutPlan.roundBounds))
        + edges(.workoutPrograms, "sets", range(WorkoutPlan.setBounds))
        + edges(.workoutPrograms, "setRestSeconds", range(WorkoutPlan.setRestBounds, seconds))
        + edges(.workoutPrograms, "coolDownSeconds", range(WorkoutPlan.coolDownBounds, seconds))
        + edges(.focusTimers, "durationMs", range(FocusTimer.durationBounds, milliseconds))
        + [
            Probe(kind: .practiceLog, column: "kind", value: .text("running"), accepted: false),
            Probe(kind: .practiceLog, column: "countedSeconds", value: .integer(-1), accepted: false),
            Probe(kind: .practiceLog, column: "energyKilocalories", value: .real(-0.5), accepted: false),
            Probe(kind: .practiceLog, column: "endMs", value: .integer(999), accepted: false),
            Probe(kind: .workoutPrograms, column: "activity", value: .text("running"), accepted: false),
            Probe(kind: .workoutPrograms, column: "name", value: .text("  "), accepted: false),
            Probe(kind: .breathingPresets, column: "name", value: .text(""), accepted: false),
            Probe(kind: .focusTimers, column: "runState", value: .text("running"), accepted: false),
            Probe(kind: .focusTimers, column: "elapsedMs", value: .integer(1), accepted: false),
            Probe(kind: .library, column: "format", value: .text("ogg"), accepted: false),
            Probe(kind: .library, column: "positionMs", value: .integer(-1), accepted: false),
            Probe(kind: .library, column: "contentHash", value: .text("abc"), accepted: false),
        ]
        + PracticeKind.allCases.map {
            Probe(kind: .practiceLog, column: "kind", value: .text($0.rawValue), accepted: true)
        }

    /// A valid row of `kind`, its id and name made from `number`.
    static func validRow(_ kind: BackupKind, number: Int) -> BackupRow {
        let id = String(format: "6f1c0e4a-0000-4000-8000-%012d", number)
        let written: BackupRow = ["id": .text(id), "createdAtMs": .integer(1), "updatedAtMs": .integer(1)]
        switch kind {
        case .breathingPresets:
            return written.merging([
                "name": .text("preset \(number)"), "inhaleMs": .integer(4000), "holdAfterInhaleMs": .integer(0),
                "exhaleMs": .integer(4000), "holdAfterExhaleMs": .integer(0), "rounds": .integer(5),
            ]) { $1 }
        case .workoutPrograms:
            return written.merging([
                "name": .text("program \(number)"), "getReadySeconds": .integer(10), "warmUpSeconds": .integer(0),
                "workSeconds": .integer(30), "restSeconds": .integer(10), "rounds": .integer(5), "sets": .integer(1),
                "setRestSeconds": .integer(0), "coolDownSeconds": .integer(0), "exerciseNames": .text("[]"),
                "activity": .text("hiit"),
            ]) { $1 }
        case .focusTimers:
            return written.merging([
                "name": .text("timer \(number)"), "durationMs": .integer(60_000), "icon": .text("timer"),
                "color": .text("#B5835A"), "notes": .text(""), "sortOrder": .integer(0), "runState": .text("idle"),
                "startedAtMs": .null, "resumedAtMs": .null, "pausedAtMs": .null, "completedAtMs": .null,
                "elapsedMs": .integer(0),
            ]) { $1 }
        case .practiceLog:
            return written.merging([
                "kind": .text("meditation"), "startMs": .integer(1000), "endMs": .integer(2000),
                "countedSeconds": .integer(1), "energyKilocalories": .null, "details": .text("{}"),
                "device": .text("test"),
            ]) { $1 }
        case .library:
            return [
                "id": .text(id), "originalTeacher": .null, "originalName": .text("Sit"), "originalAlbum": .null,
                "editedTeacher": .null, "editedName": .null, "durationMs": .integer(1000), "format": .text("mp3"),
                "fileName": .text("\(id).mp3"), "originalFileName": .text("sit.mp3"), "byteSize": .integer(10),
                "contentHash": .text(String(format: "%064d", number)), "importedAtMs": .integer(1),
                "isAmbientBed": .integer(0), "positionMs": .integer(0), "updatedAtMs": .integer(1),
            ]
        default:
            preconditionFailure("no valid row of \(kind) is made here")
        }
    }

    static func insert(_ kind: BackupKind, _ row: BackupRow, into store: StoreUnderTest) async throws {
        if let database = store.store as? MomentumDatabase {
            try database.insertStoredRow(kind, row)
        } else {
            try await #require(store.store as? PostgresPersonStore).insertStoredRow(kind, row)
        }
    }

    @Test(arguments: StoreKind.available)
    func eachStoreTakesTheCoresBoundsAndRefusesWhatLiesPastThem(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        for kind in [BackupKind.breathingPresets, .workoutPrograms, .focusTimers, .practiceLog, .library] {
            // The valid rows themselves are taken.
            try await Self.insert(kind, Self.validRow(kind, number: 0), into: store)
        }
        for (index, probe) in Self.probes.enumerated() {
            var row = Self.validRow(probe.kind, number: index + 1)
            row[probe.column] = probe.value
            if probe.column == "format", case .text(let format) = probe.value, let id = row["id"]?.textValue {
                row["fileName"] = .text("\(id).\(format)")
            }
            let taken: Bool
            do {
                try await Self.insert(probe.kind, row, into: store)
                taken = true
            } catch {
                taken = false
            }
            #expect(taken == probe.accepted, "\(kind): \(probe)")
        }
    }
}
