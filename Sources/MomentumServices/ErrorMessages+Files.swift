import Foundation
import MomentumCore

extension ErrorMessages {
    /// Why a file could not be read or written, in a few words of the catalog; never Foundation's
    /// own text (on Linux that is "NSCocoaErrorDomain error 512").
    public static func fileReason(for error: any Error, catalog: StringCatalog) -> String {
        let posix: Int32? =
            switch error {
            case let error as CocoaError:
                (error.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap {
                    $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil
                } ?? cocoaReason(error.code)
            case let error as POSIXError: error.code.rawValue
            default:
                (error as NSError).domain == NSPOSIXErrorDomain ? Int32((error as NSError).code) : nil
            }
        switch posix {
        case ENOENT, ENOTDIR: return catalog[.errorFileReasonMissing]
        case EACCES, EPERM, EROFS: return catalog[.errorFileReasonPermission]
        case ENOSPC, EDQUOT: return catalog[.errorFileReasonDiskFull]
        case EISDIR: return catalog[.errorFileReasonFolder]
        default: return catalog[.errorFileReasonOther]
        }
    }

    private static func cocoaReason(_ code: CocoaError.Code) -> Int32? {
        switch code {
        case .fileNoSuchFile, .fileReadNoSuchFile: ENOENT
        case .fileWriteNoPermission, .fileReadNoPermission: EACCES
        case .fileWriteOutOfSpace: ENOSPC
        case .fileWriteVolumeReadOnly: EROFS
        default: nil
        }
    }
}
