import Crypto
import Foundation
import MomentumComposition
import MomentumCore
import MomentumPostgres
import MomentumServices
import MomentumStoreContract
import MomentumStoreTestSupport
import MomentumTestSupport
import Synchronization
import Testing

/// The push outbox's sender on both stores, with a recording push service: a due reminder goes to
/// every device once, within its instant; the policy asked again at send time stops it when the
/// person practised or the quiet hours moved it; 410 ends the subscription, 503 is retried when
/// the service says; a restart or a second server sends nothing twice.
@Suite("Push delivery on both stores")
struct PushDeliveryTests {
    /// 2027-01-15 (a Friday) 18:58:30 UTC: 90 s before the 19:00 reminder.
    static let beforeDue = Date(timeIntervalSince1970: 1_800_039_510)
    static var due: Date { beforeDue.addingTimeInterval(90) }

    /// A push service that answers what it is told, and keeps what it got.
    final class RecordingPushService: PushTransport {
        let received = Mutex<[PushRequest]>([])
        let answers = Mutex<[PushResponse]>([])

        func send(_ request: PushRequest) async throws(PushTransportError) -> PushResponse {
            received.withLock { $0.append(request) }
            return answers.withLock { $0.isEmpty ? PushResponse(status: 201) : $0.removeFirst() }
        }

        var count: Int { received.withLock { $0.count } }
    }

    final class Clock: Sendable {
        let instant: Mutex<Date>
        init(_ start: Date) { instant = Mutex(start) }
        var now: Date { instant.withLock { $0 } }
        func set(_ date: Date) { instant.withLock { $0 = date } }
    }

    struct Setup {
        let store: StoreUnderTest
        let folder: TemporaryDirectory
        let household: HouseholdService
        let clock: Clock
        let service: RecordingPushService
        let delivery: PushDelivery

        var anna: MomentumServices { household.founder }

        /// Another sender over the same data: a restarted server, or a second one on PostgreSQL.
        func secondSender() async throws -> PushDelivery {
            let other: HouseholdService
            switch store.kind {
            case .sqlite:
                other = try await HouseholdService.open(
                    dataDirectory: folder.url, device: "test", login: "anna", timeZone: .gmt,
                    now: { [clock] in clock.now })
            case .postgres:
                let postgres = try #require(try await store.reopenedHousehold() as? PostgresStore)
                other = try await HouseholdService.open(
                    postgres: postgres, dataDirectory: folder.url, device: "test", login: "anna", timeZone: .gmt,
                    now: { [clock] in clock.now })
            }
            return PushDelivery(
                household: other, transport: service, configuration: .init(), now: { [clock] in clock.now })
        }
    }

    func setup(_ kind: StoreKind, devices: Int = 2) async throws -> Setup {
        let store = try await StoreUnderTest(kind)
        let folder = try TemporaryDirectory()
        let clock = Clock(Self.beforeDue.addingTimeInterval(-86_400))
        let household: HouseholdService
        switch kind {
        case .sqlite:
            household = try await HouseholdService.open(
                dataDirectory: folder.url, device: "test", login: "anna", timeZone: .gmt, now: { clock.now })
        case .postgres:
            household = try await HouseholdService.open(
                postgres: try #require(store.postgresStore), dataDirectory: folder.url, device: "test", login: "anna",
                timeZone: .gmt, now: { clock.now })
        }
        var settings = try await household.founder.settings.load()
        settings.language = .german
        settings.reminders = try ReminderSettings(dailyReminders: [
            DailyReminder(
                id: "evening", time: try TimeOfDay(hour: 19, minute: 0), weekdays: Set(Weekday.allCases),
                category: .mindfulness)
        ])
        try await household.founder.settings.save(settings)
        for device in 0..<devices {
            let key = P256.KeyAgreement.PrivateKey()
            _ = try await household.founder.pushSubscriptions.subscribe(
                endpoint: "https://fcm.googleapis.com/fcm/send/device-\(device)",
                p256dh: Base64URL.encode(key.publicKey.x963Representation),
                auth: Base64URL.encode(Data((0..<16).map { _ in UInt8.random(in: 0...255) })),
                deviceName: "Phone \(device)", expiresAt: nil, admitting: PushOrigins())
        }
        clock.set(Self.beforeDue)
        let service = RecordingPushService()
        let delivery = PushDelivery(
            household: household, transport: service,
            configuration: .init(contact: try VAPIDContact("mailto:anna@example.org")),
            now: { clock.now })
        return Setup(
            store: store, folder: folder, household: household, clock: clock, service: service, delivery: delivery)
    }

