// Benchmarks for Momentum, run by `scripts/benchmark-progress.sh` (release build).
//
//   momentum-benchmarks progress         core: calendar month, streaks, jokers, strength, year stats
//   momentum-benchmarks seed DIR         writes the same 20-year log into DIR's database
//   momentum-benchmarks seed DIR --ending-yesterday
//                                        the same log, shifted to end a day before the wall clock
//                                        (for a backup restore, which refuses future sessions)
//   momentum-benchmarks pull DIR     the store's part of a sync pull of 100 changes
//   momentum-benchmarks revision         the store revision asked per progress request: just
//                                        after a write (read from SQLite) and once settled (stat)
import Foundation
import MomentumCore
import MomentumStore

let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt
let now = Date(timeIntervalSince1970: 1_800_000_000)

/// Twenty years of daily practice: about two sessions a day, a few days skipped.
func twentyYearLog(endingAt now: Date = now) throws -> [PracticeRecord] {
    var generator = SeededRandomNumberGenerator(seed: 20)
    var records: [PracticeRecord] = []
    let days = 7300
    let kinds: [PracticeKind] = [.meditation, .meditation, .breathing, .workout, .morse, .guided, .focus]
    for day in 0..<days {
        if Int.random(in: 0..<20, using: &generator) == 0 { continue }
        let dayStart = now.addingTimeInterval(Double(day - days) * 86_400)
        for session in 0..<Int.random(in: 1...3, using: &generator) {
            let start = dayStart.addingTimeInterval(
                Double(6 + session * 5) * 3600 + Double.random(in: 0...3000, using: &generator))
            let seconds = Int.random(in: 60...1800, using: &generator)
            records.append(
                try PracticeRecord(
                    id: UUID(uuid: uuid(&generator)), kind: kinds.randomElement(using: &generator) ?? .meditation,
                    start: start, end: start.addingTimeInterval(Double(seconds)), countedSeconds: seconds,
                    device: "benchmark"))
        }
    }
    return records
}

func uuid(_ generator: inout SeededRandomNumberGenerator) -> uuid_t {
    let a = generator.next()
    let b = generator.next()
    return withUnsafeBytes(of: (a, b)) { bytes in
        (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6] & 0x0F | 0x40, bytes[7],
            bytes[8] & 0x3F | 0x80, bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }
}

