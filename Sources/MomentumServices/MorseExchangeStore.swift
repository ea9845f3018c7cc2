import MomentumCore
import MomentumStoreContract

extension HouseholdService {
    /// Where `person`'s Morse sessions and QSO contacts are kept when the household is on
    /// PostgreSQL, so that any server answers a session another started; nil on SQLite (the
    /// server keeps them in memory).
    public func morseExchangeStore(for person: Person.ID) -> (any MorseExchangeStore)? {
        store.morseExchangeStore(for: person)
    }
}
