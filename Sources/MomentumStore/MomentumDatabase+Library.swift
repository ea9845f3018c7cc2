import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

extension MomentumDatabase {
    /// Every item of the library, oldest import first.
    public func libraryItems() throws(StoreError) -> [LibraryItem] {
        let rows = try read { db in try LibraryItemRow.order(Column("importedAtMs"), Column("id")).fetchAll(db) }
        var items: [LibraryItem] = []
        for row in rows { items.append(try row.item()) }
        return items
    }

    /// The item with `id`, if there is one.
    public func libraryItem(id: UUID) throws(StoreError) -> LibraryItem? {
        let row = try read { db in try LibraryItemRow.fetchOne(db, key: id.uuidString.lowercased()) }
        return try row?.item()
    }

    /// The item whose file has the SHA-256 `contentHash`, if there is one.
    public func libraryItem(contentHash: String) throws(StoreError) -> LibraryItem? {
        let row = try read { db in
            try LibraryItemRow.filter(Column("contentHash") == contentHash.lowercased()).fetchOne(db)
        }
        return try row?.item()
    }

    /// Adds a freshly imported item; fails (changing nothing) when its id, file or content exists.
    public func insertLibraryItem(_ item: LibraryItem, at now: Date) throws(StoreError) {
        try write { db in try LibraryItemRow(item, updatedAt: now).insert(db) }
    }

    /// Stores the person's teacher and name for item `id` (`nil` shows the original); returns
    /// whether there was such an item.
    @discardableResult
    public func updateLibraryItemEdits(id: UUID, teacher: String?, name: String?, at now: Date) throws(StoreError)
        -> Bool
    {
        try updateLibraryItem(id: id, at: now) { row in
            row.editedTeacher = teacher
            row.editedName = name
        }
    }

    /// Marks item `id` as an ambient bed or not; returns whether there was such an item.
    @discardableResult
    public func setLibraryItemAmbientBed(id: UUID, _ isAmbientBed: Bool, at now: Date) throws(StoreError) -> Bool {
        try updateLibraryItem(id: id, at: now) { $0.isAmbientBed = isAmbientBed }
    }

    /// Remembers where the player left item `id`; returns whether there was such an item.
    @discardableResult
    public func setLibraryItemPosition(id: UUID, _ position: Duration, at now: Date) throws(StoreError) -> Bool {
        try updateLibraryItem(id: id, at: now) { $0.positionMs = max(0, position.wholeMilliseconds) }
    }

    /// Deletes item `id`'s row (its file is the caller's); returns whether there was one.
    @discardableResult
    public func deleteLibraryItem(id: UUID) throws(StoreError) -> Bool {
        try write { db in try LibraryItemRow.deleteOne(db, key: id.uuidString.lowercased()) }
    }

    private func updateLibraryItem(id: UUID, at now: Date, _ change: (inout LibraryItemRow) -> Void)
        throws(StoreError) -> Bool
    {
        try write { db in
            guard var row = try LibraryItemRow.fetchOne(db, key: id.uuidString.lowercased()) else { return false }
            change(&row)
            row.updatedAtMs = now.millisecondsSince1970
            try row.update(db)
            return true
        }
    }
}

extension MomentumDatabase {
    /// This database's person's views of library items, by item.
    public func libraryViews() throws(StoreError) -> [UUID: LibraryPersonalView] {
        let rows = try read { db in try LibraryViewRow.fetchAll(db) }
        var views: [UUID: LibraryPersonalView] = [:]
        for row in rows {
            let view = try row.view()
            views[view.itemID] = view
        }
        return views
    }

    public func libraryView(id: UUID) throws(StoreError) -> LibraryPersonalView? {
        try read { db in try LibraryViewRow.fetchOne(db, key: id.uuidString.lowercased()) }.map {
            row throws(StoreError) in
            try row.view()
        }
    }

    /// Writes this person's view of item `id` as `change` makes it from the one kept (or a new one).
    public func changeLibraryView(id: UUID, at now: Date, _ change: (inout LibraryPersonalView) -> Void)
        throws(StoreError)
    {
        try write { db in
            var view =
                try LibraryViewRow.fetchOne(db, key: id.uuidString.lowercased()).map { try $0.view() }
                ?? LibraryPersonalView(itemID: id)
            change(&view)
            try LibraryViewRow(view, updatedAt: now).save(db)
        }
    }
}

extension LibraryItemRow: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { tableName }
}

extension LibraryViewRow: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { tableName }
}