/// Runs `work` `runs` times and prints the times; a failure of `work` ends the benchmark, so a
/// failing operation is never timed as if it had worked.
func measure(_ name: String, runs: Int, _ work: () throws -> Int) rethrows {
    let clock = ContinuousClock()
    var samples: [Duration] = []
    var sink = 0
    for _ in 0..<runs {
        let started = clock.now
        sink &+= try work()
        samples.append(started.duration(to: clock.now))
    }
    samples.sort()
    func ms(_ duration: Duration) -> String { String(format: "%.3f ms", duration.inSeconds * 1000) }
    print(
        "\(name): median \(ms(samples[runs / 2])), p90 \(ms(samples[runs * 9 / 10])), min \(ms(samples[0])) over \(runs) runs (checksum \(sink % 1000))"
    )
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "progress":
    let records = try twentyYearLog()
    print("log: \(records.count) records over 7300 days")
    var settings = ProgressSettings()
    settings.timeZoneIdentifier = "Europe/Berlin"
    try measure("core progress (totals, month, 4 streaks with jokers, strength, year statistics)", runs: 50) {
        let report = ProgressReport(records: records, settings: settings, systemTimeZone: berlin, now: now)
        let month = try report.month(year: report.today.year, month: report.today.month).weeks.count
        let streak = report.streak(for: .mindfulness)
        let strength = report.strength(for: .mindfulness).current
        let year = report.statistics(for: .year)
        return month + streak.current + streak.jokersHeld + Int(strength * 100) + year.total.sessions
    }
    let report = ProgressReport(records: records, settings: settings, systemTimeZone: berlin, now: now)
    measure("  of which daily totals", runs: 50) {
        DailyTotals(records: records, calendar: settings.dayCalendar(systemTimeZone: berlin)).firstDay?.number ?? 0
    }
    try measure("  of which calendar month (with 4 streaks)", runs: 50) {
        try report.month(year: report.today.year, month: report.today.month).weeks.count
    }
    measure("  of which one streak", runs: 50) { report.streak(for: .mindfulness).current }
    measure("  of which strength", runs: 50) { Int(report.strength(for: .mindfulness).current * 100) }
    measure("  of which year statistics", runs: 50) { report.statistics(for: .year).total.sessions }
case "seed":
    guard let path = arguments.dropFirst().first else {
        print("usage: momentum-benchmarks seed DIR")
        exit(2)
    }
    let database = try MomentumDatabase.open(directory: URL(fileURLWithPath: path))
    let yesterday = Date(
        timeIntervalSince1970: (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 - 86_400)
    let end = arguments.contains("--ending-yesterday") ? yesterday : now
    let records = try twentyYearLog(endingAt: end)
    try database.savePracticeRecords(records, at: end)
    print("seeded \(records.count) records into \(database.path)")
case "revision":
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("momentum-revision-\(getpid())")
    // try?: the benchmark's own scratch database in the system's temporary directory.
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = try MomentumDatabase.open(directory: directory)
    try database.savePracticeRecords(try twentyYearLog(), at: now)
    try measure("store revision 1000×, files just written (SQLite read)", runs: 20) {
        try (0..<1000).reduce(0) { sum, _ in try sum &+ Int(database.logRevision()) }
    }
    Thread.sleep(forTimeInterval: 2.5)
    try measure("store revision 1000×, files settled (stat only)", runs: 20) {
        try (0..<1000).reduce(0) { sum, _ in try sum &+ Int(database.logRevision()) }
    }
case "pull":
    // The store's part of `GET /api/v1/sync/pull?after=1000&limit=100` on a seeded directory.
    guard let path = arguments.dropFirst().first else {
        print("usage: momentum-benchmarks pull DIR")
        exit(2)
    }
    let database = try MomentumDatabase.open(directory: URL(fileURLWithPath: path))
    _ = try database.loggedChangeTexts(after: 0, limit: 1, at: Date())
    try measure("sync pull page of 100, 1000×", runs: 10) {
        try (0..<1000).reduce(0) { sum, _ in
            try sum &+ database.loggedChangeTexts(after: 1000, limit: 100, at: Date()).changes.count
        }
    }
    try measure("sync pull page of 100 as the route's JSON, 1000×", runs: 10) {
        try (0..<1000).reduce(0) { sum, _ in
            try sum &+ database.pullPageJSON(after: 1000, limit: 100, at: Date()).count
        }
    }
case "push":
    // The store's part of `POST /api/v1/sync/push`: batches of five changes to 200 timers.
    guard let path = arguments.dropFirst().first else {
        print("usage: momentum-benchmarks push DIR")
        exit(2)
    }
    let database = try MomentumDatabase.open(directory: URL(fileURLWithPath: path))
    let timers = (0..<200).map { _ in UUID().uuidString.lowercased() }
    var clock = try HybridLogicalClock(node: "bench")
    var pushes = 0
    func batch() throws -> [ChangeMessage] {
        pushes += 1
        let timer = timers[pushes % timers.count]
        let fields: [(String, SyncValue)] = [
            ("name", .string("Bench \(pushes)")), ("durationMs", .integer(60_000 * Int64(pushes % 60 + 1))),
            ("sortOrder", .integer(Int64(pushes % 7))), ("notes", .string("round \(pushes)")),
            ("createdAt", .integer(1_800_000_000_000)),
        ]
        return try fields.map { field, value in
            ChangeMessage(
                try Change(
                    entityType: .focusTimer, entityID: timer, operation: .set(field: field, value: value),
                    stamp: try clock.send(at: Date()), device: "Bench phone"))
        }
    }
    let batches = try (0..<2200).map { _ in try batch() }
    var next = 0
    try measure("sync push of 5 changes, 100× (one transaction each)", runs: 10) {
        try (0..<100).reduce(0) { sum, _ in
            next += 1
            return try sum &+ database.acceptPush(batches[next], at: Date()).count
        }
    }
    // Compaction as the server runs it: after every 1000 logged changes (200 such pushes).
    var compactions: [Duration] = []
    for _ in 0..<10 {
        for _ in 0..<200 {
            next += 1
            _ = try database.acceptPush(batches[next - 1000], at: Date())
        }
        let started = ContinuousClock.now
        try database.compactSyncLog()
        compactions.append(started.duration(to: .now))
    }
    compactions.sort()
    print(
        "compaction of 1000 new changes: median \(compactions[5]), max \(compactions[9]) over 10 runs"
    )
default:
    print("usage: momentum-benchmarks progress | seed DIR | revision | pull DIR | push DIR")
    exit(2)
}
