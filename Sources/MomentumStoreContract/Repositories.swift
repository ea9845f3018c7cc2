import Foundation
import MomentumCore

/// Where settings are kept: key → JSON text.
public protocol SettingsRepository: Sendable {
    func settingValues() async throws(StoreError) -> [String: String]
    func saveSettingValues(_ values: [String: String], at now: Date) async throws(StoreError)
}

/// Where practice records are kept.
public protocol PracticeLogRepository: Sendable {
    func savePracticeRecord(_ record: PracticeRecord, at now: Date) async throws(StoreError)
    func practiceRecords(matching query: PracticeLogQuery) async throws(StoreError) -> [PracticeRecord]
    /// Every record's kind, start and counted time: what progress needs, read fast.
    func practiceEntries() async throws(StoreError) -> [PracticeEntry]
    /// A number that changes whenever a record or a setting is written: what progress is cached by.
    func logRevision() async throws(StoreError) -> Int64
    func deletePracticeRecord(id: UUID, at now: Date) async throws(StoreError) -> Bool
    /// Every record with when it was written and changed, oldest first.
    func loggedRecords() async throws(StoreError) -> [LoggedRecord]
    /// Adds records and replaces settings in one transaction.
    func importLog(_ records: [LoggedRecord], settingValues: [String: String], at now: Date) async throws(StoreError)
}

/// Where the person's own breathing presets are kept.
public protocol BreathingPresetRepository: Sendable {
    func breathingPresets() async throws(StoreError) -> [BreathingPreset]
    func saveBreathingPreset(_ preset: BreathingPreset, at now: Date) async throws(StoreError)
    func deleteBreathingPreset(id: String) async throws(StoreError) -> Bool
}

/// Where the person's saved sits are kept.
public protocol MeditationPresetRepository: Sendable {
    func meditationPresets() async throws(StoreError) -> [MeditationPreset]
    func saveMeditationPreset(_ preset: MeditationPreset) async throws(StoreError)
    func deleteMeditationPreset(id: String, at now: Date) async throws(StoreError) -> Bool
}

/// Where focus timers and their checklists are kept.
public protocol FocusTimerRepository: Sendable {
    func focusTimers() async throws(StoreError) -> [FocusTimer]
    /// Reads the timers and writes what `change` decides, in one transaction.
    func changeFocusTimers<Result: Sendable>(
        at now: Date, _ change: ([FocusTimer]) throws -> (FocusTimerChanges, Result)
    ) async throws -> Result
}

/// Where the person's own workout programs are kept.
public protocol WorkoutProgramRepository: Sendable {
    func workoutPrograms() async throws(StoreError) -> [WorkoutProgram]
    func saveWorkoutProgram(_ program: WorkoutProgram, at now: Date) async throws(StoreError)
    func deleteWorkoutProgram(id: String) async throws(StoreError) -> Bool
}

/// Where access tokens to the web app are kept (hashed).
public protocol AccessTokenRepository: Sendable {
    func accessTokens() async throws(StoreError) -> [AccessToken]
    func accessToken(secretHash: String) async throws(StoreError) -> AccessToken?
    func saveAccessToken(_ token: AccessToken) async throws(StoreError)
    func revokeAccessToken(id: String, at now: Date) async throws(StoreError) -> Bool
    func accessSession(idHash: String) async throws(StoreError) -> (session: AccessSession, token: AccessToken)?
    func saveAccessSession(_ session: AccessSession) async throws(StoreError)
    func deleteAccessSession(idHash: String) async throws(StoreError) -> Bool
    func deleteAccessSessions(lastUsedBefore cutoff: Date) async throws(StoreError) -> Int
}

/// Where the Morse course keeps its progress and session history.
public protocol MorseCourseRepository: Sendable {
    func morseCourseJSON() async throws(StoreError) -> String?
    func saveMorseSession(progressJSON: String, summary: MorseSessionSummary, record: PracticeRecord?, at now: Date)
        async throws(StoreError)
    func morseSessions(limit: Int) async throws(StoreError) -> [MorseSessionSummary]
}

