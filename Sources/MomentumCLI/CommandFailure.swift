import MomentumCore
import MomentumServices

/// A command that cannot go on, with the one line the person reads.
public struct CommandFailure: Error, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

extension ErrorMessages {
    /// The one line a command prints for any error: its own failures, typed errors, audio errors,
    /// and for anything else one general sentence (the detail goes to the debug log).
    static func commandMessage(for error: any Error, catalog: StringCatalog) -> String {
        if let failure = error as? CommandFailure { return failure.message }
        return message(describing: error, catalog: catalog) ?? audioMessage(for: error, catalog: catalog)
            ?? catalog[.errorUnexpected]
    }
}
