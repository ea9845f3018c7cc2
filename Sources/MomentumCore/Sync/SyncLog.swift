import Foundation

/// A change in a replica's log: its sequence number there and the change as it travels.
/// On the wire: `{"seq": 12, "change": {…ChangeMessage…}}`.
public struct LoggedChange: Sendable, Hashable, Codable {
    public var seq: Int64
    public var change: ChangeMessage

    public init(seq: Int64, change: ChangeMessage) {
        self.seq = seq
        self.change = change
    }
}

/// Where a replica stands: its node, its server and cursor, what waits to be pushed.
public struct SyncStatus: Sendable, Equatable {
    /// The replica's node id; `nil` before anything synced was written.
    public var node: String?
    public var serverURL: String?
    /// The last server sequence number pulled.
    public var cursor: Int64
    /// Local changes the server has not acknowledged yet.
    public var pending: Int
    public var lastSyncAt: Date?
    /// The last sequence number of this database's own log.
    public var head: Int64

    public init(
        node: String?, serverURL: String?, cursor: Int64, pending: Int, lastSyncAt: Date?, head: Int64
    ) {
        self.node = node
        self.serverURL = serverURL
        self.cursor = cursor
        self.pending = pending
        self.lastSyncAt = lastSyncAt
        self.head = head
    }
}

/// A page of a replica's log.
public struct SyncPage: Sendable, Equatable, Codable {
    public var changes: [LoggedChange]
    /// The sequence number to continue after: the page's last, or the cursor asked for when empty.
    public var last: Int64
    /// Whether changes after `last` follow.
    public var more: Bool

    public init(changes: [LoggedChange], last: Int64, more: Bool) {
        self.changes = changes
        self.last = last
        self.more = more
    }
}

/// A page of the log with each change as its logged JSON text (a `ChangeMessage`).
public struct SyncTextPage: Sendable, Equatable {
    public struct Logged: Sendable, Equatable {
        public var seq: Int64
        public var message: String

        public init(seq: Int64, message: String) {
            self.seq = seq
            self.message = message
        }
    }
    public var changes: [Logged]
    public var last: Int64
    public var more: Bool

    public init(changes: [Logged], last: Int64, more: Bool) {
        self.changes = changes
        self.last = last
        self.more = more
    }
}

/// What merging pulled changes did.
public struct SyncPullResult: Sendable, Equatable {
    /// Changes that were new here (not duplicates).
    public var applied: Int
    /// Stamps ahead of this machine's clock by more than the drift limit: applied anyway, the
    /// clock kept at the later of its last stamp and the wall clock. Usually this clock is wrong.
    public var farAhead: [HybridTimestamp]

    public init(applied: Int, farAhead: [HybridTimestamp]) {
        self.applied = applied
        self.farAhead = farAhead
    }
}

extension Change {
    /// What the log's `field` column holds for this change: the field of a `set`, `*` for a
    /// `put` (every field at once), nothing for a deletion. Both stores find a change's log
    /// entry, and the writes it beats, by it.
    public var loggedField: String? {
        switch operation {
        case .set(let field, _): field
        case .put: Self.wholeRowField
        case .delete: nil
        }
    }

    /// The log's `field` of a `put`: never a field's name.
    public static let wholeRowField = "*"

    /// Whether `fields` are exactly the fields of `type`, two or more, and `type` takes puts:
    /// when a new entity's write is logged as one ``Operation/put(fields:)``.
    public static func isWholeRow(_ fields: [String: SyncValue], of type: SyncEntityType) -> Bool {
        type != .checklistItem && fields.count > 1 && fields.count == type.fields.count
            && fields.keys.allSatisfy { type.fields[$0] != nil }
    }

    /// The log fields (see ``loggedField``) whose writes with a lower stamp this write leaves for
    /// compaction to drop once it wins (docs/sync.md "Compaction"): a set's field; for a put
    /// every field and older puts (a put holds every field); nothing for a deletion, and nothing
    /// for a checklist item's `timerID` — every timer an item ever named still decides (a deleted
    /// timer takes the item with it), so those writes are always kept. Both stores drop by it
    /// as they merge a push.
    public var fieldsWhoseOlderWritesItBeats: [String] {
        switch operation {
        case .set(let field, _):
            entity.type == .checklistItem && field == SyncEntityType.timerReferenceField ? [] : [field]
        case .put(let fields): fields.keys.sorted() + [Self.wholeRowField]
        case .delete: []
        }
    }
}
