import Foundation
import MomentumComposition
import MomentumCore
import MomentumStore
import MomentumStoreTestSupport
import MomentumTestSupport
import Synchronization
import Testing

@testable import MomentumServices

/// A household's people and their services (issue 26): each person's practice is theirs alone,
/// people join, change and leave by the household's rules, and a pairing code signs in once.
@Suite("HouseholdService: a database per person, people by the rules, one-time pairing")
struct HouseholdServiceTests {
    let directory: TemporaryDirectory
    let household: HouseholdService
    let clock: HouseholdClock
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    init() async throws {
        directory = try TemporaryDirectory()
        let clock = HouseholdClock(Self.start)
        self.clock = clock
        household = try await HouseholdService.open(
            dataDirectory: directory.url, device: "test", login: "Ada", timeZone: .gmt,
            now: { clock.now })
    }

    func advance(by seconds: TimeInterval) { clock.advance(by: seconds) }

    var founder: Person { get async throws { try await household.person(named: nil) } }

    // MARK: - Who may do what

    @Test func anOwnerManagesEveryoneAndAMemberReachesOnlyThemselves() async throws {
        let owner = try await founder
        let ben = try await household.add(named: "Ben")
        let cleo = try await household.add(named: "Cleo", role: .owner)
        await #expect(try household.people(seenBy: owner).map(\.name) == ["Ada", "Ben", "Cleo"])
        await #expect(try household.people(seenBy: ben).map(\.name) == ["Ben"])
        #expect(household.canManage(cleo) && !household.canManage(ben))

        // A member changes no one, not even themselves; an owner anyone there is.
        #expect(throws: HouseholdError.ownerOnly) { try household.requireOwner(ben) }
        await #expect(throws: HouseholdError.ownerOnly) { try await household.person(id: ben.id, changedBy: ben) }
        await #expect(try household.person(id: ben.id, changedBy: cleo) == ben)
        await #expect(throws: HouseholdError.noSuchPerson) { try await household.person(id: 99, changedBy: owner) }
        await #expect(throws: HouseholdError.noSuchPerson) { try await household.person(id: nil, changedBy: owner) }

        // Reaching a person (their devices, a pairing): a member reaches only themselves, and to
        // them another's id is no one's.
        await #expect(try household.person(id: ben.id, reachedBy: ben) == ben)
        await #expect(throws: HouseholdError.noSuchPerson) { try await household.person(id: owner.id, reachedBy: ben) }
        await #expect(try household.person(id: ben.id, reachedBy: owner) == ben)
        #expect(FailureKind.of(HouseholdError.ownerOnly) == .forbidden)
        #expect(FailureKind.of(HouseholdError.noSuchPerson) == .notFound)
    }

    // MARK: - Each person's own practice

    @Test func aNewHouseholdHasItsFounderAsOwner() async throws {
        let people = try await household.people()
        #expect(people.map(\.name) == ["Ada"])
        #expect(people.first?.id == Person.founderID)
        #expect(people.first?.role == .owner)
        // Opening again writes no second founder.
        let again = try await HouseholdService.open(dataDirectory: directory.url, device: "test", login: "Other")
        await #expect(try again.people().map(\.name) == ["Ada"])
    }

    @Test func twoPeopleEachSeeOnlyTheirOwnPractice() async throws {
        let ben = try await household.add(named: "Ben")
        let ada = try await household.services(for: try founder)
        let bens = try await household.services(for: ben)
        #expect(try ada.sqlite.path == household.founder.sqlite.path)
        await #expect(try bens.sqlite.path == (try household.services(forID: ben.id)).sqlite.path)

        try await ada.practiceLog.addRecord(kind: .meditation, start: Self.start.addingTimeInterval(-3600), length: 600)
        try await ada.focusTimers.addTimer(name: "Ada's pages", items: ["Pen"])
        let plan = MeditationPlan(duration: .seconds(1200))
        try await ada.meditationPresets.addPreset(name: "Ada's sit", plan: plan)
        try await ada.morse.saveCallSign(try CallSign("DL1ADA"))
        try await ada.morse.saveCourseSettings(try MorseCourseSettings(characterWPM: 25, effectiveWPM: 15))
        var settings = try await ada.settings.load()
        settings.reminders = try settings.reminders.addingDaily(time: "10:00", weekdays: "all", category: "focus")
        try await ada.settings.save(settings)

        try await bens.focusTimers.addTimer(name: "Ben's tea")

        await #expect(try bens.practiceLog.records().isEmpty)
        await #expect(try bens.focusTimers.timers().map(\.name) == ["Ben's tea"])
        await #expect(try bens.meditationPresets.presets().isEmpty)
        await #expect(try bens.morse.callSign() == nil)
        await #expect(try bens.morse.courseSettings() == (try MorseCourseSettings()))
        await #expect(try bens.settings.load().reminders == MomentumSettings().reminders)
        await #expect(try bens.reminders.plan().reminders.isEmpty)
        await #expect(try bens.progress.report().streak(for: .mindfulness).current == 0)

        await #expect(try ada.practiceLog.records().count == 1)
        await #expect(try ada.focusTimers.timers().map(\.name) == ["Ada's pages"])
        await #expect(try ada.meditationPresets.presets().map(\.name) == ["Ada's sit"])
        await #expect(try ada.morse.callSign()?.text == "DL1ADA")
        await #expect(try !ada.reminders.plan().reminders.isEmpty)
        await #expect(try ada.progress.report().streak(for: .mindfulness).current == 1)

        // Ben's database is his own file, under people/ID.
        let bensFile = directory.url.appendingPathComponent("people/\(ben.id)/\(MomentumDatabase.fileName)")
        #expect(FileManager.default.fileExists(atPath: bensFile.path))
        #expect(try bens.sqlite.path == bensFile.path)
    }

