import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

/// The person's Web Push subscriptions (docs/notifications.md), in their own database.
extension MomentumDatabase {
    private static let subscriptionColumns = """
        id, endpoint, p256dh, auth, deviceName, createdAtMs, expiresAtMs, lastDeliveredAtMs, lastFailureAtMs,
        lastFailure
        """

    public func pushSubscriptions() throws(StoreError) -> [PushSubscription] {
        let rows = try read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.subscriptionColumns) FROM pushSubscription ORDER BY createdAtMs, rowid")
        }
        var subscriptions: [PushSubscription] = []
        for row in rows { subscriptions.append(try Self.subscription(row)) }
        return subscriptions
    }

    public func savePushSubscription(_ subscription: PushSubscription) throws(StoreError) -> PushSubscription {
        let row = try write { db -> Row? in
            let s = subscription
            try db.execute(
                sql: """
                    INSERT INTO pushSubscription (\(Self.subscriptionColumns))
                    VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL)
                    ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
                        deviceName = excluded.deviceName, expiresAtMs = excluded.expiresAtMs,
                        lastFailureAtMs = NULL, lastFailure = NULL
                    """,
                arguments: [
                    s.id.uuidString.lowercased(), s.endpoint, s.p256dh, s.auth, s.deviceName,
                    s.createdAt.millisecondsSince1970, s.expiresAt?.millisecondsSince1970,
                ])
            // The oldest others go past the limit.
            try db.execute(
                sql: """
                    DELETE FROM pushSubscription WHERE id IN (
                        SELECT id FROM pushSubscription WHERE endpoint <> ?
                        ORDER BY createdAtMs DESC, rowid DESC LIMIT -1 OFFSET ?)
                    """,
                arguments: [s.endpoint, PushSubscription.maximumPerPerson - 1])
            return try Row.fetchOne(
                db, sql: "SELECT \(Self.subscriptionColumns) FROM pushSubscription WHERE endpoint = ?",
                arguments: [s.endpoint])
        }
        guard let row else {
            throw .corruptRow(table: "pushSubscription", id: subscription.id.uuidString, reason: "not kept")
        }
        return try Self.subscription(row)
    }

    @discardableResult
    public func deletePushSubscription(id: UUID) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM pushSubscription WHERE id = ?", arguments: [id.uuidString.lowercased()])
            return db.changesCount > 0
        }
    }

    private static func subscription(_ row: Row) throws(StoreError) -> PushSubscription {
        let idText: String = row["id"]
        guard let id = UUID(uuidString: idText) else {
            throw .corruptRow(table: "pushSubscription", id: idText, reason: "id is not a UUID")
        }
        func date(_ column: String) -> Date? { (row[column] as Int64?).map(Date.init(millisecondsSince1970:)) }
        return PushSubscription(
            id: id, endpoint: row["endpoint"], p256dh: row["p256dh"], auth: row["auth"], deviceName: row["deviceName"],
            createdAt: Date(millisecondsSince1970: row["createdAtMs"]), expiresAt: date("expiresAtMs"),
            lastDeliveredAt: date("lastDeliveredAtMs"), lastFailureAt: date("lastFailureAtMs"),
            lastFailure: row["lastFailure"])
    }
}
