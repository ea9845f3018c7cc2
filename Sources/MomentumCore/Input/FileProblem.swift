import Foundation

/// Why a file could not be read or written, as people are told it: a few words of the catalog,
/// never the operating system's or Foundation's own text (on Linux that is English, or
/// "NSCocoaErrorDomain error 512"). Errors keep the problem, not a sentence, so it is said in the
/// language of whoever reads it.
public enum FileProblem: Sendable, Equatable {
    case missing
    case permission
    case diskFull
    case isFolder
    /// It broke off before its end (an upload cut short).
    case interrupted
    /// Anything else the file system refused.
    case other

    /// The problem `error` stands for.
    public init(_ error: any Error) {
        let posix: Int32? =
            switch error {
            case let error as CocoaError:
                (error.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap {
                    $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil
                } ?? Self.posix(error.code)
            case let error as POSIXError: error.code.rawValue
            default:
                (error as NSError).domain == NSPOSIXErrorDomain ? Int32((error as NSError).code) : nil
            }
        self.init(errno: posix)
    }

    /// The problem an `errno` value stands for.
    public init(errno: Int32?) {
        switch errno {
        case ENOENT, ENOTDIR: self = .missing
        case EACCES, EPERM, EROFS: self = .permission
        case ENOSPC, EDQUOT: self = .diskFull
        case EISDIR: self = .isFolder
        default: self = .other
        }
    }

    public func text(_ catalog: StringCatalog) -> String {
        switch self {
        case .missing: catalog[.errorFileReasonMissing]
        case .permission: catalog[.errorFileReasonPermission]
        case .diskFull: catalog[.errorFileReasonDiskFull]
        case .isFolder: catalog[.errorFileReasonFolder]
        case .interrupted: catalog[.errorFileReasonInterrupted]
        case .other: catalog[.errorFileReasonOther]
        }
    }

    private static func posix(_ code: CocoaError.Code) -> Int32? {
        switch code {
        case .fileNoSuchFile, .fileReadNoSuchFile: ENOENT
        case .fileWriteNoPermission, .fileReadNoPermission: EACCES
        case .fileWriteOutOfSpace: ENOSPC
        case .fileWriteVolumeReadOnly: EROFS
        default: nil
        }
    }
}
