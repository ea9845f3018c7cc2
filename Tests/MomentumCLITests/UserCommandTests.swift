import Foundation
import GRDB
import MomentumComposition
import MomentumCore
import MomentumServices
import MomentumTestSupport
import Testing

@testable import MomentumCLI
@testable import MomentumStore

/// `momentum user …`, `--user` / `MOMENTUM_USER`, `token --user` and `pair` (issue 26): a household
/// managed from the terminal, where every command without `--user` acts as the owner, as before.
@Suite("user, --user and pair commands: a household from the terminal")
struct UserCommandTests {
    /// A terminal whose household has Anna (a member) besides its owner.
    func withAnna(language: String? = nil) async throws -> TestTerminal {
        let terminal = try TestTerminal()
        let languageArguments = language.map { ["--lang", $0] } ?? []
        #expect(await terminal.run(["user", "add", "Anna"] + languageArguments) == 0, "\(terminal.errors.text)")
        return terminal
    }

    func household(_ terminal: TestTerminal, minutesLater: Double = 1) async throws -> HouseholdService {
        let at = terminal.wallOrigin.addingTimeInterval(minutesLater * 60)
        return try await HouseholdService.open(dataDirectory: terminal.directory.url, device: "test", now: { at })
    }

    func json(_ terminal: TestTerminal) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(terminal.output.text.utf8)) as? [[String: Any]])
    }

    // MARK: - user add, list

    @Test func aPersonIsAddedAndListed() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["user", "add", "Anna"]) == 0)
        #expect(
            terminal.output.lines == [
                #"Anna joined this server's household (member). Sign in a phone: momentum pair --user "Anna""#
            ])
        let owner = try TestTerminal(sharing: terminal)
        #expect(await owner.run(["user", "add", "Bert", "--role", "owner", "--lang", "de"]) == 0)

        let list = try TestTerminal(sharing: terminal)
        #expect(await list.run(["user", "list"]) == 0)
        let lines = list.output.lines
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.first?.contains("name") == true && lines.first?.contains("role") == true)
        #expect(lines.dropFirst().first?.hasPrefix("owner (you)") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Anna ") && $0.contains("member") })
        #expect(lines.contains { $0.hasPrefix("Bert ") && $0.contains("owner") && $0.contains("de") })

        let rows = try TestTerminal(sharing: terminal)
        #expect(await rows.run(["user", "list", "--json"]) == 0)
        let people = try json(rows)
        #expect(people.map { $0["name"] as? String } == ["owner", "Anna", "Bert"])
        #expect(people.map { $0["role"] as? String } == ["owner", "member", "owner"])
        #expect(people.map { $0["language"] as? String } == [nil, nil, "de"])
        #expect(people.first?["id"] as? Int == 1)
        #expect(people.first?["hasPIN"] as? Bool == false)
        #expect(people.last?["createdAt"] as? String == "2027-01-15T08:00:00.000Z")

        let taken = try TestTerminal(sharing: terminal)
        #expect(await taken.run(["user", "add", "ANNA"]) != 0)
        #expect(taken.errors.text == "momentum: Someone here is already called ANNA.\n")
    }

    // MARK: - --user and MOMENTUM_USER

    @Test func userAndTheEnvironmentChooseWhoseLogASitGoesTo() async throws {
        let terminal = try await withAnna()
        let sit = try TestTerminal(sharing: terminal)
        #expect(await sit.run(["meditate", "1", "--countdown", "0", "--user", "anna"]) == 0, "\(sit.errors.text)")
        let byEnvironment = try TestTerminal(sharing: terminal)
        let environment = ["LANG": "en_GB.UTF-8", "MOMENTUM_USER": "Anna"]
        #expect(
            await byEnvironment.run(
                ["log", "add", "--minutes", "10", "--start", "2027-01-15 07:00"], environment: environment) == 0)

        let annas = try TestTerminal(sharing: terminal)
        #expect(await annas.run(["log", "--json", "--user", "Anna"]) == 0)
        #expect(try json(annas).count == 2)
        let annasByEnvironment = try TestTerminal(sharing: terminal)
        #expect(await annasByEnvironment.run(["log", "--json"], environment: environment) == 0)
        #expect(try json(annasByEnvironment).count == 2)

        let owners = try TestTerminal(sharing: terminal)
        #expect(await owners.run(["log", "--json"]) == 0)
        #expect(try json(owners).isEmpty)
        // --user wins over the environment.
        let ownerOverEnvironment = try TestTerminal(sharing: terminal)
        #expect(await ownerOverEnvironment.run(["log", "--json", "--user", "owner"], environment: environment) == 0)
        #expect(try json(ownerOverEnvironment).isEmpty)
    }

    @Test func anUnknownUserIsOneClearLine() async throws {
        let terminal = try await withAnna()
        let unknown = try TestTerminal(sharing: terminal)
        #expect(await unknown.run(["log", "--user", "Dora"]) != 0)
        #expect(unknown.errors.text == "momentum: No one here is called Dora; momentum user list shows who is.\n")
        #expect(unknown.output.text.isEmpty)
        let byEnvironment = try TestTerminal(sharing: terminal)
        #expect(await byEnvironment.run(["timer", "list"], environment: ["MOMENTUM_USER": "Dora"]) != 0)
        #expect(byEnvironment.errors.lines.count == 1)
    }

    // MARK: - user remove

    @Test func removingAsksAndAWrongAnswerKeepsEverything() async throws {
        let terminal = try await withAnna()
        #expect(await terminal.run(["timer", "add", "Annas tea", "5", "--user", "Anna"]) == 0)
        let asked = try TestTerminal(sharing: terminal)
        #expect(await asked.run(["user", "remove", "Anna"], answer: "yes") != 0)
        #expect(asked.output.text.contains("Type the name to confirm:"))
        #expect(asked.output.lines.last?.hasSuffix("Type the name to confirm: Nothing was removed.") == true)
        let silent = try TestTerminal(sharing: terminal)
        #expect(await silent.run(["user", "remove", "Anna"]) != 0)
        #expect(silent.output.lines.last?.hasSuffix(" Nothing was removed.") == true)

        let household = try await household(terminal)
        let anna = try await household.person(named: "Anna")
        await #expect(try household.services(for: anna).focusTimers.timers().map(\.name) == ["Annas tea"])

        let confirmed = try TestTerminal(sharing: terminal)
        #expect(await confirmed.run(["user", "remove", "Anna"], answer: " anna ") == 0)
        #expect(confirmed.output.lines.last?.hasSuffix(": Anna and their practice are removed.") == true)
        // Read afresh: another process's change reaches a household already open within
        // `MomentumDatabase.peopleRereadAfter` (the server's case), not at once.
        await #expect(try self.household(terminal).people().map(\.name) == ["owner"])
        let folder = terminal.directory.url.appendingPathComponent("people/\(anna.id)")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func removingWithYesDoesNotAskAndKeepsTheOwnersData() async throws {
        let terminal = try await withAnna()
        #expect(await terminal.run(["timer", "add", "Owners pages", "25"]) == 0)
        let removed = try TestTerminal(sharing: terminal)
        #expect(await removed.run(["user", "remove", "Anna", "--yes"]) == 0)
        #expect(removed.output.lines == ["Anna and their practice are removed."])
        let timers = try TestTerminal(sharing: terminal)
        #expect(await timers.run(["timer", "list"]) == 0)
        #expect(timers.output.text.contains("Owners pages"))
        let owner = try TestTerminal(sharing: terminal)
        #expect(await owner.run(["user", "remove", "owner", "--yes"]) != 0)
        #expect(owner.errors.text.contains("cannot be removed"))
    }

    // MARK: - Tokens and pairing

    @Test func aTokenMadeWithUserIsThatPersonsAndListedOnlyForThem() async throws {
        let terminal = try await withAnna()
        let created = try TestTerminal(sharing: terminal)
        #expect(await created.run(["token", "create", "--name", "annas-phone", "--user", "Anna"]) == 0)
        let secret = try #require(created.output.lines.last)

        let household = try await household(terminal)
        let anna = try await household.person(named: "Anna")
        await #expect(try household.accessTokens.verify(secret: secret)?.personID == anna.id)

        let owners = try TestTerminal(sharing: terminal)
        #expect(await owners.run(["token", "list"]) == 0)
        #expect(!owners.output.text.contains("annas-phone"))
        let annas = try TestTerminal(sharing: terminal)
        #expect(await annas.run(["token", "list", "--user", "Anna"]) == 0)
        #expect(annas.output.text.contains("annas-phone"))
    }

    @Test func pairPrintsALinkAndACodeThatSignsInOnce() async throws {
        let terminal = try await withAnna()
        let pair = try TestTerminal(sharing: terminal)
        #expect(
            await pair.run(["pair", "--user", "Anna", "--address", "http://192.168.1.20:8080"]) == 0,
            "\(pair.errors.text)")
        let prefix = "http://192.168.1.20:8080/pair.html#"
        let link = try #require(pair.output.lines.first { $0.hasPrefix(prefix) }, "\(pair.output.text)")
        let code = String(link.dropFirst(prefix.count))
        #expect(code.count == 14)
        #expect(code.split(separator: "-").count == 3)
        #expect(try PairingCode.normalized(code).count == 12)
        #expect(pair.output.text.contains("Anna's phone or tablet"))
        #expect(pair.output.text.contains("type the code \(code)"))

        let household = try await household(terminal, minutesLater: 9)
        let (sessionID, person) = try await household.pair(code: code, deviceName: nil)
        #expect(person.name == "Anna")
        await #expect(try household.accessTokens.verifySession(sessionID)?.token.personID == person.id)
        await #expect(throws: HouseholdError.pairing(.notUsable)) {
            try await household.pair(code: code, deviceName: nil)
        }
    }

    @Test func pairRefusesAnAddressWithAPathAndSpendsNoCode() async throws {
        let terminal = try await withAnna()
        let pair = try TestTerminal(sharing: terminal)
        #expect(await pair.run(["pair", "--user", "Anna", "--address", "http://192.168.1.20:8080/app"]) != 0)
        #expect(pair.output.text.isEmpty)
        #expect(pair.errors.lines.count == 1, "\(pair.errors.text)")
    }

    // MARK: - Upgrading

    /// Given a data directory as the release before households left it (schema up to v13, with a
    /// log, a saved sit, timers and a Morse course); when the new build opens it without
    /// `--user`; then every command shows everything as before, and the household has one owner.
    @Test func anInstallationFromBeforeHouseholdsIsTheOwnersUnchanged() async throws {
        let terminal = try TestTerminal()
        try OldInstallation.write(in: terminal.directory.url)

        let log = try TestTerminal(sharing: terminal)
        #expect(await log.run(["log", "--json"]) == 0, "\(log.errors.text)")
        #expect(
            Set(try json(log).compactMap { $0["id"] as? String }) == [
                "00000001-0000-4000-8000-000000000001", "00000001-0000-4000-8000-000000000002",
                "00000007-0000-4000-8000-000000000001",
            ])
        let timers = try TestTerminal(sharing: terminal)
        #expect(await timers.run(["timer", "list"]) == 0, "\(timers.errors.text)")
        #expect(timers.output.text.contains("Morning pages") && timers.output.text.contains("Tidy desk"))
        let sits = try TestTerminal(sharing: terminal)
        #expect(await sits.run(["meditate", "presets", "list"]) == 0, "\(sits.errors.text)")
        #expect(sits.output.text.contains("Evening sit"))
        let morse = try TestTerminal(sharing: terminal)
        #expect(await morse.run(["morse", "progress", "--json"]) == 0, "\(morse.errors.text)")
        let course = try #require(
            try JSONSerialization.jsonObject(with: Data(morse.output.text.utf8)) as? [String: Any])
        // The v7 course's level 2 (K M) reads as level 1 since v11 (see SchemaHistoryTests.checkMorse).
        #expect((course["receive"] as? [String: Any])?["level"] as? Int == 1)
        #expect((course["receive"] as? [String: Any])?["characters"] as? [String] == ["K", "M"])
        let morseText = try TestTerminal(sharing: terminal)
        #expect(await morseText.run(["morse", "progress"]) == 0)
        #expect(morseText.output.lines.first?.hasPrefix("No Morse sessions yet") == false, "\(morseText.output.text)")

        let people = try TestTerminal(sharing: terminal)
        #expect(await people.run(["user", "list", "--json"]) == 0)
        let rows = try json(people)
        #expect(rows.count == 1)
        #expect(rows.first?["role"] as? String == "owner")
        #expect(rows.first?["id"] as? Int == 1)
        // The owner's data stayed where it was: no folder of people was made.
        let folder = terminal.directory.url.appendingPathComponent("people")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}

