import MomentumCore
import MomentumStoreContract

/// What kind of failure an error is. It decides how every front end answers it: the HTTP status
/// (and whether the server logs it and answers one generic sentence), and what the terminal
/// says. Each error decides its own kind; no front end keeps a list of error types.
public enum FailureKind: Sendable, Equatable, CaseIterable {
    /// The request itself is malformed (HTTP 400).
    case malformed
    /// A value a rule refuses (HTTP 422).
    case invalid
    /// Not the asking person's to do: another's role is needed (HTTP 403).
    case forbidden
    /// What was asked for does not exist (HTTP 404).
    case notFound
    /// Not possible in the present state (HTTP 409).
    case conflict
    /// More than is accepted (HTTP 413).
    case tooLarge
    /// Busy for now; the same request works again shortly (HTTP 503).
    case unavailable
    /// The disk is full: nothing was written, reads still work (HTTP 507).
    case storageFull
    /// A failure of the machine (a database or disk failure, a bug): logged with its detail and
    /// shown over HTTP as one generic sentence (HTTP 500).
    case unexpected
}

/// An error that says which ``FailureKind`` it is; an error wrapping another asks the inner one.
public protocol ClassifiedFailure: Error {
    var failureKind: FailureKind { get }
    /// A more exact machine-readable code than the kind's own, for the HTTP API (`nil`: the kind's).
    var failureCode: String? { get }
}

extension ClassifiedFailure {
    public var failureCode: String? { nil }
}

extension FailureKind {
    /// For `.unavailable`: the seconds after which the same request is likely to work (the
    /// store's wait for another writer).
    public static var retryAfterSeconds: Int { Int(StoreLimits.busyTimeout) }

    /// The kind of any error. An error that does not say is `.invalid` when ``ErrorMessages``
    /// knows it (a rule of the core), else `.unexpected`. Whatever else it is, an error that
    /// carries a ``StoreError`` anywhere inside (found by reflection, so a new service error
    /// needs no list kept in step) is the store error's kind — a database failure is never
    /// answered as a refused value.
    public static func of(_ error: any Error) -> FailureKind {
        if let store = StoreError.inside(error) { return store.failureKind }
        if let classified = error as? any ClassifiedFailure { return classified.failureKind }
        return ErrorMessages.message(describing: error, catalog: .shared(for: .english)) == nil ? .unexpected : .invalid
    }
}

extension StoreError: ClassifiedFailure {
    public var failureKind: FailureKind {
        switch self {
        case .busy: .unavailable
        case .diskFull: .storageFull
        // Asking a PostgreSQL server for what only a data directory has: not a failure, an answer.
        case .unavailable: .conflict
        default: .unexpected
        }
    }

    /// The store error `error` is or carries (in an associated value, at any depth).
    public static func inside(_ error: any Error) -> StoreError? {
        inside(value: error, depth: 0)
    }

    private static func inside(value: Any, depth: Int) -> StoreError? {
        if let store = value as? StoreError { return store }
        guard depth < 6 else { return nil }
        let mirror = Mirror(reflecting: value)
        guard [.enum, .tuple, .optional].contains(mirror.displayStyle) else { return nil }
        for child in mirror.children {
            if let store = inside(value: child.value, depth: depth + 1) { return store }
        }
        return nil
    }
}

extension PracticeLogError: ClassifiedFailure {
    public var failureKind: FailureKind {
        switch self {
        case .notFound: .notFound
        case .idTooShort, .ambiguous: .malformed
        case .store(let store): store.failureKind
        default: .invalid
        }
    }
}

extension BreathingServiceError: ClassifiedFailure {
    public var failureKind: FailureKind {
        switch self {
        case .invalid(.unknownPreset): .notFound
        case .invalid, .invalidRecord: .invalid
        case .store(let store): store.failureKind
        }
    }
}

extension MeditationPresetServiceError: ClassifiedFailure {
    public var failureKind: FailureKind {
        switch self {
        case .invalid(.unknownPreset): .notFound
        case .invalid(.nameTaken): .conflict
        case .invalid: .invalid
        case .store(let store): store.failureKind
        }
    }
}

extension WorkoutServiceError: ClassifiedFailure {
    public var failureKind: FailureKind {
        switch self {
        case .invalid(.unknownProgram): .notFound
        case .invalid, .invalidRecord: .invalid
        case .store(let store): store.failureKind
        }
    }
}

extension FocusTimerServiceError: ClassifiedFailure {
    public var failureKind: FailureKind {
        switch self {
        case .invalid(.unknownTimer), .invalid(.unknownItem): .notFound
        case .invalid(.alreadyRunning), .invalid(.notRunning), .invalid(.notPaused), .invalid(.notStarted): .conflict
        case .invalid: .invalid
        case .store(let store): store.failureKind
        }
    }
}

extension FocusTimerIntentError: ClassifiedFailure {
    public var failureKind: FailureKind {
        switch self {
        case .tooMany: .tooLarge
        case .invalidNode, .invalidChange: .invalid
        case .timers(let timers): timers.failureKind
        case .sync(let sync): FailureKind.of(sync)
        }
    }
}

extension TimelineRunError: ClassifiedFailure {
    /// A step a run cannot take now: pausing a paused run, or at an instant before its last step.
    public var failureKind: FailureKind { .conflict }
}

extension RunReportError: ClassifiedFailure {
    /// A report that cannot be logged as sent: the device keeps it and shows why.
    public var failureKind: FailureKind { .invalid }
}

extension JSONInputError: ClassifiedFailure {
    public var failureKind: FailureKind { .malformed }
    public var failureCode: String? { "unknown_field" }
}

extension LibraryError: ClassifiedFailure {
    public var failureKind: FailureKind {
        switch self {
        case .notFound: .notFound
        case .store(let store): store.failureKind
        default: .invalid
        }
    }
}

extension LibraryImportError: ClassifiedFailure {
    /// A file too large or not audio is the sender's; a disk or folder failure is the machine's
    /// (its reason names server paths, so it is logged, never shown over HTTP).
    public var failureKind: FailureKind {
        switch self {
        case .tooLarge: .tooLarge
        case .unreadableAudio: .invalid
        case .diskFull: .storageFull
        case .sourceUnreadable, .writeFailed, .saveFailed, .folderUnusable, .alreadyEnded: .unexpected
        }
    }

    public var failureCode: String? {
        switch self {
        case .tooLarge: "file_too_large"
        case .unreadableAudio: "not_audio"
        default: nil
        }
    }
}
