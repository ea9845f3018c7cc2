import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract
import MomentumTestSupport
import Testing

@testable import MomentumStore

@Suite("Migration v11: values stored before the input rules still load")
struct InputRulesMigrationTests {
    /// Rows as an earlier Momentum could write them (edited here by SQL, as the rules now refuse
    /// them through the API), then the migration run again as on the first start after upgrading.
    @Test func energyAboveTheMostAndControlCharactersInNamesAreBroughtWithinTheRules() throws {
        let directory = try TemporaryDirectory()
        let database = try MomentumDatabase.open(directory: directory.url)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let record = try PracticeRecord(
            id: UUID(), kind: .workout, start: start, end: start.addingTimeInterval(3600), countedSeconds: 3600,
            energyKilocalories: 500, device: "test")
        try database.savePracticeRecord(record, at: start)
        let pattern = try BreathingPattern(inhale: 4, holdAfterInhale: 0, exhale: 4, holdAfterExhale: 0)
        try database.saveBreathingPreset(
            try BreathingPreset(id: "a", name: "Evening calm", pattern: pattern, rounds: 4), at: start)
        try database.saveBreathingPreset(
            try BreathingPreset(id: "bbbbbbbb", name: "Evening x", pattern: pattern, rounds: 4), at: start)
        try database.saveBreathingPreset(
            try BreathingPreset(id: "cccccccc", name: "Bells", pattern: pattern, rounds: 4), at: start)
        try database.writer.write { db in
            try db.execute(sql: "UPDATE practiceRecord SET energyKilocalories = 25000")
            try db.execute(
                sql: "UPDATE breathingPreset SET name = 'Evening' || char(9) || 'calm' WHERE id = 'bbbbbbbb'")
            try db.execute(sql: "UPDATE breathingPreset SET name = char(7) || char(7) WHERE id = 'cccccccc'")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v11:%'")
        }
        #expect(throws: StoreError.self) { try database.practiceRecords() }

        let upgraded = try MomentumDatabase.open(directory: directory.url)
        #expect(try upgraded.practiceRecords().map(\.energyKilocalories) == [PracticeRecord.maximumEnergyKilocalories])
        let names = try upgraded.breathingPresets().filter { ["a", "bbbbbbbb", "cccccccc"].contains($0.id) }.map(\.name)
            .sorted()
        // "Evening\tcalm" becomes "Evening calm", which is taken: it keeps the first characters of its id.
        // A name of nothing but bells would be blank: it is named by its id.
        #expect(names == ["Evening calm", "Evening calm bbbb", "Untitled cccc"])
    }

    @Test func cleaningKeepsLineBreaksInNotesOnly() {
        #expect(TextInput.cleaned("a\tb\u{7}c") == "a b c")
        #expect(TextInput.cleaned("one\ntwo\u{0}", lines: .multiple) == "one\ntwo ")
        #expect(TextInput.cleaned("plain") == "plain")
    }
}
