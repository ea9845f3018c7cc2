import Foundation
import MomentumCore
import MomentumPostgres
import MomentumServices
import MomentumStore
import MomentumStoreContract
import MomentumStoreTestSupport
import Testing

@testable import MomentumServer

/// Where Morse training sessions and QSO contacts are kept: in memory on SQLite
/// (``ExpiringRegistry``), in `morse_exchange` on PostgreSQL (``StoredMorseExchanges``): the same
/// answers either way, and a stored one rebuilt by replaying its steps answers exactly what the
/// one it was stored from answers.
@Suite("Morse sessions and QSO contacts kept in memory or in the database")
struct MorseExchangeStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000.123_456)

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    private func trainings(on store: StoreUnderTest) throws -> any MorseExchanges<MorseTraining> {
        switch store.kind {
        case .sqlite: return ExpiringRegistry<MorseTraining>(unknown: .apiNoMorseSession)
        case .postgres:
            let postgres = try #require(store.postgresStore).scoped(to: store.personID)
            return StoredMorseExchanges<MorseTraining>(store: postgres, unknown: .apiNoMorseSession)
        }
    }

    private func contacts(on store: StoreUnderTest) throws -> any MorseExchanges<MorseContact> {
        switch store.kind {
        case .sqlite: return ExpiringRegistry<MorseContact>(unknown: .apiNoContact)
        case .postgres:
            let postgres = try #require(store.postgresStore).scoped(to: store.personID)
            return StoredMorseExchanges<MorseContact>(store: postgres, unknown: .apiNoContact)
        }
    }

    /// A training at level `level` whose course already has statistics with response times that
    /// are not whole milliseconds.
    static func training(
        id: UUID = UUID(), direction: MorseDirection = .receive, level: Int = 4, groupSize: Int = 1,
        at start: Date = t0, seed: UInt64 = 0xFEED_FACE_CAFE_BEEF, conditions: MorseBandConditions.Preset = .clean
    ) throws -> MorseTraining {
        let fresh = try MorseSession(direction: direction, order: .standard, level: level, at: start)
        var statistics: [MorseSymbol: MorseCharacterStatistics] = [:]
        for (index, symbol) in fresh.drill.characters.enumerated() {
            statistics[symbol] = try MorseCharacterStatistics(
                attempts: 10 + index, correct: 5 + index, timedAttempts: 3,
                totalResponseTime: .microseconds(2_345_678 + Int64(index)))
        }
        let session = try MorseSession(
            direction: direction, order: .standard, level: level, statistics: statistics, groupSize: groupSize,
            length: .minutes(2), at: start)
        let settings = try MorseCourseSettings(characterWPM: 22.5, effectiveWPM: 11, toneHertz: 700)
        return try MorseTraining(id: id, session: session, settings: settings, seed: seed, conditions: conditions)
    }

    static func contact(id: UUID = UUID(), mode: QSOMode = .answer, at start: Date = t0) throws -> MorseContact {
        try MorseContact(
            id: id, style: .ragChew, mode: mode, ownCallSign: "dl1abc", seed: 11, settings: MorseCourseSettings(),
            at: start)
    }

    // MARK: Both stores

    @Test(arguments: StoreKind.available)
    func trainingsAreAddedReadChangedAndForgottenAlikeOnBothStores(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let trainings = try trainings(on: store)
        let first = try Self.training()
        try await trainings.add(first)
        let phase = try await trainings.update(id: first.id) { training in
            try training.startTraining(at: Self.at(10))
            return training.session.phase
        }
        #expect(phase == .training)
        let read = try await trainings.value(id: first.id)
        #expect(read.steps.map(\.action) == [.startTraining])
        #expect(read.item != nil)
        #expect(read.lastActivity == Self.at(10))

        // A change that throws changes nothing; an unknown id is "not found".
        await #expect(throws: MorseSessionError.self) {
            _ = try await trainings.update(id: first.id) { training in try training.startTraining(at: Self.at(20)) }
        }
        await #expect(throws: APIError.self) {
            _ = try await trainings.update(id: UUID()) { _ in () }
        }
        await #expect(throws: APIError.self) { _ = try await trainings.value(id: UUID()) }
        let unchanged = try await trainings.value(id: first.id)
        #expect(unchanged.steps.count == 1)

        // Idle for two hours: forgotten when another is added; one used within them stays.
        let second = try Self.training(at: Self.at(60))
        try await trainings.add(second)
        let third = try Self.training(at: Self.at(10 + 2 * 3600 + 1))
        try await trainings.add(third)
        await #expect(throws: APIError.self) { _ = try await trainings.value(id: first.id) }
        let kept = try await trainings.value(id: second.id)
        #expect(kept.id == second.id)

        try await trainings.remove(id: second.id)
        await #expect(throws: APIError.self) { _ = try await trainings.value(id: second.id) }
        if kind == .postgres {
            let rows = try await store.postgres(
                "SELECT count(*)::int FROM morse_exchange WHERE person_id = \(store.personID) AND kind = 'training'")
            #expect(rows == 1)
        }
    }

    @Test(arguments: StoreKind.available)
    func contactsAreKeptApartFromTrainingsOnBothStores(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let (trainings, contacts) = (try trainings(on: store), try contacts(on: store))
        let contact = try Self.contact()
        try await contacts.add(contact)
        let station = contact.qso.station.callSign.text
        let reply = try await contacts.update(id: contact.id) { contact in
            try contact.send("\(station) DE DL1ABC K", at: Self.at(5))
            return contact.lastReply
        }
        #expect(reply?.advanced == true)
        let read = try await contacts.value(id: contact.id)
        #expect(read.transmissions.map(\.text) == ["\(station) DE DL1ABC K"])
        // A contact is no training session, and the other way round.
        await #expect(throws: APIError.self) { _ = try await trainings.value(id: contact.id) }
        // A refused transmission changes nothing.
        await #expect(throws: QSOError.self) {
            try await contacts.update(id: contact.id) { contact in
                try contact.send(String(repeating: "A", count: 600), at: Self.at(6))
            }
        }
        let unchanged = try await contacts.value(id: contact.id)
        #expect(unchanged.transmissions.count == 1)
        try await contacts.remove(id: contact.id)
        await #expect(throws: APIError.self) { _ = try await contacts.value(id: contact.id) }
    }

    // MARK: Replay

    /// Everything the browser is told of `training` at `instant`, as JSON, with what the wire
    /// leaves out compared too.
    static func answers(of training: MorseTraining, at instant: Date) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var generator = training.generator
        let next = (0..<4).map { _ in generator.next() }
        let wire = String(decoding: try encoder.encode(MorseWire.Session(training, at: instant)), as: UTF8.self)
        return """
            \(wire)
            \(next) \(training.decoder.estimatedWPM) \
            \(String(describing: training.itemIssuedAt)) \(training.lastActivity.timeIntervalSince1970)
            """
    }

    static func expectSameAnswers(_ training: MorseTraining, at instant: Date) throws {
        let replayed = try MorseTraining(storedText: training.storedText())
        #expect(replayed.session == training.session)
        #expect(replayed.decoder == training.decoder)
        #expect(replayed.item == training.item)
        #expect(replayed.lastAttempt == training.lastAttempt)
        #expect(replayed.steps == training.steps)
        #expect(try answers(of: replayed, at: instant) == answers(of: training, at: instant))
        // Stored again, it is stored the same.
        #expect(try replayed.storedText() == training.storedText())
    }

    /// A person's answer to the item on screen: right, wrong, keyed or missed by turns.
    static func answer(_ training: inout MorseTraining, turn: Int, at instant: Date) throws {
        let item = try #require(training.item)
        let given: MorseTraining.GivenAnswer
        switch turn % 4 {
        case 0: given = .text(item.text.lowercased())
        case 1: given = .text("E")
        case 2:
            let elements = try training.settings.keyer.keying(item.text, skippingUnencodable: true).elements
            given = .signals(
                elements.map {
                    MorseTraining.GivenAnswer.Signal($0.isKeyDown ? .pressed($0.duration) : .released($0.duration))
                })
        default: given = .nothing
        }
        try training.answer(given, reportedResponse: turn % 3 == 0 ? nil : .microseconds(812_345), at: instant)
    }

    @Test(arguments: [
        (MorseDirection.receive, 1, MorseBandConditions.Preset.clean), (.send, 1, .clean), (.receive, 3, .clean),
        (.send, 2, .clean), (.receive, 2, .weakDX),
    ])
    func aStoredTrainingReplaysToExactlyTheSameAnswers(
        direction: MorseDirection, groupSize: Int, conditions: MorseBandConditions.Preset
    ) async throws {
        var training = try Self.training(direction: direction, groupSize: groupSize, conditions: conditions)
        #expect(try MorseTraining(storedText: training.storedText()).conditions == conditions)
        try Self.expectSameAnswers(training, at: Self.at(1))
        try training.startTraining(at: Self.at(4.321))
        try Self.expectSameAnswers(training, at: Self.at(5))
        var instant = 4.321
        for turn in 0..<12 {
            instant += 1.234_567
            try Self.answer(&training, turn: turn, at: Self.at(instant))
            try Self.expectSameAnswers(training, at: Self.at(instant + 0.5))
            if turn == 5 {
                try training.pause(at: Self.at(instant + 1))
                try Self.expectSameAnswers(training, at: Self.at(instant + 30))
                instant += 40.2
                try training.resume(at: Self.at(instant))
                try Self.expectSameAnswers(training, at: Self.at(instant))
            }
        }
        // Time runs out while an item waits: the late answer counts, and no item follows.
        try Self.answer(&training, turn: 0, at: Self.at(instant + 200))
        #expect(training.item == nil)
        try Self.expectSameAnswers(training, at: Self.at(instant + 201))
        let result = try await training.end(at: Self.at(instant + 202)) { session in
            try session.end(at: Self.at(instant + 202))
        }
        #expect(result.attemptCount > 0)
        try Self.expectSameAnswers(training, at: Self.at(instant + 203))
    }

    @Test(arguments: [QSOMode.answer, .call])
    func aStoredContactReplaysToExactlyTheSameAnswers(mode: QSOMode) throws {
        var contact = try Self.contact(mode: mode)
        let catalog = StringCatalog.shared(for: .german)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func expectSame() throws {
            let replayed = try MorseContact(storedText: contact.storedText())
            #expect(replayed.qso == contact.qso)
            #expect(replayed.lastReply == contact.lastReply)
            #expect(replayed.lastActivity == contact.lastActivity)
            #expect(
                try encoder.encode(MorseWire.Contact(replayed, catalog: catalog))
                    == encoder.encode(MorseWire.Contact(contact, catalog: catalog)))
        }
        try expectSame()
        let station = contact.qso.station.callSign.text
        let transmissions = [
            mode == .call ? "CQ CQ DE DL1ABC K" : "DE DL1ABC K", "\(station) DE DL1ABC K",
            "\(station) DE DL1ABC UR RST 599 NAME ADA QTH BERLIN K", "\(station) DE DL1ABC TNX 73 SK",
        ]
        for (index, text) in transmissions.enumerated() {
            try contact.send(text, at: Self.at(Double(index) * 7.5 + 0.25))
            try expectSame()
        }
    }

    @Test func aRowThatDoesNotReplayIsACorruptRow() throws {
        var stored = try Self.training().stored
        stored.steps = [.init(action: .pause, at: Self.t0)]
        #expect(throws: StoreError.self) { try MorseTraining(stored: stored) }
        #expect(throws: StoreError.self) { try MorseTraining(storedText: "{}") }
        stored.seed = "x"
        #expect(throws: StoreError.self) { try MorseTraining(stored: stored) }
    }
}