/// A data directory as the release before households (schema v13) left it: rows frozen as that
/// release's schema versions wrote them (a copy of the rows `SchemaFixtures` in the store's tests
/// keeps for v1, v3, v7 and v13).
enum OldInstallation {
    static let lastIdentifier = "v13: saved sits"

    static let rows: [String: [String]] = [
        "v1: settings and practice log": [
            #"""
            INSERT INTO practiceRecord
                (id, kind, startMs, endMs, countedSeconds, energyKilocalories, details, device, createdAtMs, updatedAtMs)
            VALUES
                ('00000001-0000-4000-8000-000000000001', 'meditation', 1700000000000, 1700001200000, 1200, NULL,
                 '{"plan":"20 min"}', 'terminal@laptop', 1700001200000, 1700001200000),
                ('00000001-0000-4000-8000-000000000002', 'workout', 1700086400000, 1700089100000, 2700, 250,
                 '{}', 'web@phone', 1700089100000, 1700089100000)
            """#
        ],
        "v3: focus timers and checklists": [
            #"""
            INSERT INTO focusTimer (id, name, durationMs, icon, color, sortOrder, createdAtMs, updatedAtMs)
            VALUES ('00000003-0000-4000-8000-000000000001', 'Morning pages', 1500000, 'book', '#b5835a', 0,
                    1700000000000, 1700000000000),
                   ('00000003-0000-4000-8000-000000000002', 'Tidy desk', 600000, 'leaf', '#5A8BB5', 1,
                    1700000000000, 1700000000000)
            """#,
            #"""
            INSERT INTO checklistItem (id, timerId, text, done, sortOrder, createdAtMs, updatedAtMs) VALUES
                ('00000003-0000-4000-8000-000000000011', '00000003-0000-4000-8000-000000000002', 'Clear papers', 1, 0,
                 1700000000000, 1700000400000)
            """#,
        ],
        "v7: the Morse course": [
            #"""
            INSERT INTO morseCourse (id, progress, updatedAtMs) VALUES (1, '\#(morseCourseProgress)', 1700259320000)
            """#,
            #"""
            INSERT INTO morseSession
                (id, direction, koch, level, nextLevel, startedAtMs, endedAtMs, trainingMs, attempts, correct)
            VALUES
                ('00000007-0000-4000-8000-000000000002', 'receive', 'standard', 1, 2, 1700259200000, 1700259320000,
                 120000, 20, 20)
            """#,
            #"""
            INSERT INTO practiceRecord
                (id, kind, startMs, endMs, countedSeconds, energyKilocalories, details, device, createdAtMs, updatedAtMs)
            VALUES
                ('00000007-0000-4000-8000-000000000001', 'morse', 1700259200000, 1700259320000, 120, NULL,
                 '{"direction":"receive","level":"1"}', 'terminal@laptop', 1700259320000, 1700259320000)
            """#,
        ],
        "v13: saved sits": [
            #"""
            INSERT INTO meditationPreset (id, name, plan, createdAtMs, updatedAtMs) VALUES
                ('00000013-0000-4000-8000-000000000001', 'Evening sit',
                 '{"ambientID":"rain","ambientVolume":0.3,"countdownMs":10000,"durationMs":1200000,"intervalGongs":{"minutes":5,"mode":"every"},"isOpenEnded":false,"reflectionMs":0}',
                 1700500000000, 1700500000000)
            """#
        ],
    ]

    /// The Morse course after one receive session at level 1 that earned level 2, as `v7` stored it.
    static let morseCourseProgress = """
        {"courseStart":721952000,"order":"standard","receive":{"characterStatistics":{"K":{"attempts":20,\
        "correct":20,"timedAttempts":20,"totalResponseMilliseconds":14000}},"level":2,"levelHistory":[{"date":\
        721952120,"level":2}],"levelReviewDue":722556920,"schedule":{"intervalDays":2,"lastPractice":721952120,\
        "nextPractice":722124920}},"send":{"characterStatistics":{},"level":1,"levelHistory":[],"schedule":\
        {"intervalDays":1}},"streak":{"current":1,"lastDay":"2023-11-17","longest":1}}
        """

    /// Migrates a new `momentum.sqlite` in `directory` version by version up to v13, writing each
    /// version's rows right after its migration.
    static func write(in directory: URL) throws {
        let identifiers = MomentumDatabase.migrationIdentifiers
        let last = try #require(identifiers.firstIndex(of: lastIdentifier))
        let queue = try DatabaseQueue(path: directory.appendingPathComponent(MomentumDatabase.fileName).path)
        for identifier in identifiers[...last] {
            try MomentumDatabase.migrator.migrate(queue, upTo: identifier)
            try queue.write { db in
                for statement in rows[identifier] ?? [] { try db.execute(sql: statement) }
            }
        }
        try queue.close()
    }
}
