import Foundation

@testable import MomentumCore

/// Small builders for sync tests: ids, stamps and changes in one line each.
enum SyncFixtures {
    static let t0: Int64 = 1_800_000_000_000

    /// A lower-case UUID that reads as its number (`…000000000007`).
    static func id(_ number: Int) -> String {
        let digits = String(number, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }

    static func stamp(_ offset: Int64, _ counter: Int = 0, node: String = "a") -> HybridTimestamp {
        // The arguments are tests' own constants, always in range.
        (try? HybridTimestamp(physical: t0 + offset, counter: counter, node: node))
            ?? HybridTimestamp(uncheckedPhysical: t0, counter: 0, node: "invalid")
    }

    static func set(
        _ type: SyncEntityType, _ id: String, _ field: String, _ value: SyncValue, at stamp: HybridTimestamp,
        device: String? = nil
    ) throws -> Change {
        try Change(
            entityType: type, entityID: id, operation: .set(field: field, value: value), stamp: stamp,
            device: device ?? "device-\(stamp.node)")
    }

    static func delete(
        _ type: SyncEntityType, _ id: String, at stamp: HybridTimestamp, device: String? = nil
    ) throws -> Change {
        try Change(
            entityType: type, entityID: id, operation: .delete, stamp: stamp, device: device ?? "device-\(stamp.node)")
    }

    static func timer(_ number: Int) -> SyncEntityKey { SyncEntityKey(type: .focusTimer, id: id(number)) }
    static func item(_ number: Int) -> SyncEntityKey { SyncEntityKey(type: .checklistItem, id: id(number)) }
}
