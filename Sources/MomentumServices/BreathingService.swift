import Foundation
import MomentumCore
import MomentumStoreContract

/// Breathing presets (the nine built in and the person's own) and logging breathing sessions.
public struct BreathingService: Sendable {
    private let presetsRepository: any BreathingPresetRepository
    private let log: any PracticeLogRepository
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let device: String

    public init(
        presets: any BreathingPresetRepository, log: any PracticeLogRepository, now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID, device: String
    ) {
        self.presetsRepository = presets
        self.log = log
        self.now = now
        self.makeID = makeID
        self.device = device
    }

    /// The built-in presets, then the person's own in the order they were made.
    public func presets() async throws(BreathingServiceError) -> [BreathingPreset] {
        BreathingPreset.builtIn + (try await ownPresets())
    }

    /// The preset called `name` (its id, or its name in any language, ignoring case).
    public func preset(named name: String) async throws(BreathingServiceError) -> BreathingPreset {
        let wanted = name.trimmingCharacters(in: .whitespaces)
        guard let found = try await presets().first(where: { Self.names(of: $0).contains(Self.folded(wanted)) }) else {
            throw .invalid(.unknownPreset(name))
        }
        return found
    }

    /// Makes a preset of the person's own; a new one starts as 4-0-4-0 × 10.
    @discardableResult
    public func addPreset(
        name: String, pattern: BreathingPattern = .newPreset, rounds: Int = BreathingPreset.newPresetRounds
    ) async throws(BreathingServiceError) -> BreathingPreset {
        try await checkNameIsFree(name, except: nil)
        let preset = try makePreset(id: makeID().uuidString.lowercased(), name: name, pattern: pattern, rounds: rounds)
        try await save(preset)
        return preset
    }

    /// Changes a preset's pattern or rounds. Editing a built-in saves a copy (named "… (copy)")
    /// and leaves the built-in as it is.
    @discardableResult
    public func editPreset(
        _ preset: BreathingPreset, pattern: BreathingPattern? = nil, rounds: Int? = nil, catalog: StringCatalog
    ) async throws(BreathingServiceError) -> BreathingPreset {
        let pattern = pattern ?? preset.pattern
        let rounds = rounds ?? preset.rounds
        guard !preset.isBuiltIn else {
            return try await copy(preset, name: nil, pattern: pattern, rounds: rounds, catalog: catalog)
        }
        let edited = try makePreset(id: preset.id, name: preset.name, pattern: pattern, rounds: rounds)
        try await save(edited)
        return edited
    }

    /// Renames a preset of the person's own; renaming a built-in saves a copy under the new name.
    @discardableResult
    public func renamePreset(_ preset: BreathingPreset, to name: String, catalog: StringCatalog)
        async
        throws(BreathingServiceError) -> BreathingPreset
    {
        guard !preset.isBuiltIn else {
            return try await copy(preset, name: name, pattern: preset.pattern, rounds: preset.rounds, catalog: catalog)
        }
        try await checkNameIsFree(name, except: preset.id)
        let renamed = try makePreset(id: preset.id, name: name, pattern: preset.pattern, rounds: preset.rounds)
        try await save(renamed)
        return renamed
    }

    /// A copy of any preset, named `name` or "… (copy)".
    @discardableResult
    public func duplicatePreset(_ preset: BreathingPreset, name: String? = nil, catalog: StringCatalog)
        async
        throws(BreathingServiceError) -> BreathingPreset
    {
        try await copy(preset, name: name, pattern: preset.pattern, rounds: preset.rounds, catalog: catalog)
    }

    /// Deletes a preset of the person's own; built-ins cannot be deleted.
    public func deletePreset(_ preset: BreathingPreset) async throws(BreathingServiceError) {
        guard !preset.isBuiltIn else { throw .invalid(.builtInPresetCannotBeDeleted(preset.id)) }
        do {
            guard try await presetsRepository.deleteBreathingPreset(id: preset.id) else {
                throw BreathingServiceError.invalid(.unknownPreset(preset.name))
            }
        } catch let error as BreathingServiceError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.database(message: "\(error)"))
        }
    }

    /// Logs a breathing session that began at `start` and ended at `endedAt` (default now), if it
    /// counts and the person kept it, through the one ``PracticeFinisher``.
    @discardableResult
    public func finishSession(
        plan: BreathingPlan, outcome: PracticeOutcome, startedAt start: Date, endedAt: Date? = nil, keep: Bool = true,
        soundInterruptions: [SoundInterruption] = [], recordID: UUID? = nil
    ) async throws(BreathingServiceError) -> PracticeEnding {
        do {
            return try await PracticeFinisher(
                log: log, now: now, makeID: recordID.map(PracticeFinisher.id) ?? makeID, device: device
            )
            .finish(
                .breathing(plan, outcome), startedAt: start, endedAt: endedAt, keep: keep,
                soundInterruptions: soundInterruptions)
        } catch {
            switch error {
            case .invalidRecord(let error): throw .invalidRecord(error)
            case .store(let error): throw .store(error)
            }
        }
    }

    // MARK: - Helpers

    private func ownPresets() async throws(BreathingServiceError) -> [BreathingPreset] {
        do {
            return try await presetsRepository.breathingPresets()
        } catch {
            throw .store(error)
        }
    }

    private func copy(
        _ preset: BreathingPreset, name: String?, pattern: BreathingPattern, rounds: Int, catalog: StringCatalog
    ) async throws(BreathingServiceError) -> BreathingPreset {
        let copyName: String
        if let name {
            try await checkNameIsFree(name, except: nil)
            copyName = name
        } else {
            copyName = try await freeCopyName(for: preset.displayName(catalog), catalog: catalog)
        }
        return try await addPreset(name: copyName, pattern: pattern, rounds: rounds)
    }

    private func freeCopyName(for name: String, catalog: StringCatalog) async throws(BreathingServiceError) -> String {
        PresetNaming.freeCopyName(
            for: name, taken: Set(try await presets().flatMap(Self.names(of:))), catalog: catalog)
    }

    /// Refuses a name that already names a preset (other than `id`), so every name finds one preset.
    private func checkNameIsFree(_ name: String, except id: String?) async throws(BreathingServiceError) {
        let wanted = Self.folded(name.trimmingCharacters(in: .whitespaces))
        guard !wanted.isEmpty else { throw .invalid(.emptyPresetName) }
        for preset in try await presets() where preset.id != id && Self.names(of: preset).contains(wanted) {
            throw .invalid(.presetNameTaken(name.trimmingCharacters(in: .whitespaces)))
        }
    }

    private static func names(of preset: BreathingPreset) -> Set<String> {
        PresetNaming.names(id: preset.id, name: preset.name, builtInKey: preset.nameKey)
    }

    private static func folded(_ name: String) -> String { PresetNaming.folded(name) }

    private func makePreset(id: String, name: String, pattern: BreathingPattern, rounds: Int)
        throws(BreathingServiceError) -> BreathingPreset
    {
        do {
            return try BreathingPreset(id: id, name: name, pattern: pattern, rounds: rounds)
        } catch {
            throw .invalid(error)
        }
    }

    private func save(_ preset: BreathingPreset) async throws(BreathingServiceError) {
        do {
            try await presetsRepository.saveBreathingPreset(preset, at: now())
        } catch {
            throw .store(error)
        }
    }
}

/// Why a preset could not be found, made, changed or deleted, or a session logged.
public enum BreathingServiceError: Error, Equatable, Sendable {
    case invalid(BreathingError)
    case invalidRecord(PracticeRecordError)
    case store(StoreError)
}
