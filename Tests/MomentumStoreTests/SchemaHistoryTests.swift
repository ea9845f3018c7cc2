import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract
import MomentumTestSupport
import Testing

@testable import MomentumStore

@Suite("Every old database opens: a database left at any schema version reads back after upgrading")
struct SchemaHistoryTests {
    static let identifiers = MomentumDatabase.migrationIdentifiers
    static let base = Date(timeIntervalSince1970: 1_700_000_000)
    static let day: TimeInterval = 86_400

    @Test func everyMigrationHasFrozenRows() {
        #expect(Set(SchemaFixtures.byMigration.keys) == Set(Self.identifiers))
    }

    /// Given a database migrated up to `identifier` by hand, holding each version's rows written
    /// right after that version's migration; when the current program opens it; then every row
    /// reads back through the store as it was written (or as `v11` brought it within the rules).
    @Test(arguments: MomentumDatabase.migrationIdentifiers)
    func aDatabaseLeftAtThisVersionReadsBackAfterUpgrading(_ identifier: String) throws {
        let last = try #require(Self.identifiers.firstIndex(of: identifier))
        let directory = try TemporaryDirectory()
        try Self.writeDatabase(in: directory, upTo: last)
        /// Whether the rows of version `number` (1 for "v1") were written.
        func holds(_ number: Int) -> Bool { number - 1 <= last }

        let database = try MomentumDatabase.open(directory: directory.url)

        try checkPracticeLog(database, holds: holds)
        try checkSettings(database)
        try checkBreathingPresets(database, holds: holds)
        try checkFocusTimers(database, holds: holds)
        try checkWorkoutPrograms(database, holds: holds)
        try checkAccess(database, holds: holds)
        if holds(6) { #expect(try database.logRevision() >= 42) }
        try checkMorse(database, holds: holds)
        try checkLibrary(database, holds: holds)
        try checkSync(database, holds: holds)
        try checkMeditationPresets(database, holds: holds)
        try checkPeople(database, holds: holds)
        try checkLibraryViews(database, holds: holds)
    }

    /// Creates `momentum.sqlite` as versions 1 … `last` + 1 left it: migrate to one version, write
    /// its rows, migrate to the next.
    static func writeDatabase(in directory: TemporaryDirectory, upTo last: Int) throws {
        let queue = try DatabaseQueue(path: directory.file(MomentumDatabase.fileName).path)
        let migrator = MomentumDatabase.migrator
        for identifier in identifiers[...last] {
            try migrator.migrate(queue, upTo: identifier)
            let statements = try #require(SchemaFixtures.byMigration[identifier])
            try queue.write { db in
                for statement in statements { try db.execute(sql: statement) }
            }
        }
        try queue.close()
    }

    /// Given a database at v11 holding what the rules of issue 22 refuse (names over 100
    /// characters, one of them colliding once cut; an icon not in the list; a stored plan with
    /// interval gongs at and after the end of its sit); when v12 runs; then everything reads back
    /// within the rules.
    @Test func v12BringsNamesIconsAndIntervalGongsWithinTheRules() throws {
        let directory = try TemporaryDirectory()
        let v11 = try #require(Self.identifiers.firstIndex { $0.hasPrefix("v11") })
        try Self.writeDatabase(in: directory, upTo: v11)
        let long = String(repeating: "Long calm ", count: 12)  // 120 characters
        let queue = try DatabaseQueue(path: directory.file(MomentumDatabase.fileName).path)
        try queue.write { db in
            for (id, name) in [("long-one", long), ("long-two", long + "again")] {
                try db.execute(
                    sql: """
                        INSERT INTO breathingPreset (id, name, inhaleMs, holdAfterInhaleMs, exhaleMs,
                            holdAfterExhaleMs, rounds, createdAtMs, updatedAtMs)
                        VALUES (?, ?, 4000, 0, 4000, 0, 5, 1700500000000, 1700500000000)
                        """, arguments: [id, name])
            }
            try db.execute(
                sql: """
                    INSERT INTO workoutProgram (id, name, getReadySeconds, warmUpSeconds, workSeconds, restSeconds,
                        rounds, sets, setRestSeconds, coolDownSeconds, exerciseNames, activity, createdAtMs, updatedAtMs)
                    VALUES ('long', ?, 10, 0, 30, 10, 5, 1, 0, 0, '[]', 'hiit', 1700500000000, 1700500000000)
                    """, arguments: [long])
            try db.execute(
                sql: "UPDATE focusTimer SET icon = 'rocket' WHERE id = '00000003-0000-4000-8000-000000000001'")
            // The same icon as sync keeps it: in the replica and in the log a server hands out.
            let stamp = "1700500000000-00000-n-00000000000000aa"
            try db.execute(
                sql: """
                    INSERT INTO syncField (entityType, entityId, field, value, stamp, device)
                    VALUES ('focusTimer', '00000003-0000-4000-8000-000000000001', 'icon', '"rocket"', ?, 'web@phone')
                    """, arguments: [stamp])
            try db.execute(
                sql: """
                    INSERT INTO syncLog (seq, stamp, entityType, entityId, field, message, origin)
                    VALUES (1, ?, 'focusTimer', '00000003-0000-4000-8000-000000000001', 'icon', ?, 'remote')
                    """,
                arguments: [
                    stamp,
                    #"{"device":"web@phone","field":"icon","id":"00000003-0000-4000-8000-000000000001","op":"set","#
                        + #""stamp":"\#(stamp)","type":"focusTimer","value":"rocket"}"#,
                ])
            try db.execute(
                sql: "UPDATE setting SET value = ? WHERE key = 'meditation.plan'",
                arguments: [
                    #"{"durationMs":600000,"intervalGongs":{"mode":"offsets","offsetsMs":[300000,600000,900000]}}"#
                ])
        }
        try queue.close()

        let database = try MomentumDatabase.open(directory: directory.url)

        let presets = try database.breathingPresets()
        let cut = String(long.prefix(100)).trimmingCharacters(in: .whitespaces)
        #expect(presets.first { $0.id == "long-one" }?.name == cut)
        // The second would take the same name once cut: it ends in its id's first characters.
        #expect(
            presets.first { $0.id == "long-two" }?.name == String(long.prefix(95)).trimmingCharacters(in: .whitespaces)
                + " long")
        #expect(presets.allSatisfy { $0.name.count <= BreathingPreset.maximumNameLength })
        #expect(try database.workoutPrograms().first { $0.id == "long" }?.name == cut)
        let timer = try #require(try database.focusTimers().first)
        #expect(timer.icon == FocusTimer.defaultIcon)
        let key = SyncEntityKey(type: .focusTimer, id: "00000003-0000-4000-8000-000000000001")
        #expect(try database.lastChange(of: "icon", in: key)?.value == .string(FocusTimer.defaultIcon))
        let page = try database.loggedChangeTexts(after: 0, limit: 10, at: Self.date(days: 400))
        let logged = try #require(page.changes.first?.message)
        let message = try JSONDecoder().decode(ChangeMessage.self, from: Data(logged.utf8))
        #expect(try Change(message).operation == .set(field: "icon", value: .string(FocusTimer.defaultIcon)))
        let plan = MomentumSettings(storedValues: try database.settingValues()).meditation
        #expect(plan.intervalGongs == .offsets([.seconds(300)]))
        #expect(throws: Never.self) { try plan.validate() }
    }