/// Where the guided meditation library's rows are kept (the files are the service's).
public protocol LibraryRepository: Sendable {
    func libraryItems() async throws(StoreError) -> [LibraryItem]
    func libraryItem(id: UUID) async throws(StoreError) -> LibraryItem?
    func libraryItem(contentHash: String) async throws(StoreError) -> LibraryItem?
    func insertLibraryItem(_ item: LibraryItem, at now: Date) async throws(StoreError)
    func updateLibraryItemEdits(id: UUID, teacher: String?, name: String?, at now: Date) async throws(StoreError)
        -> Bool
    func setLibraryItemAmbientBed(id: UUID, _ isAmbientBed: Bool, at now: Date) async throws(StoreError) -> Bool
    func setLibraryItemPosition(id: UUID, _ position: Duration, at now: Date) async throws(StoreError) -> Bool
    func deleteLibraryItem(id: UUID) async throws(StoreError) -> Bool
}

/// The household's library rows (the items every person sees; docs/people.md).
public protocol SharedLibraryStore: Sendable {
    func libraryItems() async throws(StoreError) -> [LibraryItem]
    func libraryItem(id: UUID) async throws(StoreError) -> LibraryItem?
    func libraryItem(contentHash: String) async throws(StoreError) -> LibraryItem?
    func insertLibraryItem(_ item: LibraryItem, at now: Date) async throws(StoreError)
    func deleteLibraryItem(id: UUID) async throws(StoreError) -> Bool
}

/// One person's own views of the household's library items: edits, ambient choices, places.
public protocol LibraryViewStore: Sendable {
    func libraryViews() async throws(StoreError) -> [UUID: LibraryPersonalView]
    func libraryView(id: UUID) async throws(StoreError) -> LibraryPersonalView?
    func changeLibraryView(id: UUID, at now: Date, _ change: (inout LibraryPersonalView) -> Void)
        async throws(StoreError)
}

/// The household's own tables: its people, their tokens and sign-in sessions, pairing codes and
/// timer shares. On SQLite the founder's database keeps them; on PostgreSQL, global tables.
public protocol HouseholdStore: AccessTokenRepository {
    func people() async throws(StoreError) -> [Person]
    /// Writes the founder the first time (their fixed id); everyone after.
    func ensureFounder(named name: String, at now: Date) async throws(StoreError) -> [Person]
    func insertPerson(named name: String, role: PersonRole, at now: Date) async throws(StoreError) -> Person
    @discardableResult func renamePerson(id: Person.ID, to name: String) async throws(StoreError) -> Bool
    @discardableResult func setPersonRole(id: Person.ID, _ role: PersonRole) async throws(StoreError) -> Bool
    @discardableResult func setPersonPINHash(id: Person.ID, _ hash: String?) async throws(StoreError) -> Bool
    func personPINHash(id: Person.ID) async throws(StoreError) -> String?
    @discardableResult func deletePerson(id: Person.ID) async throws(StoreError) -> Bool
    func savePairingCode(hash: String, personID: Person.ID, at now: Date) async throws(StoreError)
    func spendPairingCode(hash: String, token: AccessToken, at now: Date) async throws(StoreError) -> AccessToken?
    func timerShares() async throws(StoreError) -> [TimerShare]
    func setTimerShares(ownerID: Person.ID, timerID: UUID, with people: [Person.ID]) async throws(StoreError)
    /// Each token's sign-in sessions: how many, and when one was last used.
    func accessSessionUse() async throws(StoreError) -> [String: (sessions: Int, lastUsedAt: Date)]
    /// The household's Web Push key (32 raw bytes): `candidate` is kept if no key is, and the
    /// kept key is answered — one key, whichever process (or server) asks first.
    func pushServerKey(keeping candidate: Data, at now: Date) async throws(StoreError) -> Data
    /// Where `person`'s practice runs in progress are kept when every server must see them; nil
    /// where one server keeps them in memory (SQLite).
    func practiceRunStore(for person: Person.ID) -> (any PracticeRunStore)?
    /// Where `person`'s Morse sessions and QSO contacts are kept when every server must see them;
    /// nil where one server keeps them in memory (SQLite).
    func morseExchangeStore(for person: Person.ID) -> (any MorseExchangeStore)?
}

