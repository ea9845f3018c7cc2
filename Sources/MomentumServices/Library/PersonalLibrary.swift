import Foundation
import MomentumCore
import MomentumStoreContract

/// The household's library as one person sees it (docs/people.md): the items and their files
/// are the household's (the founder's database), and each person's edits, ambient choices and
/// places are their own (their database's `library_views`), applied by the core's
/// ``LibraryItem/seen(through:)``.
struct PersonalLibrary: LibraryRepository {
    let household: any SharedLibraryStore
    let personal: any LibraryViewStore

    func libraryItems() async throws(StoreError) -> [LibraryItem] {
        let views = try await personal.libraryViews()
        return try await household.libraryItems().map { $0.seen(through: views[$0.id]) }
    }

    func libraryItem(id: UUID) async throws(StoreError) -> LibraryItem? {
        guard let item = try await household.libraryItem(id: id) else { return nil }
        return await item.seen(through: try personal.libraryView(id: id))
    }

    func libraryItem(contentHash: String) async throws(StoreError) -> LibraryItem? {
        guard let item = try await household.libraryItem(contentHash: contentHash) else { return nil }
        return await item.seen(through: try personal.libraryView(id: item.id))
    }

    func insertLibraryItem(_ item: LibraryItem, at now: Date) async throws(StoreError) {
        try await household.insertLibraryItem(item, at: now)
    }

    func updateLibraryItemEdits(id: UUID, teacher: String?, name: String?, at now: Date) async throws(StoreError)
        -> Bool
    {
        try await changeView(id: id, at: now) { view in
            view.hasEdits = true
            view.editedTeacher = teacher
            view.editedName = name
        }
    }

    func setLibraryItemAmbientBed(id: UUID, _ isAmbientBed: Bool, at now: Date) async throws(StoreError) -> Bool {
        try await changeView(id: id, at: now) { $0.isAmbientBed = isAmbientBed }
    }

    func setLibraryItemPosition(id: UUID, _ position: Duration, at now: Date) async throws(StoreError) -> Bool {
        try await changeView(id: id, at: now) { $0.position = max(.zero, position) }
    }

    func deleteLibraryItem(id: UUID) async throws(StoreError) -> Bool {
        try await household.deleteLibraryItem(id: id)
    }

    /// Changes the person's view of an item the household has; whether it has it.
    private func changeView(id: UUID, at now: Date, _ change: (inout LibraryPersonalView) -> Void)
        async
        throws(StoreError) -> Bool
    {
        guard try await household.libraryItem(id: id) != nil else { return false }
        try await personal.changeLibraryView(id: id, at: now, change)
        return true
    }
}
