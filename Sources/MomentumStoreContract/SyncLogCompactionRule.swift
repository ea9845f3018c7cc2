import Foundation
import MomentumCore

/// Compaction's rule, written once for both stores (docs/sync.md, "Compaction"): the statement
/// that deletes the dominated changes among — or beaten by — the changes logged after `through`
/// up to `upTo`. Each store names its log's table and columns, and PostgreSQL keeps the statement
/// to one person's log.
///
/// A logged write is dominated when the log holds a write of the same field with a higher stamp,
/// or a deletion of its entity; a deletion is, when a later deletion of the same entity is
/// logged. A checklist item's `timerID` writes are always kept (every timer an item ever named
/// takes the item with it when deleted, so an old write still decides), and so is the newest
/// change of the log (its number is never given again; a pull's last number is the head).
public struct SyncLogCompactionRule: Sendable {
    /// The log's table and its columns, as the store names them.
    public var table: String
    public var entityType: String
    public var entityID: String
    /// The column of the person whose log it is, on a store that keeps every person's log in one
    /// table, with their id.
    public var person: (column: String, id: Person.ID)?

    public init(table: String, entityType: String, entityID: String, person: (column: String, id: Person.ID)? = nil) {
        (self.table, self.entityType, self.entityID, self.person) = (table, entityType, entityID, person)
    }

    /// The DELETE statement; every value in it is a number or a name of the core's.
    public func deleteDominated(through: Int64, upTo: Int64, head: Int64) -> String {
        let (type, id) = (entityType, entityID)
        func mine(_ alias: String) -> String {
            person.map { "\(alias).\($0.column) = \($0.id) AND " } ?? ""
        }
        func samePerson(_ a: String, _ b: String) -> String {
            person.map { "\(a).\($0.column) = \(b).\($0.column) AND " } ?? ""
        }
        func alwaysKept(_ alias: String) -> String {
            "(\(alias).\(type) = '\(SyncEntityType.checklistItem.rawValue)' AND \(alias).field = '\(SyncEntityType.timerReferenceField)')"
        }
        let since = "new.seq > \(through) AND new.seq <= \(upTo)"
        return """
            DELETE FROM \(table) WHERE \(person.map { "\($0.column) = \($0.id) AND " } ?? "")seq IN (
                -- writes beaten by a newer write of the same field logged since
                SELECT old.seq FROM \(table) new JOIN \(table) old
                    ON \(samePerson("old", "new"))old.\(type) = new.\(type) AND old.\(id) = new.\(id)
                        AND old.field = new.field AND old.stamp < new.stamp
                    WHERE \(mine("new"))\(since) AND new.field IS NOT NULL AND NOT \(alwaysKept("new"))
                UNION
                -- writes and older deletions of an entity deleted since
                SELECT old.seq FROM \(table) new JOIN \(table) old
                    ON \(samePerson("old", "new"))old.\(type) = new.\(type) AND old.\(id) = new.\(id) AND old.seq <> new.seq
                    WHERE \(mine("new"))\(since) AND new.field IS NULL
                        AND ((old.field IS NOT NULL AND NOT \(alwaysKept("old")))
                            OR (old.field IS NULL AND old.stamp < new.stamp))
                UNION
                -- writes logged since to an entity deleted before
                SELECT new.seq FROM \(table) new
                    WHERE \(mine("new"))\(since) AND new.field IS NOT NULL AND NOT \(alwaysKept("new"))
                        AND EXISTS (SELECT 1 FROM \(table) gone WHERE \(samePerson("gone", "new"))gone.\(type) = new.\(type)
                            AND gone.\(id) = new.\(id) AND gone.field IS NULL))
                -- the newest change of the log stays, so its number is never given again
                AND seq < \(head)
            """
    }
}
