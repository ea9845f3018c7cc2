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

    func libraryItems() throws(StoreError) -> [LibraryItem] {
        let views = try personal.libraryViews()
        return try household.libraryItems().map { $0.seen(through: views[$0.id]) }
    }

    func libraryItem(id: UUID) throws(StoreError) -> LibraryItem? {
        guard let item = try household.libraryItem(id: id) else { return nil }
        return item.seen(through: try personal.libraryView(id: id))
    }

    func libraryItem(contentHash: String) throws(StoreError) -> LibraryItem? {
        guard let item = try household.libraryItem(contentHash: contentHash) else { return nil }
        return item.seen(through: try personal.libraryView(id: item.id))
    }

    func insertLibraryItem(_ item: LibraryItem, at now: Date) throws(StoreError) {
        try household.insertLibraryItem(item, at: now)
    }

    func updateLibraryItemEdits(id: UUID, teacher: String?, name: String?, at now: Date) throws(StoreError) -> Bool {
        try changeView(id: id, at: now) { view in
            view.hasEdits = true
            view.editedTeacher = teacher
            view.editedName = name
        }
    }

    func setLibraryItemAmbientBed(id: UUID, _ isAmbientBed: Bool, at now: Date) throws(StoreError) -> Bool {
        try changeView(id: id, at: now) { $0.isAmbientBed = isAmbientBed }
    }

    func setLibraryItemPosition(id: UUID, _ position: Duration, at now: Date) throws(StoreError) -> Bool {
        try changeView(id: id, at: now) { $0.position = max(.zero, position) }
    }

    func deleteLibraryItem(id: UUID) throws(StoreError) -> Bool {
        try household.deleteLibraryItem(id: id)
    }

    /// Changes the person's view of an item the household has; whether it has it.
    private func changeView(id: UUID, at now: Date, _ change: (inout LibraryPersonalView) -> Void)
        throws(StoreError) -> Bool
    {
        guard try household.libraryItem(id: id) != nil else { return false }
        try personal.changeLibraryView(id: id, at: now, change)
        return true
    }
}
