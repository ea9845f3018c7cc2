import Foundation
import MomentumCore
import MomentumStoreContract

/// The focus timers people share in a household (docs/people.md).
extension HouseholdService {
    /// A focus timer another person shared with someone: whose it is, and with whom it is shared.
    public struct SharedTimer: Sendable {
        public var owner: Person
        public var timer: FocusTimer
        public var services: MomentumServices
    }

    /// The people `timer` of `owner` is shared with.
    public func sharees(ofTimer timer: UUID, ownedBy owner: Person.ID) async throws(StoreError) -> [Person] {
        let ids = await Set(
            try store.timerShares().filter { $0.ownerID == owner && $0.timerID == timer }.map(\.personID))
        return try await people().filter { ids.contains($0.id) }
    }

    /// Shares `timer` of `owner` with exactly the people named (none: with no one); they see it in
    /// their timers and tick it live, the timer stays the owner's.
    @discardableResult
    public func share(_ timer: FocusTimer, of owner: Person, with names: [String]) async throws(HouseholdError)
        -> [Person]
    {
        let people = try await storing { () async throws(StoreError) in try await self.people() }
        let sharees: [Person]
        do { sharees = try Household.sharees(named: names, owner: owner, among: people) } catch { throw .person(error) }
        try await storing { () async throws(StoreError) in
            try await self.store.setTimerShares(ownerID: owner.id, timerID: timer.id, with: sharees.map(\.id))
        }
        return sharees
    }

    /// The timers others shared with `person`, each with its owner (timers since deleted are left out).
    public func timersShared(with person: Person) async throws(FocusTimerServiceError) -> [SharedTimer] {
        let shares: [TimerShare]
        let people: [Person]
        do {
            shares = try await store.timerShares().filter { $0.personID == person.id }
            people = try await self.people()
        } catch { throw .store(error) }
        var shared: [SharedTimer] = []
        for owner in people {
            let ids = Set(shares.filter { $0.ownerID == owner.id }.map(\.timerID))
            guard !ids.isEmpty else { continue }
            let services: MomentumServices
            do { services = try await self.services(for: owner) } catch { throw .store(error) }
            for timer in try await services.focusTimers.timers() where ids.contains(timer.id) {
                shared.append(SharedTimer(owner: owner, timer: timer, services: services))
            }
        }
        return shared
    }

    /// The service that runs the timer `name` names for `person`, and the name to give it there
    /// (issue 38: both front ends ask this): their own timer first (by name or id, as
    /// ``FocusTimerService`` finds one); else a timer shared with them, by its id or by its name
    /// (ignoring case) when no other shared timer has it. Sharers run, edit and tick a timer; only
    /// its owner moves, deletes or shares it, so those use the person's own service.
    public func timerService(named name: String, for person: Person) async throws(FocusTimerServiceError)
        -> (service: FocusTimerService, name: String)
    {
        let own: FocusTimerService
        do { own = try await services(for: person).focusTimers } catch { throw .store(error) }
        do throws(FocusTimerServiceError) {
            _ = try await own.timer(named: name)
            return (own, name)
        } catch {
            // None of their own has that name (or several do): a shared timer may be meant. A
            // store that fails is reported, not taken for "none".
            if case .store = error { throw error }
        }
        let shared = try await timersShared(with: person)
        let byID = shared.filter { $0.timer.id.uuidString.lowercased() == name.lowercased() }
        let byName = shared.filter { $0.timer.name.lowercased() == name.lowercased() }
        guard let found = byID.first ?? (byName.count == 1 ? byName.first : nil) else { return (own, name) }
        return (found.services.focusTimers, found.timer.id.uuidString.lowercased())
    }

    /// The first of `changes` (its index) that names a timer or checklist item of someone other
    /// than `person`, or gives an item of theirs another person's timer (``OthersTimers``), or `nil`.
    public func changeOfSomeoneElse(in changes: [ChangeMessage], pushedBy person: Person.ID)
        async
        throws(FocusTimerServiceError) -> Int?
    {
        let named = changes.contains { [.focusTimer, .checklistItem].contains(SyncEntityType(rawValue: $0.type)) }
        guard named else { return nil }
        return try await othersTimers(besides: person).firstChangeNotYours(in: changes)
    }

    /// The timers and items of everyone in the household but `person`.
    func othersTimers(besides person: Person.ID) async throws(FocusTimerServiceError) -> OthersTimers {
        var others = OthersTimers()
        let people: [Person]
        do { people = try await self.people() } catch { throw .store(error) }
        for other in people where other.id != person {
            let services: MomentumServices
            do { services = try await self.services(for: other) } catch { throw .store(error) }
            for timer in try await services.focusTimers.timers() { others.insert(timer) }
        }
        return others
    }

    /// Who sees the timers of `owner` besides them: the people whose live feeds hear of their changes.
    public func peopleSharing(with owner: Person.ID) async throws(StoreError) -> Set<Person.ID> {
        await Set(try store.timerShares().filter { $0.ownerID == owner }.map(\.personID))
    }
}