    static func date(days: Double = 0, seconds: TimeInterval = 0) -> Date {
        base.addingTimeInterval(days * day + seconds)
    }

    static func uuid(_ text: String) throws -> UUID { try #require(UUID(uuidString: text)) }

    func checkPracticeLog(_ database: MomentumDatabase, holds: (Int) -> Bool) throws {
        let records = try database.practiceRecords()
        var expected = [
            "00000001-0000-4000-8000-000000000001", "00000001-0000-4000-8000-000000000002",
        ]
        if holds(6) { expected.append("00000006-0000-4000-8000-000000000001") }
        if holds(7) { expected.append("00000007-0000-4000-8000-000000000001") }
        if holds(11) { expected.append("00000011-0000-4000-8000-000000000001") }
        #expect(records.map { $0.id.uuidString.lowercased() } == expected)

        let meditation = try #require(records.first)
        #expect(meditation.kind == .meditation)
        #expect(meditation.start == Self.date())
        #expect(meditation.end == Self.date(seconds: 1200))
        #expect(meditation.countedSeconds == 1200)
        #expect(meditation.energyKilocalories == nil)
        #expect(meditation.details == ["plan": "20 min"])
        #expect(meditation.device == "terminal@laptop")

        // Written before the input rules at 25 000 kcal: v11 brought it to the most one record holds.
        let workout = records[1]
        #expect(workout.kind == .workout)
        #expect(workout.countedSeconds == 2700)
        #expect(workout.energyKilocalories == PracticeRecord.maximumEnergyKilocalories)
        #expect(workout.device == "web@phone")

        if holds(11) {
            #expect(records.last?.energyKilocalories == 10_000)
            #expect(records.last?.countedSeconds == 7200)
        }
        if holds(7) {
            let morse = try #require(records.first { $0.kind == .morse })
            #expect(morse.details == ["direction": "receive", "level": "1"])
        }
    }

    func checkSettings(_ database: MomentumDatabase) throws {
        let values = try database.settingValues()
        #expect(values["language"] == #""de""#)
        #expect(values["sound"] == "false")
        let settings = MomentumSettings(storedValues: values)
        #expect(settings.language == .german)
        #expect(settings.isSoundOn == false)
        #expect(settings.meditation.duration == .seconds(1200))
        #expect(settings.meditation.countdown == .seconds(10))
        #expect(settings.meditation.intervalGongs == .every(minutes: 5))
    }

    func checkBreathingPresets(_ database: MomentumDatabase, holds: (Int) -> Bool) throws {
        let presets = try database.breathingPresets()
        guard holds(2) else {
            #expect(presets.isEmpty)
            return
        }
        // The tab an earlier version let into a name is a space now.
        #expect(presets.map(\.name) == ["Box four", "Evening calm"] + (holds(11) ? ["Ruhe vor dem Schlaf"] : []))
        #expect(presets.map(\.id) == ["box-four", "evening-calm"] + (holds(11) ? ["ruhe"] : []))
        let box = try #require(presets.first)
        #expect(box.pattern.inhale == .seconds(4))
        #expect(box.pattern.holdAfterInhale == .seconds(4))
        #expect(box.pattern.exhale == .seconds(4))
        #expect(box.pattern.holdAfterExhale == .seconds(4))
        #expect(box.rounds == 6)
        #expect(presets[1].pattern.exhale == .milliseconds(6500))
        #expect(presets[1].rounds == 10)
    }

    func checkMeditationPresets(_ database: MomentumDatabase, holds: (Int) -> Bool) throws {
        let presets = try database.meditationPresets()
        guard holds(13) else {
            #expect(presets.isEmpty)
            return
        }
        let evening = try #require(presets.first { $0.name == "Evening sit" })
        if holds(17) {
            // Moved after the short sit, though made before it.
            #expect(presets.map(\.name) == ["Short sit", "Evening sit"])
            #expect(presets.map(\.sortOrder) == [0, 1])
        } else {
            #expect(presets.count == 1)
            #expect(evening.sortOrder == 0)
        }
        #expect(
            evening.plan
                == MeditationPlan(
                    duration: .minutes(20), countdown: .seconds(10), intervalGongs: .every(minutes: 5),
                    ambientID: "rain",
                    ambientVolume: 0.3))
        #expect(evening.createdAt == Date(timeIntervalSince1970: 1_700_500_000))
    }

