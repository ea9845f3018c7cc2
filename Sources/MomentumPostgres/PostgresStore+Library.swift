import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// The household's guided meditation library on PostgreSQL, as SQLite keeps it
/// (`MomentumDatabase+Library.swift`): the items are global rows (their audio files are in the
/// library folder every server shares, docs/deploy.md), each person's edits, ambient choices and
/// places are their own rows (`library_view`, ``PostgresPersonStore``).
extension PostgresStore {
    private static let itemColumns = """
        id, original_teacher, original_name, original_album, edited_teacher, edited_name, duration_ms, format,
        file_name, original_file_name, byte_size, content_hash, imported_at_ms, is_ambient_bed, position_ms
        """

    /// Every item of the library, oldest import first.
    public func libraryItems() async throws(StoreError) -> [LibraryItem] {
        let rows = try await read { session throws(StoreError) in
            try await session.query(
                "SELECT \(unescaped: Self.itemColumns) FROM library_item ORDER BY imported_at_ms, id")
        }
        var items: [LibraryItem] = []
        for row in rows { items.append(try Self.item(row.makeRandomAccess())) }
        return items
    }

    /// The item with `id`, if there is one.
    public func libraryItem(id: UUID) async throws(StoreError) -> LibraryItem? {
        let key = id.uuidString.lowercased()
        let rows = try await read { session throws(StoreError) in
            try await session.query("SELECT \(unescaped: Self.itemColumns) FROM library_item WHERE id = \(key)")
        }
        return try rows.first.map { row throws(StoreError) in try Self.item(row.makeRandomAccess()) }
    }

    /// The item whose file has the SHA-256 `contentHash`, if there is one.
    public func libraryItem(contentHash: String) async throws(StoreError) -> LibraryItem? {
        let hash = contentHash.lowercased()
        let rows = try await read { session throws(StoreError) in
            try await session.query(
                "SELECT \(unescaped: Self.itemColumns) FROM library_item WHERE content_hash = \(hash)")
        }
        return try rows.first.map { row throws(StoreError) in try Self.item(row.makeRandomAccess()) }
    }

    /// Adds a freshly imported item; fails (changing nothing) when its id, file or content exists.
    public func insertLibraryItem(_ item: LibraryItem, at now: Date) async throws(StoreError) {
        let id = item.id.uuidString.lowercased()
        let (duration, position) = (item.duration.wholeMilliseconds, item.position.wholeMilliseconds)
        let (imported, updated) = (item.importedAt.millisecondsSince1970, now.millisecondsSince1970)
        try await write { session throws(StoreError) in
            try await session.execute(
                """
                INSERT INTO library_item (id, original_teacher, original_name, original_album, edited_teacher,
                    edited_name, duration_ms, format, file_name, original_file_name, byte_size, content_hash,
                    imported_at_ms, is_ambient_bed, position_ms, updated_at_ms)
                VALUES (\(id), \(item.originalTeacher), \(item.originalName), \(item.originalAlbum),
                    \(item.editedTeacher), \(item.editedName), \(duration), \(item.format.rawValue), \(item.fileName),
                    \(item.originalFileName), \(item.byteSize), \(item.contentHash), \(imported),
                    \(item.isAmbientBed), \(position), \(updated))
                """)
        }
    }

    /// Deletes item `id`'s row and everyone's view of it (its file is the caller's); returns
    /// whether there was one.
    @discardableResult
    public func deleteLibraryItem(id: UUID) async throws(StoreError) -> Bool {
        let key = id.uuidString.lowercased()
        return try await write { session throws(StoreError) in
            try await session.execute("DELETE FROM library_item WHERE id = \(key)") > 0
        }
    }

