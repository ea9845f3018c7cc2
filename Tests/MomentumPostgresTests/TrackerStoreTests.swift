import Foundation
import MomentumCore
import MomentumStoreContract
import MomentumStoreTestSupport
import Testing

/// A person's trackers and their answered days on both stores: kept in the order made, one
/// answer per day (a second replaces the first), cleared days are unanswered again, ending a
/// tracker ends its days, and an answer for a tracker the person does not have is not kept. On
/// PostgreSQL each person sees and changes only their own.
@Suite("Trackers on both stores")
struct TrackerStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func tracker(_ name: String, hour: Int = 21, about: Tracker.About = .today) throws -> Tracker {
        try Tracker(id: UUID(), name: name, askAt: try TimeOfDay(hour: hour), about: about, createdAt: Self.now)
    }

    private func repository(_ store: StoreUnderTest) throws -> any TrackerRepository {
        try #require(store.store as? any TrackerRepository)
    }

    @Test(arguments: StoreKind.available)
    func trackersAreKeptInTheOrderMadeAndChangedInPlace(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let trackers = try repository(store)
        let sober = try tracker("Alcohol-free")
        let phone = try tracker("No phone in bed", hour: 8, about: .yesterday)
        try await trackers.saveTracker(sober, at: Self.now)
        try await trackers.saveTracker(phone, at: Self.now)
        await #expect(try trackers.trackers() == [sober, phone])
        var moved = try sober.renamed("Sober")
        moved.askAt = try TimeOfDay(hour: 22, minute: 15)
        moved.about = .yesterday
        try await trackers.saveTracker(moved, at: Self.now.addingTimeInterval(60))
        await #expect(try trackers.trackers() == [moved, phone])
        await #expect(try trackers.deleteTracker(id: phone.id))
        await #expect(try !trackers.deleteTracker(id: phone.id))
        await #expect(try trackers.trackers() == [moved])
    }

    @Test(arguments: StoreKind.available)
    func aDayHasOneAnswerAndEndsWithItsTracker(kind: StoreKind) async throws {
        let store = try await StoreUnderTest(kind)
        let trackers = try repository(store)
        let sober = try tracker("Alcohol-free")
        try await trackers.saveTracker(sober, at: Self.now)
        let monday = try Day(parsing: "2027-01-11")
        let tuesday = monday.adding(days: 1)
        let yes = TrackerAnswer(day: monday, answer: true, answeredAt: Self.now)
        await #expect(try trackers.saveTrackerAnswer(yes, trackerID: sober.id, id: UUID()))
        let changed = TrackerAnswer(day: monday, answer: false, answeredAt: Self.now.addingTimeInterval(5))
        await #expect(try trackers.saveTrackerAnswer(changed, trackerID: sober.id, id: UUID()))
        let later = TrackerAnswer(day: tuesday, answer: true, answeredAt: Self.now)
        await #expect(try trackers.saveTrackerAnswer(later, trackerID: sober.id, id: UUID()))
        await #expect(try trackers.trackerAnswers() == [sober.id: [changed, later]])
        // No such tracker: nothing kept.
        await #expect(try !trackers.saveTrackerAnswer(yes, trackerID: UUID(), id: UUID()))
        await #expect(try trackers.deleteTrackerAnswer(trackerID: sober.id, day: monday))
        await #expect(try !trackers.deleteTrackerAnswer(trackerID: sober.id, day: monday))
        await #expect(try trackers.trackerAnswers() == [sober.id: [later]])
        try await trackers.deleteTracker(id: sober.id)
        await #expect(try trackers.trackerAnswers().isEmpty)
    }

    @Test func eachPersonSeesOnlyTheirOwn() async throws {
        guard StoreKind.postgresURL != nil else { return }
        let store = try await StoreUnderTest(.postgres)
        let anna = try repository(store)
        let ben = try #require(store.postgresStore?.scoped(to: 2))
        let annas = try tracker("Alcohol-free")
        try await anna.saveTracker(annas, at: Self.now)
        let day = TrackerAnswer(day: try Day(parsing: "2027-01-11"), answer: true, answeredAt: Self.now)
        // Ben cannot answer, rename or end Anna's tracker by its id.
        await #expect(try !ben.saveTrackerAnswer(day, trackerID: annas.id, id: UUID()))
        await #expect(try !ben.deleteTracker(id: annas.id))
        try await ben.saveTracker(try annas.renamed("Ben's"), at: Self.now)
        await #expect(try anna.trackers() == [annas])
        await #expect(try ben.trackers().map(\.name) == ["Ben's"])
        await #expect(try anna.saveTrackerAnswer(day, trackerID: annas.id, id: UUID()))
        await #expect(try ben.trackerAnswers().isEmpty)
    }
}
