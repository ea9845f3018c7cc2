import MomentumServices
import MomentumStore
import MomentumStoreContract

/// How a command ends, by one rule for every command (README, "Exit status"): the BSD
/// `sysexits.h` codes scripts already know, and 128 + the signal for a practice ended by one.
enum CommandExit: Int32, Sendable, CaseIterable {
    case success = 0
    /// The person answered no to a question that asked them to confirm; nothing was done.
    case declined = 1
    /// The command line asks for what cannot be: an unknown command or option, a value not
    /// understood or out of range, a name that matches nothing, a change the present state does
    /// not allow (`EX_USAGE`).
    case usage = 64
    /// A file or database that cannot be used as it is: not a backup, a CSV with bad rows, a
    /// damaged database, one of a newer version (`EX_DATAERR`).
    case dataError = 65
    /// Something needed is not there now: the database is busy, a server or PostgreSQL cannot be
    /// reached, the port is taken (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// A failure that is no one's input: a bug, or a database error with no better name
    /// (`EX_SOFTWARE`).
    case software = 70
    /// Reading or writing failed: the disk is full, a file cannot be read or written, the data
    /// is on a read-only mount (`EX_IOERR`).
    case ioError = 74

    /// The status for `error`, which the command has already said.
    static func of(_ error: any Error) -> CommandExit {
        switch error {
        case let localized as LocalizedFailure: return of(localized.underlying)
        case let failure as CommandFailure: return failure.status
        default: break
        }
        if let store = StoreError.inside(error) { return of(store) }
        if let sync = error as? SyncClientError {
            switch sync {
            case .unreachable, .badAnswer: return .unavailable
            case .sync: return .dataError
            default: return .usage
            }
        }
        return switch FailureKind.of(error) {
        case .malformed, .invalid, .forbidden, .notFound, .conflict, .tooLarge: .usage
        case .unavailable: .unavailable
        case .storageFull: .ioError
        case .unexpected: .software
        }
    }

    static func of(_ store: StoreError) -> CommandExit {
        switch store {
        case .dataDirectoryNotWritable, .readOnly, .diskFull: .ioError
        case .notADatabase, .damaged, .databaseFromNewerVersion, .corruptRow: .dataError
        case .busy, .unavailable: .unavailable
        case .database: .software
        }
    }
}
