import MomentumCore
import MomentumStoreContract

extension PostgresStore: HouseholdStore {
    /// The person's rows of `practice_run`, so that any server pauses a run another started.
    public func practiceRunStore(for person: Person.ID) -> (any PracticeRunStore)? { scoped(to: person) }
    /// The person's rows of `morse_exchange`, so that any server answers a session another started.
    public func morseExchangeStore(for person: Person.ID) -> (any MorseExchangeStore)? { scoped(to: person) }
}

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

extension PostgresPersonStore: PushSubscriptionRepository {}

/// One person's push outbox on PostgreSQL (`PostgresPersonStore+PushOutbox.swift`).
extension PostgresPersonStore: PushOutboxRepository {}
extension PostgresPersonStore: TrackerRepository {}

extension PostgresPersonStore: PracticeRunStore, MorseExchangeStore {}