/// A person's Web Push subscriptions (docs/notifications.md): one per browser endpoint.
public protocol PushSubscriptionRepository: Sendable {
    /// The person's subscriptions, oldest first.
    func pushSubscriptions() async throws(StoreError) -> [PushSubscription]
    /// Keeps `subscription`, in place of the person's one with the same endpoint (which keeps
    /// its id and creation time: a browser re-subscribes on every load) — the kept one. Past
    /// ``PushSubscription/maximumPerPerson`` the oldest others are let go.
    func savePushSubscription(_ subscription: PushSubscription) async throws(StoreError) -> PushSubscription
    @discardableResult func deletePushSubscription(id: UUID) async throws(StoreError) -> Bool
}

/// A person's quiet daily trackers and their answered days (docs/notifications.md).
public protocol TrackerRepository: Sendable {
    /// The person's trackers, in the order they were made.
    func trackers() async throws(StoreError) -> [Tracker]
    /// Adds `tracker`, or changes the one with its id.
    func saveTracker(_ tracker: Tracker, at now: Date) async throws(StoreError)
    /// Ends a tracker and its answers; `false` when the person has none by that id.
    @discardableResult func deleteTracker(id: UUID) async throws(StoreError) -> Bool
    /// Every answered day of every tracker.
    func trackerAnswers() async throws(StoreError) -> [UUID: [TrackerAnswer]]
    /// Keeps the answer for its day (in place of an earlier one); `false` when there is no such tracker.
    @discardableResult func saveTrackerAnswer(_ answer: TrackerAnswer, trackerID: UUID, id: UUID)
        async throws(StoreError) -> Bool
    /// Clears a day's answer; `false` when it had none.
    @discardableResult func deleteTrackerAnswer(trackerID: UUID, day: Day) async throws(StoreError) -> Bool
}

/// Everything of one person's own data that the services keep in a store: what
/// ``MomentumServices`` is composed of, on either store.
public typealias PersonDataStore = SettingsRepository & PracticeLogRepository & FocusTimerRepository
    & BreathingPresetRepository & MeditationPresetRepository & WorkoutProgramRepository & MorseCourseRepository
    & SyncLogStore & LibraryViewStore & PushSubscriptionRepository & PushOutboxRepository
    & TrackerRepository

/// The server's side of sync for one person (docs/sync.md): pushed batches are merged into their
/// data and logged with sequence numbers, pulls read that log, observers hear of every logged
/// change — a merged push or a local write, made by this process or (on PostgreSQL) by another
/// server on the same database.
public protocol SyncLogStore: Sendable {
    /// Merges a pushed batch (checked whole first, `now` for the drift limit): each change's
    /// sequence number, a duplicate's earlier one. Batches arriving together may commit together.
    func acceptPushGrouped(_ messages: [ChangeMessage], at now: Date) async throws(SyncError) -> [Int64?]
    /// A page of the log after `after` as the pull route's JSON answer (``SyncPage``).
    func pullPageJSON(after: Int64, limit: Int, at now: Date) async throws(SyncError) -> Data
    /// The latest write of a synced field — its value, stamp and device — or `nil`.
    func lastChange(of field: String, in key: SyncEntityKey) async throws(StoreError) -> FieldVersion?
    /// The last sequence number of the log (0 when nothing was logged).
    func syncHead() async throws(StoreError) -> Int64
    /// Calls `observer` with the changes of every transaction that logged any, after it committed,
    /// in the order of the log.
    func observeChanges(_ observer: @escaping @Sendable ([LoggedChange]) -> Void) async
}