    func checkFocusTimers(_ database: MomentumDatabase, holds: (Int) -> Bool) throws {
        let timers = try database.focusTimers()
        guard holds(3) else {
            #expect(timers.isEmpty)
            return
        }
        #expect(timers.map(\.name) == ["Morning pages", "Tidy desk"])
        let running = try #require(timers.first)
        #expect(running.id == (try Self.uuid("00000003-0000-4000-8000-000000000001")))
        #expect(running.duration == .seconds(1500))
        #expect(running.icon == "book")
        #expect(running.color == "#B5835A")
        #expect(running.notes == "Water first.\nThen write.")
        #expect(
            running.run
                == .running(startedAt: Self.date(), resumedAt: Self.date(seconds: 300), elapsedBefore: .seconds(120)))
        #expect(running.items.isEmpty)

        let idle = timers[1]
        #expect(idle.icon == (holds(12) ? "moon" : "leaf"))
        #expect(idle.duration == .seconds(600))
        #expect(idle.notes == "")
        #expect(idle.run == .idle)
        #expect(idle.items.map(\.text) == ["Clear papers", "Wipe screen"])
        #expect(idle.items.map(\.done) == [true, false])
        #expect(idle.items.first?.updatedAt == Self.date(seconds: 400))
    }

    func checkWorkoutPrograms(_ database: MomentumDatabase, holds: (Int) -> Bool) throws {
        let programs = try database.workoutPrograms()
        guard holds(4) else {
            #expect(programs.isEmpty)
            return
        }
        let program = try #require(programs.first)
        #expect(programs.count == 1)
        #expect(program.id == "legs-day")
        #expect(program.name == "Legs day")
        #expect(program.plan.getReady == .seconds(10))
        #expect(program.plan.warmUp == .seconds(120))
        #expect(program.plan.work == .seconds(45))
        #expect(program.plan.rest == .seconds(15))
        #expect(program.plan.rounds == 8)
        #expect(program.plan.sets == 2)
        #expect(program.plan.setRest == .seconds(60))
        #expect(program.plan.coolDown == .seconds(180))
        #expect(program.plan.activity == .hiit)
        // The tab an earlier version let into an exercise name is a space now.
        #expect(program.plan.exerciseNames == ["Squats", "Jumping jacks"])
    }

    func checkAccess(_ database: MomentumDatabase, holds: (Int) -> Bool) throws {
        // The token of v14's second person is checked by `checkPeople`.
        let tokens = try database.accessTokens().filter { $0.id != "tok-ben" }
        guard holds(5) else {
            #expect(tokens.isEmpty)
            return
        }
        #expect(tokens.map(\.id) == ["tok-old", "tok-phone"] + (holds(10) ? ["tok-calendar"] : []))
        // Tokens made before scopes keep opening everything.
        #expect(tokens.prefix(2).map(\.scope) == [.full, .full])
        #expect(tokens.first?.revokedAt == Self.date(seconds: -1000))
        #expect(tokens.first?.createdAt == Self.date(days: -1))
        #expect(tokens[1].isRevoked == false)
        #expect(try database.accessToken(secretHash: String(repeating: "a", count: 64))?.name == "Phone")
        guard holds(10) else { return }
        #expect(tokens.last?.scope == .feed)
        let signIn = try #require(try database.accessSession(idHash: String(repeating: "f", count: 64)))
        #expect(signIn.token.id == "tok-phone")
        #expect(signIn.session.lastUsedAt == Self.date(days: 5, seconds: 3600))
    }

    /// Tokens made before households are the founder's; the people read back as written.
    func checkPeople(_ database: MomentumDatabase, holds: (Int) -> Bool) throws {
        let tokens = try database.accessTokens()
        #expect(tokens.filter { $0.id != "tok-ben" }.allSatisfy { $0.personID == Person.founderID && !$0.isPairing })
        guard holds(14) else {
            #expect(try database.people().isEmpty)
            return
        }
        let people = try database.people()
        #expect(people.map(\.name) == ["Ada", "Ben"])
        #expect(people.map(\.role) == [.owner, .member])
        #expect(people.map(\.hasPIN) == [false, true])
        let ben = try #require(tokens.first { $0.id == "tok-ben" })
        #expect(ben.personID == 2 && ben.isPairing)
    }

    /// What the founder had set on library items before households became their own view.
    func checkLibraryViews(_ database: MomentumDatabase, holds: (Int) -> Bool) throws {
        let views = try database.libraryViews()
        let items = try database.libraryItems()
        #expect(views.count == (holds(8) ? items.count : 0))
        for item in items {
            let view = try #require(views[item.id])
            #expect(view.position == item.position)
            #expect(view.isAmbientBed == item.isAmbientBed)
            #expect(view.hasEdits == (item.editedTeacher != nil || item.editedName != nil))
            #expect(item.seen(through: view) == item)
        }
    }

    func checkMorse(_ database: MomentumDatabase, holds: (Int) -> Bool) throws {
        let sessions = try database.morseSessions(limit: 10)
        guard holds(7) else {
            #expect(try database.morseCourseJSON() == nil)
            #expect(sessions.isEmpty)
            return
        }
        let json = try #require(try database.morseCourseJSON())
        #expect(json == SchemaFixtures.morseCourseProgress)
        let progress = try MorseCourseProgress.decoded(fromJSON: Data(json.utf8))
        // Stored when level n practised n characters: old level 2 (K M) reads as level 1, which
        // practises K M now; reaching it is the course's start, so no level up or review is left.
        #expect(progress[.receive].level == 1)
        #expect(progress.order.characters(atLevel: progress[.receive].level).map(\.displayText) == ["K", "M"])
        #expect(progress[.receive].levelHistory.isEmpty)
        #expect(progress[.receive].levelReviewDue == nil)
        #expect(progress.courseStart == Self.date(days: 3))
        let session = try #require(sessions.first)
        #expect(sessions.count == 1)
        #expect(session.id == (try Self.uuid("00000007-0000-4000-8000-000000000002")))
        #expect(session.direction == .receive)
        #expect(session.order == .standard)
        #expect(session.level == 1)
        #expect(session.nextLevel == 2)
        #expect(session.startedAt == Self.date(days: 3))
        #expect(session.endedAt == Self.date(days: 3, seconds: 120))
        #expect(session.trainingMilliseconds == 120_000)
        #expect(session.attempts == 20)
        #expect(session.correct == 20)
    }

    func checkLibrary(_ database: MomentumDatabase, holds: (Int) -> Bool) throws {
        let items = try database.libraryItems()
        guard holds(8) else {
            #expect(items.isEmpty)
            return
        }
        #expect(items.map(\.originalName) == ["Body scan", "rain"])
        let guided = try #require(items.first)
        #expect(guided.originalTeacher == "Tara")
        #expect(guided.originalAlbum == "Evenings")
        #expect(guided.editedName == "Evening body scan")
        #expect(guided.editedTeacher == nil)
        #expect(guided.duration == .seconds(1260))
        #expect(guided.format == .mp3)
        #expect(guided.fileName == "00000008-0000-4000-8000-000000000001.mp3")
        #expect(guided.originalFileName == "body scan (final).mp3")
        #expect(guided.byteSize == 2_048_000)
        #expect(guided.position == .seconds(300))
        #expect(guided.isAmbientBed == false)
        let rain = items[1]
        #expect(rain.format == .wav)
        #expect(rain.isAmbientBed)
        #expect(rain.contentHash == String(repeating: "d", count: 64))
    }

    func checkSync(_ database: MomentumDatabase, holds: (Int) -> Bool) throws {
        let status = try database.syncStatus()
        guard holds(9) else {
            #expect(status.node == nil)
            return
        }
        #expect(status.node == "n-00000000000000aa")
        #expect(status.serverURL == "https://sync.example.org")
        #expect(status.cursor == 17)
        #expect(status.lastSyncAt == Self.date(seconds: 600))
        let key = SyncEntityKey(type: .practiceRecord, id: "00000001-0000-4000-8000-000000000001")
        let version = try #require(try database.lastChange(of: "countedSeconds", in: key))
        #expect(version.value == .integer(1200))
        #expect(version.stamp.description == "1700000000000-00001-n-00000000000000aa")
        #expect(version.device == "terminal@laptop")
        #expect(try database.syncLogSize().compactedThrough == (holds(15) ? 1 : 0))
    }
}
