import Foundation
import MomentumCore
import MomentumStoreContract
import MomentumTestSupport
import Testing

@testable import MomentumStore

@Suite("Database: saved sits sync between devices")
struct MeditationPresetSyncTests {
    let directory: TemporaryDirectory
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws { directory = try TemporaryDirectory() }

    func database(_ name: String) throws -> MomentumDatabase {
        try MomentumDatabase.open(
            directory: directory.file(name), device: "terminal@\(name)", makeNodeID: { "n-\(name)" })
    }

    func preset(_ name: String, plan: MeditationPlan, id: String = UUID().uuidString.lowercased()) throws
        -> MeditationPreset
    {
        try MeditationPreset(id: id, name: name, plan: plan, createdAt: now, updatedAt: now)
    }

    /// Pushes what `client` has not pushed yet to `server`, and pulls into `other` what the server
    /// logged after `cursor`; returns the server's head.
    @discardableResult
    func relay(
        from client: MomentumDatabase, to server: MomentumDatabase, into other: MomentumDatabase, after cursor: Int64
    )
        throws -> Int64
    {
        let pending = try client.pendingChanges()
        _ = try server.acceptPush(pending.map(\.change), at: now)
        try client.acknowledgePushed(pending.map(\.seq))
        let page = try server.loggedChanges(after: cursor, limit: 1000, at: now)
        _ = try other.applyPulled(page.changes, cursor: page.last, at: now)
        return page.last
    }

    @Test func aSavedSitMadeEditedAndDeletedOnOneDeviceIsMadeEditedAndDeletedOnAnother() throws {
        let (laptop, server, phone) = (try database("laptop"), try database("server"), try database("phone"))
        try laptop.connectSyncServer("https://sync.example.org", at: now)
        let evening = try preset(
            "Evening",
            plan: MeditationPlan(
                duration: .minutes(20), intervalGongs: .offsets([.minutes(5), .minutes(15)]), ambientID: "rain",
                ambientVolume: 0.35))
        try laptop.saveMeditationPreset(evening)
        var cursor = try relay(from: laptop, to: server, into: phone, after: 0)
        #expect(try server.meditationPresets().map(\.plan) == [evening.plan])
        let arrived = try #require(try phone.meditationPresets().first)
        #expect(arrived.id == evening.id)
        #expect(arrived.name == "Evening")
        #expect(arrived.plan == evening.plan)
        #expect(arrived.createdAt == evening.createdAt)

        var renamed = evening
        renamed.name = "Late evening"
        renamed.plan.isOpenEnded = true
        try laptop.saveMeditationPreset(renamed)
        cursor = try relay(from: laptop, to: server, into: phone, after: cursor)
        #expect(try phone.meditationPresets().map(\.name) == ["Late evening"])
        #expect(try phone.meditationPresets().first?.plan.isOpenEnded == true)

        #expect(try laptop.deleteMeditationPreset(id: evening.id, at: now))
        try relay(from: laptop, to: server, into: phone, after: cursor)
        #expect(try phone.meditationPresets().isEmpty)
        #expect(try server.meditationPresets().isEmpty)
    }

    @Test func theOrderOfSavedSitsMovedOnOneDeviceArrivesOnAnother() throws {
        let (laptop, server, phone) = (try database("laptop"), try database("server"), try database("phone"))
        try laptop.connectSyncServer("https://sync.example.org", at: now)
        var sits: [MeditationPreset] = []
        for (offset, name) in ["Morning", "Zazen", "Evening"].enumerated() {
            var sit = try preset(name, plan: MeditationPlan())
            sit.createdAt = now.addingTimeInterval(Double(offset))
            sit.sortOrder = offset
            try laptop.saveMeditationPreset(sit)
            sits.append(sit)
        }
        var cursor = try relay(from: laptop, to: server, into: phone, after: 0)
        #expect(try phone.meditationPresets().map(\.name) == ["Morning", "Zazen", "Evening"])
        for moved in try MeditationPreset.moving(sits[2].id, to: 0, in: sits, at: now.addingTimeInterval(60)) {
            try laptop.saveMeditationPreset(moved)
        }
        cursor = try relay(from: laptop, to: server, into: phone, after: cursor)
        #expect(try phone.meditationPresets().map(\.name) == ["Evening", "Morning", "Zazen"])
        #expect(try server.meditationPresets().map(\.sortOrder) == [0, 1, 2])
    }

    @Test func twoDevicesNamingASitAlikeKeepBothAndTheArrivingOneTakesAFreeName() throws {
        let (laptop, phone) = (try database("laptop"), try database("phone"))
        let mine = try preset("Evening", plan: MeditationPlan())
        try phone.saveMeditationPreset(mine)
        try laptop.saveMeditationPreset(try preset("EVENING", plan: MeditationPlan(duration: .minutes(30))))
        let page = try laptop.loggedChanges(after: 0, limit: 1000, at: now)
        _ = try phone.applyPulled(page.changes, cursor: page.last, at: now)
        let names = try phone.meditationPresets().map(\.name)
        #expect(names.count == 2)
        #expect(Set(names) == ["Evening", "EVENING (2)"])
    }

    @Test func aPushedPlanOutOfItsBoundsOrWithAnUnknownFieldIsRefused() throws {
        let server = try database("server")
        var clock = try HybridLogicalClock(node: "phone")
        let id = UUID().uuidString.lowercased()
        let good = ChangeMessage(
            try Change(
                entityType: .meditationPreset, entityID: id,
                operation: .set(field: "plan", value: .string(MeditationPlan().syncText)), stamp: clock.send(at: now),
                device: "browser@phone"))
        for text in [#"{"durationMs":0}"#, #"{"durationMinutes":5}"#, "not json"] {
            var bad = good
            bad.value = .string(text)
            #expect(throws: SyncError.self) { try server.acceptPush([bad], at: now) }
        }
        #expect(try server.syncStatus().head == 0)
        #expect(MeditationPlan(syncText: MeditationPlan(duration: .minutes(7)).syncText)?.duration == .minutes(7))
    }
}
