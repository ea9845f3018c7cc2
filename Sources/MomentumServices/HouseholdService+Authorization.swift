import Foundation
import MomentumCore
import MomentumStoreContract

/// Who may do what in the household (docs/people.md), decided here for every front end: an owner
/// manages everyone — adds, renames, removes people, sets their PINs, pairs and ends their
/// devices; a member sees and pairs only themselves, and the others do not exist for them.
extension HouseholdService {
    /// Whether `asking` manages the household.
    public func canManage(_ asking: Person) -> Bool {
        asking.role == .owner
    }

    /// The people `asking` sees: everyone for an owner, only themselves for a member.
    public func people(seenBy asking: Person) async throws(StoreError) -> [Person] {
        try await people().filter { canManage(asking) || $0.id == asking.id }
    }

    /// Refuses what only an owner may do, when `asking` is not one.
    public func requireOwner(_ asking: Person) throws(HouseholdError) {
        guard canManage(asking) else { throw .ownerOnly }
    }

    /// The person `id` names, as an owner may change them (``requireOwner(_:)`` first).
    public func person(id: Person.ID?, changedBy asking: Person) async throws(HouseholdError) -> Person {
        try requireOwner(asking)
        return try await person(id: id, reachedBy: asking)
    }

    /// The person `id` names, as `asking` may reach them: anyone for an owner; for a member only
    /// themselves — another's id answers as if there were no such person.
    public func person(id: Person.ID?, reachedBy asking: Person) async throws(HouseholdError) -> Person {
        guard let id, let found = try await storing({ () throws(StoreError) in try await person(id: id) }),
            canManage(asking) || found.id == asking.id
        else { throw .noSuchPerson }
        return found
    }
}