    private static func item(_ cells: PostgresRandomAccessRow) throws(StoreError) -> LibraryItem {
        let id: String = try cells.value(0)
        let formatName: String = try cells.value(7)
        guard let uuid = UUID(uuidString: id) else {
            throw .corruptRow(table: "library_item", id: id, reason: "the id is not a UUID")
        }
        guard let format = LibraryAudioFormat(rawValue: formatName) else {
            throw .corruptRow(table: "library_item", id: id, reason: "unknown format \(formatName)")
        }
        return LibraryItem(
            id: uuid, originalTeacher: try cells.value(1), originalName: try cells.value(2),
            originalAlbum: try cells.value(3), editedTeacher: try cells.value(4), editedName: try cells.value(5),
            duration: .milliseconds(try cells.value(6, as: Int64.self)), format: format, fileName: try cells.value(8),
            originalFileName: try cells.value(9), byteSize: try cells.value(10), contentHash: try cells.value(11),
            importedAt: Date(millisecondsSince1970: try cells.value(12)), isAmbientBed: try cells.value(13),
            position: .milliseconds(try cells.value(14, as: Int64.self)))
    }
}

extension PostgresPersonStore {
    /// This person's views of library items, by item.
    public func libraryViews() async throws(StoreError) -> [UUID: LibraryPersonalView] {
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(
                """
                SELECT id, has_edits, edited_teacher, edited_name, is_ambient_bed, position_ms
                FROM library_view WHERE person_id = \(personID)
                """)
        }
        var views: [UUID: LibraryPersonalView] = [:]
        for row in rows {
            let view = try Self.view(row)
            views[view.itemID] = view
        }
        return views
    }

    public func libraryView(id: UUID) async throws(StoreError) -> LibraryPersonalView? {
        let key = id.uuidString.lowercased()
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(
                """
                SELECT id, has_edits, edited_teacher, edited_name, is_ambient_bed, position_ms
                FROM library_view WHERE person_id = \(personID) AND id = \(key)
                """)
        }
        return try rows.first.map { row throws(StoreError) in try Self.view(row) }
    }

    /// Writes this person's view of item `id` as `change` makes it from the one kept (or a new
    /// one), in one transaction holding the row: two servers changing it at once both count.
    public func changeLibraryView(id: UUID, at now: Date, _ change: (inout LibraryPersonalView) -> Void)
        async
        throws(StoreError)
    {
        let key = id.uuidString.lowercased()
        let ms = now.millisecondsSince1970
        try await store.write { session throws(StoreError) in
            // The row exists (unchanged) before it is locked, so a first change is locked too.
            try await session.execute(
                """
                INSERT INTO library_view (person_id, id, has_edits, position_ms, updated_at_ms)
                VALUES (\(personID), \(key), FALSE, 0, \(ms)) ON CONFLICT (person_id, id) DO NOTHING
                """)
            let rows = try await session.query(
                """
                SELECT id, has_edits, edited_teacher, edited_name, is_ambient_bed, position_ms
                FROM library_view WHERE person_id = \(personID) AND id = \(key) FOR UPDATE
                """)
            let kept = try rows.first.map { row throws(StoreError) in try Self.view(row) }
            var view = kept ?? LibraryPersonalView(itemID: id)
            change(&view)
            let position = max(0, view.position.wholeMilliseconds)
            try await session.execute(
                """
                UPDATE library_view SET has_edits = \(view.hasEdits), edited_teacher = \(view.editedTeacher),
                    edited_name = \(view.editedName), is_ambient_bed = \(view.isAmbientBed),
                    position_ms = \(position), updated_at_ms = \(ms)
                WHERE person_id = \(personID) AND id = \(key)
                """)
        }
    }

    private static func view(_ row: PostgresRow) throws(StoreError) -> LibraryPersonalView {
        let (id, hasEdits, teacher, name, isAmbientBed, positionMs) =
            try row.columns((String, Bool, String?, String?, Bool?, Int64).self)
        guard let uuid = UUID(uuidString: id) else {
            throw .corruptRow(table: "library_view", id: id, reason: "the id is not a UUID")
        }
        return LibraryPersonalView(
            itemID: uuid, hasEdits: hasEdits, editedTeacher: teacher, editedName: name, isAmbientBed: isAmbientBed,
            position: .milliseconds(positionMs))
    }
}
