import MomentumStoreContract

/// One SQLite database is every store of the contract: one person's data, and (the founder's)
/// the household's tables.
extension MomentumDatabase: SettingsRepository, PracticeLogRepository, BreathingPresetRepository,
    MeditationPresetRepository, FocusTimerRepository, WorkoutProgramRepository, AccessTokenRepository
{}

extension MomentumDatabase: MorseCourseRepository {}

extension MomentumDatabase: LibraryRepository {}

extension MomentumDatabase: SharedLibraryStore, LibraryViewStore {}

extension MomentumDatabase: HouseholdStore {}

extension MomentumDatabase: SyncLogStore {}
