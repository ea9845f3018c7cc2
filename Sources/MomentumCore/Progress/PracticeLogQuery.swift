import Foundation

/// Which records to list.
public struct PracticeLogQuery: Sendable, Equatable {
    public var kind: PracticeKind?
    /// Records starting at or after this instant.
    public var since: Date?
    /// Records starting before this instant.
    public var until: Date?

    public init(kind: PracticeKind? = nil, since: Date? = nil, until: Date? = nil) {
        self.kind = kind
        self.since = since
        self.until = until
    }
}
