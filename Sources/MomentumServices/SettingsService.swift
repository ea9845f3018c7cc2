import Foundation
import MomentumCore
import MomentumStoreContract

/// Reads and changes the person's settings.
public struct SettingsService: Sendable {
    private let repository: any SettingsRepository
    private let now: @Sendable () -> Date

    public init(repository: any SettingsRepository, now: @escaping @Sendable () -> Date) {
        self.repository = repository
        self.now = now
    }

    /// The stored settings; anything missing or unreadable takes its default.
    public func load() async throws(StoreError) -> MomentumSettings {
        await MomentumSettings(storedValues: try repository.settingValues())
    }

    /// Stores every setting.
    public func save(_ settings: MomentumSettings) async throws(StoreError) {
        try await repository.saveSettingValues(settings.storedValues, at: now())
    }

    /// Replaces every setting a person chooses with `wanted`'s, keeping what the app itself keeps
    /// (the affirmation rotation). `wanted` was checked when it was decoded. Returns the new settings.
    public func replace(with wanted: MomentumSettings) async throws(StoreError) -> MomentumSettings {
        var settings = wanted
        settings.affirmationRotation = try await load().affirmationRotation
        try await save(settings)
        return settings
    }

    /// Changes one setting from the text a person typed and stores it; returns the new settings.
    public func change(_ key: SettingKey, to text: String) async throws(SettingsChangeError) -> MomentumSettings {
        do {
            var settings = try await load()
            try settings.set(key, to: text)
            try await save(settings)
            return settings
        } catch let error as SettingValueError {
            throw .invalidValue(error)
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.database(message: "\(error)"))
        }
    }
}

/// Why a setting was not changed. Nothing is stored in either case.
public enum SettingsChangeError: Error, Equatable, Sendable {
    case invalidValue(SettingValueError)
    case store(StoreError)
}
