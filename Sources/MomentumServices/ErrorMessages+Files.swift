import Foundation
import MomentumCore

extension ErrorMessages {
    /// Why a file could not be read or written, in a few words of the catalog (``FileProblem``).
    public static func fileReason(for error: any Error, catalog: StringCatalog) -> String {
        FileProblem(error).text(catalog)
    }
}
