import MomentumCore
import MomentumStoreContract

/// One SQLite database is every store of the contract: one person's data, and (the founder's)
/// the household's tables.
extension MomentumDatabase: SettingsRepository, PracticeLogRepository, BreathingPresetRepository,
    MeditationPresetRepository, FocusTimerRepository, WorkoutProgramRepository, AccessTokenRepository
{}

extension MomentumDatabase: MorseCourseRepository {}

extension MomentumDatabase: PushSubscriptionRepository {}

extension MomentumDatabase: PushOutboxRepository {}
extension MomentumDatabase: TrackerRepository {}

extension MomentumDatabase: LibraryRepository {}

extension MomentumDatabase: SharedLibraryStore, LibraryViewStore {}

extension MomentumDatabase: HouseholdStore {
    /// None: the one server of an SQLite household keeps its runs in memory.
    public func practiceRunStore(for person: Person.ID) -> (any PracticeRunStore)? { nil }
    /// None: the one server of an SQLite household keeps its Morse sessions in memory.
    public func morseExchangeStore(for person: Person.ID) -> (any MorseExchangeStore)? { nil }
}

extension MomentumDatabase: SyncLogStore, TerminalReplicaStore, BackupTableStore {}