    @Test func aPersonAddedWithALanguageHasItAsTheirSetting() async throws {
        let anna = try await household.add(named: "Anna", language: .german)
        await #expect(try household.services(for: anna).settings.load().language == .german)
        await #expect(try household.founder.settings.load().language == nil)
        let ben = try await household.add(named: "Ben")
        await #expect(try household.services(for: ben).settings.load().language == nil)
    }

    @Test func aNameTakenOrInvalidAddsNobody() async throws {
        try await household.add(named: "Ben")
        await #expect(throws: HouseholdError.person(.nameTaken("ben"))) { try await household.add(named: "ben") }
        await #expect(throws: HouseholdError.person(.nameStartsWithDash)) { try await household.add(named: "-x") }
        await #expect(try household.people().map(\.name) == ["Ada", "Ben"])
    }

    // MARK: - Leaving

    @Test func removingAPersonDeletesTheirFolderTokensAndSessionsAndNothingOfTheFounders() async throws {
        let ben = try await household.add(named: "Ben")
        try await household.services(for: ben).focusTimers.addTimer(name: "Ben's tea")
        try await household.founder.focusTimers.addTimer(name: "Ada's pages")
        let tokens = household.accessTokens
        let bensToken = try await tokens.create(name: "ben-phone", personID: ben.id)
        let bensSession = try await #require(try tokens.startSession(secret: bensToken.secret))
        let adasToken = try await tokens.create(name: "ada-phone")
        let adasSession = try await #require(try tokens.startSession(secret: adasToken.secret))
        let folder = directory.url.appendingPathComponent("people/\(ben.id)")
        #expect(FileManager.default.fileExists(atPath: folder.path))

        let removed = try await household.remove("BEN")
        #expect(removed.id == ben.id)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        await #expect(try household.people().map(\.name) == ["Ada"])
        await #expect(try tokens.tokens(of: ben.id).isEmpty)
        await #expect(try tokens.verify(secret: bensToken.secret) == nil)
        await #expect(try tokens.verifySession(bensSession) == nil)

        await #expect(try tokens.verify(secret: adasToken.secret)?.id == adasToken.token.id)
        await #expect(try tokens.verifySession(adasSession) != nil)
        await #expect(try household.founder.focusTimers.timers().map(\.name) == ["Ada's pages"])
        #expect(
            FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(MomentumDatabase.fileName).path)
        )
        await #expect(throws: HouseholdError.person(.unknownPerson("Ben"))) { try await household.person(named: "Ben") }
    }

    @Test func aPersonAddedAgainAfterRemovalStartsEmpty() async throws {
        let ben = try await household.add(named: "Ben")
        try await household.services(for: ben).focusTimers.addTimer(name: "Ben's tea")
        try await household.remove("Ben")
        let again = try await household.add(named: "Ben")
        await #expect(try household.services(for: again).focusTimers.timers().isEmpty)
    }

    @Test func theFounderCannotBeRemoved() async throws {
        try await household.add(named: "Cy", role: .owner)
        await #expect(throws: HouseholdError.person(.founderStays("Ada"))) { try await household.remove("Ada") }
        await #expect(try household.people().count == 2)
    }

    @Test func anUnknownPersonIsNamed() async {
        await #expect(throws: HouseholdError.person(.unknownPerson("Dora"))) { try await household.remove("Dora") }
    }

    // MARK: - Names and roles

    @Test func aPersonIsRenamedAndFoundByTheNewName() async throws {
        let ben = try await household.add(named: "Ben")
        let renamed = try await household.rename("ben", to: "Benedikt")
        #expect(renamed.id == ben.id && renamed.name == "Benedikt")
        await #expect(try household.person(named: "benedikt").id == ben.id)
        await #expect(try household.rename("Benedikt", to: "BENEDIKT").name == "BENEDIKT")
        await #expect(throws: HouseholdError.person(.nameTaken("Ada"))) {
            try await household.rename("Benedikt", to: "Ada")
        }
    }

    @Test func aRoleChangeKeepsAnOwner() async throws {
        try await household.add(named: "Ben")
        await #expect(throws: HouseholdError.person(.lastOwner("Ada"))) {
            try await household.setRole(of: "Ada", to: .member)
        }
        await #expect(try household.setRole(of: "Ben", to: .owner).role == .owner)
        await #expect(try household.setRole(of: "Ada", to: .member).role == .member)
        await #expect(try household.people().map(\.role) == [.member, .owner])
        await #expect(throws: HouseholdError.person(.lastOwner("Ben"))) {
            try await household.setRole(of: "Ben", to: .member)
        }
    }

    // MARK: - PINs

    @Test func aPINLocksAProfileUntilCleared() async throws {
        let ben = try await household.add(named: "Ben")
        await #expect(try household.checkPIN(nil, for: ben))
        await #expect(try household.checkPIN("9999", for: ben))
        try await household.setPIN(of: "Ben", to: "2580")
        await #expect(try household.person(named: "Ben").hasPIN)
        await #expect(try household.checkPIN("2580", for: ben))
        await #expect(try !household.checkPIN("2581", for: ben))
        await #expect(try !household.checkPIN(nil, for: ben))
        await #expect(try !household.checkPIN("", for: ben))
        await #expect(throws: HouseholdError.person(.pinFormat(minimum: 4, maximum: 8))) {
            try await household.setPIN(of: "Ben", to: "12")
        }
        await #expect(try household.checkPIN("2580", for: ben))
        // The same PIN of another person is stored differently.
        try await household.setPIN(of: "Ada", to: "2580")
        await #expect(try household.store.personPINHash(id: ben.id) != household.store.personPINHash(id: 1))
        try await household.setPIN(of: "Ben", to: nil)
        await #expect(try !household.person(named: "Ben").hasPIN)
        await #expect(try household.checkPIN(nil, for: ben))
    }

    // MARK: - Pairing

    @Test func aPairingCodeSignsInOnceAsItsPerson() async throws {
        let ben = try await household.add(named: "Ben")
        let pairing = try await household.startPairing(for: ben)
        #expect(pairing.person == ben)
        #expect(pairing.expiresAt == Self.start.addingTimeInterval(600))
        #expect(pairing.code.count == 14 && pairing.code.split(separator: "-").count == 3)

        let (sessionID, person) = try await household.pair(code: pairing.code.lowercased(), deviceName: "Ben's phone")
        #expect(person.id == ben.id)
        let session = try await #require(try household.accessTokens.verifySession(sessionID))
        #expect(session.token.personID == ben.id)
        #expect(session.token.name == "Ben's phone")
        #expect(session.token.scope == .full)
        await #expect(try household.accessTokens.tokens(of: ben.id).map(\.id) == [session.token.id])

        await #expect(throws: HouseholdError.pairing(.notUsable)) {
            try await household.pair(code: pairing.code, deviceName: nil)
        }
    }

    @Test func aPairingCodeTenMinutesOldIsRefused() async throws {
        let ben = try await household.add(named: "Ben")
        let late = try await household.startPairing(for: ben)
        let justInTime = try await household.startPairing(for: ben)
        advance(by: 599)
        let (sessionID, _) = try await household.pair(code: justInTime.code, deviceName: nil)
        await #expect(try household.accessTokens.verifySession(sessionID) != nil)
        advance(by: 1)
        await #expect(throws: HouseholdError.pairing(.notUsable)) {
            try await household.pair(code: late.code, deviceName: nil)
        }
        await #expect(try household.accessTokens.tokens(of: ben.id).count == 1)
    }

    @Test(arguments: ["", "7KQM-X3HD", "7KQM-X3HD-R9WO", "not a code at all"])
    func aMalformedCodeIsSaidToBeMalformed(_ code: String) async throws {
        await #expect(throws: HouseholdError.pairing(.malformed)) {
            try await household.pair(code: code, deviceName: nil)
        }
    }

    @Test func anUnknownCodeIsNotUsable() async throws {
        await #expect(throws: HouseholdError.pairing(.notUsable)) {
            try await household.pair(code: "2222-3333-4444", deviceName: nil)
        }
    }

    @Test func aRemovedPersonsCodeIsNotUsable() async throws {
        let ben = try await household.add(named: "Ben")
        let pairing = try await household.startPairing(for: ben)
        try await household.remove("Ben")
        await #expect(throws: HouseholdError.pairing(.notUsable)) {
            try await household.pair(code: pairing.code, deviceName: nil)
        }
    }
}

/// A clock the test moves by hand.
final class HouseholdClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0.addTimeInterval(seconds) } }
}
