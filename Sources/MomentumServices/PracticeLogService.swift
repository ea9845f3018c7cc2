import Foundation
import MomentumCore
import MomentumStore

/// Reading the practice log. (Adding, editing and deleting by hand come with the progress issue.)
public struct PracticeLogService: Sendable {
    private let repository: any PracticeLogRepository

    public init(repository: any PracticeLogRepository) {
        self.repository = repository
    }

    /// Records matching `query`, oldest first.
    public func records(matching query: PracticeLogQuery = PracticeLogQuery()) throws(StoreError) -> [PracticeRecord] {
        try repository.practiceRecords(matching: query)
    }
}
