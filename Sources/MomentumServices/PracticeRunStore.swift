import MomentumCore
import MomentumStoreContract

extension HouseholdService {
    /// Where `person`'s practice runs are kept when the household is on PostgreSQL, so that any
    /// server can pause a run another started; nil on SQLite (the server keeps them in memory).
    public func practiceRunStore(for person: Person.ID) -> (any PracticeRunStore)? {
        store.practiceRunStore(for: person)
    }
}
