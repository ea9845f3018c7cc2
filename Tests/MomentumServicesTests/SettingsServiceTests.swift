import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreTestSupport
import Testing

@testable import MomentumServices

/// On every store (see ``StoreKind/available``).
@Suite("Settings service")
struct SettingsServiceTests {
    /// The service on a fresh store of `kind`; the store lives as long as the service.
    private func service(_ kind: StoreKind) async throws -> (SettingsService, StoreUnderTest) {
        let store = try await StoreUnderTest(kind)
        return (SettingsService(repository: store.store, now: { Date(timeIntervalSince1970: 0) }), store)
    }

    @Test(arguments: StoreKind.available)
    func defaultsComeBackFromAnEmptyStore(kind: StoreKind) async throws {
        let (service, store) = try await service(kind)
        defer { withExtendedLifetime(store) {} }
        #expect(try await service.load() == MomentumSettings())
    }

    @Test(arguments: StoreKind.available)
    func replacingTheSettingsKeepsTheAffirmationRotation(kind: StoreKind) async throws {
        let (service, store) = try await service(kind)
        defer { withExtendedLifetime(store) {} }
        var stored = MomentumSettings()
        stored.affirmationRotation = 7
        try await service.save(stored)
        var wanted = MomentumSettings()
        wanted.language = .german
        wanted.meditation.duration = .minutes(25)
        let replaced = try await service.replace(with: wanted)
        #expect(replaced.affirmationRotation == 7)
        await #expect(try service.load() == replaced)
        #expect(replaced.language == .german)
    }

    @Test(arguments: StoreKind.available)
    func everySettingRoundTripsThroughTheStore(kind: StoreKind) async throws {
        let (service, store) = try await service(kind)
        defer { withExtendedLifetime(store) {} }
        var settings = MomentumSettings()
        settings.meditation = MeditationPlan(
            duration: .minutes(45), countdown: .seconds(5), intervalGongs: .offsets([.minutes(10), .minutes(30)]),
            reflection: .minutes(3), ambientID: "stream", ambientVolume: 0.4, isOpenEnded: true)
        settings.language = .german
        settings.isSoundOn = false
        settings.affirmationRotation = 17
        try await service.save(settings)
        await #expect(try service.load() == settings)
    }

    @Test(
        arguments: StoreKind.available,
        [
            (SettingKey.meditationDuration, "20", "20"),
            (.meditationDuration, "90s", "90s"),
            (.meditationCountdown, "0", "0"),
            (.meditationInterval, "2,5,8", "2,5,8"),
            (.meditationInterval, "5", "5"),
            (.meditationInterval, "off", "off"),
            (.meditationReflection, "2", "2"),
            (.meditationAmbient, "rain", "rain"),
            (.meditationVolume, "0.5", "0.5"),
            (.meditationOpenEnded, "on", "on"),
            (.language, "de", "de"),
            (.language, "auto", "auto"),
            (.sound, "off", "off"),
        ])
    func changingASettingStoresItAndReadsBack(kind: StoreKind, change: (key: SettingKey, input: String, shown: String))
        async
        throws
    {
        let (key, input, shown) = change
        let (service, store) = try await service(kind)
        defer { withExtendedLifetime(store) {} }
        let changed = try await service.change(key, to: input)
        #expect(changed.text(for: key) == shown)
        await #expect(try service.load().text(for: key) == shown)
    }

    @Test(
        arguments: StoreKind.available,
        [
            (SettingKey.meditationDuration, "0", SettingValueError.plan(.durationTooShort)),
            (.meditationDuration, "601", .plan(.durationTooLong)),
            (.meditationDuration, "abc", .unreadable(key: .meditationDuration, value: "abc")),
            (.meditationCountdown, "99", .plan(.countdownTooLong)),
            (.meditationInterval, "0", .plan(.intervalTooShort)),
            (.meditationAmbient, "thunder", .plan(.unknownAmbient("thunder"))),
            (.meditationVolume, "2", .plan(.ambientVolumeOutOfRange)),
            (.language, "fr", .unreadable(key: .language, value: "fr")),
        ])
    func anInvalidValueIsRefusedAndNothingChanges(
        kind: StoreKind, refusal: (key: SettingKey, input: String, error: SettingValueError)
    ) async throws {
        let (key, input, error) = refusal
        let (service, store) = try await service(kind)
        defer { withExtendedLifetime(store) {} }
        let before = try await service.load()
        await #expect(throws: SettingsChangeError.invalidValue(error)) { try await service.change(key, to: input) }
        await #expect(try service.load() == before)
    }
}