    @Test(arguments: StoreKind.available)
    func aDueReminderReachesEveryDeviceOnceAtItsInstant(kind: StoreKind) async throws {
        let setup = try await setup(kind)
        #expect(await setup.delivery.plan(at: Self.beforeDue) == 2)
        // Planned again (every half minute): nothing new.
        #expect(await setup.delivery.plan(at: Self.beforeDue.addingTimeInterval(30)) == 0)
        #expect(await setup.delivery.send(at: Self.due.addingTimeInterval(-1)).isEmpty)
        setup.clock.set(Self.due)
        let reports = await setup.delivery.send(at: Self.due)
        #expect(reports.count == 2 && reports.allSatisfy { $0.settlement == .delivered })
        #expect(setup.service.count == 2)
        let request = try #require(setup.service.received.withLock { $0.first })
        // Useful until the end of its day: 5 hours; a newer one of the same reminder replaces it.
        #expect(request.header("TTL") == "18000")
        #expect(request.header("Urgency") == "normal")
        #expect(request.header("Topic") == WebPushRequest.topic(for: "daily.evening"))
        #expect(request.header("Content-Encoding") == "aes128gcm")
        #expect(request.header("Authorization")?.hasPrefix("vapid t=") == true)
        #expect(request.endpoint.origin == "https://fcm.googleapis.com")
        // Nothing is due any more.
        #expect(await setup.delivery.send(at: Self.due.addingTimeInterval(5)).isEmpty)
        let subscriptions = try await setup.anna.pushSubscriptions.subscriptions()
        #expect(subscriptions.allSatisfy { $0.lastDeliveredAt == Self.due })
        #expect(setup.service.count == 2)
    }

    @Test(arguments: StoreKind.available)
    func practiceAfterPlanningSilencesTheReminderWhenItIsAboutToLeave(kind: StoreKind) async throws {
        let setup = try await setup(kind)
        #expect(await setup.delivery.plan(at: Self.beforeDue) == 2)
        setup.clock.set(Self.beforeDue.addingTimeInterval(30))
        _ = try await setup.anna.practiceLog.addRecord(
            kind: .meditation, start: Self.beforeDue.addingTimeInterval(-1200), length: 1200)
        setup.clock.set(Self.due)
        let reports = await setup.delivery.send(at: Self.due)
        #expect(reports.map(\.settlement) == [.dropped("no-longer-planned"), .dropped("no-longer-planned")])
        #expect(setup.service.count == 0)
    }

    @Test(arguments: StoreKind.available)
    func quietHoursSetAfterPlanningHoldTheReminderBack(kind: StoreKind) async throws {
        let setup = try await setup(kind)
        #expect(await setup.delivery.plan(at: Self.beforeDue) == 2)
        var settings = try await setup.anna.settings.load()
        settings.reminders = try ReminderSettings(
            quietHours: QuietHours(start: try TimeOfDay(hour: 18, minute: 0), end: try TimeOfDay(hour: 8, minute: 0)),
            dailyReminders: settings.reminders.dailyReminders)
        try await setup.anna.settings.save(settings)
        setup.clock.set(Self.due)
        #expect(await setup.delivery.send(at: Self.due).allSatisfy { $0.settlement == .dropped("no-longer-planned") })
        #expect(setup.service.count == 0)
    }

    @Test(arguments: StoreKind.available)
    func goneEndsTheSubscriptionAndUnavailableIsTriedAgainWhenTheServiceSays(kind: StoreKind) async throws {
        let setup = try await setup(kind)
        setup.service.answers.withLock {
            $0 = [PushResponse(status: 410), PushResponse(status: 503, retryAfter: "120")]
        }
        await setup.delivery.plan(at: Self.beforeDue)
        setup.clock.set(Self.due)
        let first = await setup.delivery.send(at: Self.due)
        #expect(Set(first.map(\.settlement)) == [.gone, .retry(at: Self.due.addingTimeInterval(120), failure: "503")])
        let left = try await setup.anna.pushSubscriptions.subscriptions()
        #expect(left.count == 1 && left[0].lastFailure == "503")
        #expect(await setup.delivery.send(at: Self.due.addingTimeInterval(119)).isEmpty)
        setup.clock.set(Self.due.addingTimeInterval(120))
        let again = await setup.delivery.send(at: Self.due.addingTimeInterval(120))
        #expect(again.map(\.settlement) == [.delivered])
        #expect(setup.service.count == 3)
    }

    /// A server restarted around the instant (or a second server on the same database) plans the
    /// same reminder again and sends it once in all.
    @Test(arguments: StoreKind.available)
    func aSecondSenderSendsNothingTwice(kind: StoreKind) async throws {
        let setup = try await setup(kind, devices: 1)
        await setup.delivery.plan(at: Self.beforeDue)
        let restarted = try await setup.secondSender()
        #expect(await restarted.plan(at: Self.beforeDue.addingTimeInterval(60)) == 0)
        setup.clock.set(Self.due.addingTimeInterval(3))
        async let mine = setup.delivery.send(at: Self.due.addingTimeInterval(3))
        async let theirs = restarted.send(at: Self.due.addingTimeInterval(3))
        let all = await mine + theirs
        #expect(all.map(\.settlement) == [.delivered])
        #expect(setup.service.count == 1)
        #expect(await setup.delivery.send(at: Self.due.addingTimeInterval(60)).isEmpty)
        #expect(await restarted.send(at: Self.due.addingTimeInterval(60)).isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func aTestPushReachesEachDeviceInThePersonsLanguage(kind: StoreKind) async throws {
        let setup = try await setup(kind)
        let person = try await setup.household.person(named: nil)
        let results = try await setup.delivery.sendTest(to: person)
        #expect(results.map(\.1) == [.delivered, .delivered])
        #expect(setup.service.received.withLock { $0.allSatisfy { $0.header("Topic") == nil } })
        let message = PushMessage(testFor: "Phone 0", language: .german, at: Self.beforeDue)
        #expect(message.title == "Benachrichtigungen funktionieren")
        #expect(message.body.contains("Phone 0"))
    }
}
