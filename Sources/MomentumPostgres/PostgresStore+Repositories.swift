import MomentumStoreContract

extension PostgresStore: HouseholdStore {}

/// One person's data on PostgreSQL (what is ported so far; the rest follows, see docs/postgres.md).
extension PostgresPersonStore: SettingsRepository, PracticeLogRepository, FocusTimerRepository,
    BreathingPresetRepository,
    MeditationPresetRepository, WorkoutProgramRepository, MorseCourseRepository
{}

/// One person's sync log on PostgreSQL (`PostgresPersonStore+Sync.swift`).
extension PostgresPersonStore: SyncLogStore {}

/// The household's tables on PostgreSQL.
extension PostgresStore: AccessTokenRepository, SharedLibraryStore {}

extension PostgresPersonStore: LibraryViewStore {}
