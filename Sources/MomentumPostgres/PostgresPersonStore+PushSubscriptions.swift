import Foundation
import MomentumCore
import MomentumStoreContract
import PostgresNIO

/// One person's Web Push subscriptions on PostgreSQL, as SQLite keeps them
/// (`MomentumDatabase+PushSubscriptions.swift`).
extension PostgresPersonStore {
    private static let subscriptionColumns = """
        id, endpoint, p256dh, auth, device_name, created_at_ms, expires_at_ms, last_delivered_at_ms,
        last_failure_at_ms, last_failure
        """

    public func pushSubscriptions() async throws(StoreError) -> [PushSubscription] {
        let rows = try await store.read { session throws(StoreError) in
            try await session.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT \(Self.subscriptionColumns) FROM push_subscription WHERE person_id = $1
                        ORDER BY created_at_ms, position
                        """, binds: Self.binds(personID)))
        }
        var subscriptions: [PushSubscription] = []
        for row in rows { subscriptions.append(try Self.subscription(row)) }
        return subscriptions
    }

    public func savePushSubscription(_ subscription: PushSubscription) async throws(StoreError) -> PushSubscription {
        let s = subscription
        let row = try await store.write { session throws(StoreError) in
            try await session.execute(
                """
                INSERT INTO push_subscription (person_id, id, endpoint, p256dh, auth, device_name, created_at_ms,
                    expires_at_ms)
                VALUES (\(personID), \(s.id.uuidString.lowercased()), \(s.endpoint), \(s.p256dh), \(s.auth),
                    \(s.deviceName), \(s.createdAt.millisecondsSince1970), \(s.expiresAt?.millisecondsSince1970))
                ON CONFLICT (person_id, endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
                    device_name = EXCLUDED.device_name, expires_at_ms = EXCLUDED.expires_at_ms,
                    last_failure_at_ms = NULL, last_failure = NULL
                """)
            // The oldest others go past the limit.
            try await session.execute(
                """
                DELETE FROM push_subscription WHERE person_id = \(personID) AND id IN (
                    SELECT id FROM push_subscription WHERE person_id = \(personID) AND endpoint <> \(s.endpoint)
                    ORDER BY created_at_ms DESC, position DESC OFFSET \(PushSubscription.maximumPerPerson - 1))
                """)
            return try await session.query(
                PostgresQuery(
                    unsafeSQL:
                        "SELECT \(Self.subscriptionColumns) FROM push_subscription WHERE person_id = $1 AND endpoint = $2",
                    binds: Self.binds(personID, s.endpoint))
            ).first
        }
        guard let row else {
            throw .corruptRow(table: "push_subscription", id: s.id.uuidString, reason: "not kept")
        }
        return try Self.subscription(row)
    }

    @discardableResult
    public func deletePushSubscription(id: UUID) async throws(StoreError) -> Bool {
        try await store.read { session throws(StoreError) in
            try await session.execute(
                "DELETE FROM push_subscription WHERE person_id = \(personID) AND id = \(id.uuidString.lowercased())")
                > 0
        }
    }

    private static func binds(_ personID: Person.ID, _ endpoint: String? = nil) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(personID)
        if let endpoint { binds.append(endpoint) }
        return binds
    }

    private static func subscription(_ row: PostgresRow) throws(StoreError) -> PushSubscription {
        let (idText, endpoint, p256dh, auth, deviceName, created, expires, delivered, failedAt, failure) =
            try row.columns((String, String, String, String, String, Int64, Int64?, Int64?, Int64?, String?).self)
        guard let id = UUID(uuidString: idText) else {
            throw .corruptRow(table: "push_subscription", id: idText, reason: "id is not a UUID")
        }
        return PushSubscription(
            id: id, endpoint: endpoint, p256dh: p256dh, auth: auth, deviceName: deviceName,
            createdAt: Date(millisecondsSince1970: created), expiresAt: expires.map(Date.init(millisecondsSince1970:)),
            lastDeliveredAt: delivered.map(Date.init(millisecondsSince1970:)),
            lastFailureAt: failedAt.map(Date.init(millisecondsSince1970:)), lastFailure: failure)
    }
}
