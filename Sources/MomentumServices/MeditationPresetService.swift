import Foundation
import MomentumCore
import MomentumStoreContract

/// The person's saved sits: listing, finding by name or id, adding, editing, renaming, deleting.
public struct MeditationPresetService: Sendable {
    private let repository: any MeditationPresetRepository
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID

    public init(
        repository: any MeditationPresetRepository, now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID
    ) {
        self.repository = repository
        self.now = now
        self.makeID = makeID
    }

    /// Every saved sit, in the person's order (``MeditationPreset/ordered(_:)``).
    public func presets() async throws(MeditationPresetServiceError) -> [MeditationPreset] {
        do {
            return MeditationPreset.ordered(try await repository.meditationPresets())
        } catch {
            throw .store(error)
        }
    }

    /// The saved sit called `name` (its id or its name, ignoring case).
    public func preset(named name: String) async throws(MeditationPresetServiceError) -> MeditationPreset {
        let wanted = PresetNaming.folded(name)
        guard let found = try await presets().first(where: { Self.names(of: $0).contains(wanted) }) else {
            throw .invalid(.unknownPreset(name.trimmingCharacters(in: .whitespaces)))
        }
        return found
    }

    /// Saves `plan` under `name`, which no other saved sit may have (ignoring case).
    @discardableResult
    public func addPreset(name: String, plan: MeditationPlan) async throws(MeditationPresetServiceError)
        -> MeditationPreset
    {
        try await checkNameIsFree(name, except: nil)
        let instant = now()
        let preset = try makePreset(
            id: makeID().uuidString.lowercased(), name: name, plan: plan, createdAt: instant, updatedAt: instant,
            sortOrder: MeditationPreset.nextSortOrder(after: try await presets()))
        try await save(preset)
        return preset
    }

    /// Replaces a saved sit's plan.
    @discardableResult
    public func editPreset(_ preset: MeditationPreset, plan: MeditationPlan) async throws(MeditationPresetServiceError)
        -> MeditationPreset
    {
        let edited = try makePreset(
            id: preset.id, name: preset.name, plan: plan, createdAt: preset.createdAt, updatedAt: now(),
            sortOrder: preset.sortOrder)
        try await save(edited)
        return edited
    }

    /// Gives a saved sit another name, which no other saved sit may have (ignoring case).
    @discardableResult
    public func renamePreset(_ preset: MeditationPreset, to name: String) async throws(MeditationPresetServiceError)
        -> MeditationPreset
    {
        try await checkNameIsFree(name, except: preset.id)
        let renamed = try makePreset(
            id: preset.id, name: name, plan: preset.plan, createdAt: preset.createdAt, updatedAt: now(),
            sortOrder: preset.sortOrder)
        try await save(renamed)
        return renamed
    }

    /// Moves a saved sit to `index` among them (0 first; past the end is last), the others keeping
    /// their order; returns every saved sit in the new order.
    @discardableResult
    public func movePreset(_ preset: MeditationPreset, to index: Int) async throws(MeditationPresetServiceError)
        -> [MeditationPreset]
    {
        let all = try await presets()
        let changed: [MeditationPreset]
        do {
            changed = try MeditationPreset.moving(preset.id, to: index, in: all, at: now())
        } catch {
            throw .invalid(error)
        }
        for moved in changed { try await save(moved) }
        return try await presets()
    }

    /// Deletes a saved sit.
    public func deletePreset(_ preset: MeditationPreset) async throws(MeditationPresetServiceError) {
        let deleted: Bool
        do {
            deleted = try await repository.deleteMeditationPreset(id: preset.id, at: now())
        } catch {
            throw .store(error)
        }
        guard deleted else { throw .invalid(.unknownPreset(preset.name)) }
    }

    // MARK: - Helpers

    /// Refuses a name that already names a saved sit (other than `id`), so every name finds one.
    private func checkNameIsFree(_ name: String, except id: String?) async throws(MeditationPresetServiceError) {
        let wanted = PresetNaming.folded(name)
        guard !wanted.isEmpty else { throw .invalid(.emptyName) }
        for preset in try await presets() where preset.id != id && Self.names(of: preset).contains(wanted) {
            throw .invalid(.nameTaken(name.trimmingCharacters(in: .whitespaces)))
        }
    }

    private static func names(of preset: MeditationPreset) -> Set<String> {
        PresetNaming.names(id: preset.id, name: preset.name, builtInKey: nil)
    }

    private func makePreset(
        id: String, name: String, plan: MeditationPlan, createdAt: Date, updatedAt: Date, sortOrder: Int
    ) throws(MeditationPresetServiceError) -> MeditationPreset {
        do {
            return try MeditationPreset(
                id: id, name: name, plan: plan, createdAt: createdAt, updatedAt: updatedAt, sortOrder: sortOrder)
        } catch {
            throw .invalid(error)
        }
    }

    private func save(_ preset: MeditationPreset) async throws(MeditationPresetServiceError) {
        do {
            try await repository.saveMeditationPreset(preset)
        } catch {
            throw .store(error)
        }
    }
}

/// Why a saved sit could not be found, made, changed or deleted.
public enum MeditationPresetServiceError: Error, Equatable, Sendable {
    case invalid(MeditationPresetError)
    case store(StoreError)
}
