import Foundation
import GRDB
import MomentumCore
import MomentumTestSupport
import Testing

@testable import MomentumStore

@Suite("Migration v16: names written before issue 46 lose their direction controls and still load")
struct NameRuleMigrationTests {
    static let morningPages = "00000003-0000-4000-8000-000000000001"
    static let clearPapers = "00000003-0000-4000-8000-000000000011"
    static let stamp = "1700700000000-00000-n-00000000000000aa"

    /// Given a database at v15 whose names hold what the rule now refuses — a right-to-left
    /// override in a timer's name (and in its merged field), a byte-order mark before an item's
    /// text (and in its logged change), an isolate making a preset's name another's, a saved sit
    /// named by marks alone, a mark in a person's name and in an exercise; when v16 runs; then
    /// everything reads back without them.
    @Test func v16LeavesDirectionControlsOutOfNames() throws {
        let directory = try TemporaryDirectory()
        let v15 = try #require(SchemaHistoryTests.identifiers.firstIndex { $0.hasPrefix("v15") })
        try SchemaHistoryTests.writeDatabase(in: directory, upTo: v15)
        let queue = try DatabaseQueue(path: directory.file(MomentumDatabase.fileName).path)
        try queue.write { db in
            let pages = "Morning" + "\u{202E}" + " pages"
            try db.execute(sql: "UPDATE focusTimer SET name = ? WHERE id = ?", arguments: [pages, Self.morningPages])
            try db.execute(
                sql: """
                    INSERT INTO syncField (entityType, entityId, field, value, stamp, device)
                    VALUES ('focusTimer', ?, 'name', ?, ?, 'web@phone')
                    """, arguments: [Self.morningPages, "\"\(pages)\"", Self.stamp])
            let papers = "\u{FEFF}Clear papers"
            try db.execute(
                sql: "UPDATE checklistItem SET text = ? WHERE id = ?", arguments: [papers, Self.clearPapers])
            try db.execute(
                sql: """
                    INSERT INTO syncLog (seq, stamp, entityType, entityId, field, message, origin)
                    VALUES (1, ?, 'checklistItem', ?, 'text', ?, 'remote')
                    """,
                arguments: [
                    Self.stamp, Self.clearPapers,
                    #"{"device":"web@phone","field":"text","id":"\#(Self.clearPapers)","op":"set","#
                        + #""stamp":"\#(Self.stamp)","type":"checklistItem","value":"\#(papers)"}"#,
                ])
            try db.execute(
                sql: "UPDATE breathingPreset SET name = ? WHERE id = 'ruhe'", arguments: ["Box\u{2067} four"])
            try db.execute(sql: "UPDATE meditationPreset SET name = ?", arguments: ["\u{202B}\u{202C}"])
            try db.execute(sql: "UPDATE person SET name = ? WHERE id = 2", arguments: ["\u{FEFF}Ben"])
            try db.execute(
                sql: "UPDATE workoutProgram SET exerciseNames = ? WHERE id = 'legs-day'",
                arguments: [#"["Squats\#u{061C}","\#u{200E}"]"#])
        }
        try queue.close()

        let database = try MomentumDatabase.open(directory: directory.url)

        let timers = try database.focusTimers()
        #expect(timers.first { $0.id.uuidString.lowercased() == Self.morningPages }?.name == "Morning pages")
        let items = timers.flatMap(\.items)
        #expect(items.first { $0.id.uuidString.lowercased() == Self.clearPapers }?.text == "Clear papers")
        let key = SyncEntityKey(type: .focusTimer, id: Self.morningPages)
        #expect(try database.lastChange(of: "name", in: key)?.value == .string("Morning pages"))
        let page = try database.loggedChangeTexts(after: 0, limit: 10, at: Date(timeIntervalSince1970: 1_700_800_000))
        let logged = try #require(page.changes.first?.message)
        let message = try JSONDecoder().decode(ChangeMessage.self, from: Data(logged.utf8))
        #expect(try Change(message).operation == .set(field: "text", value: .string("Clear papers")))
        // "Box four" is taken by another preset: the cleaned one ends in its id's first characters.
        #expect(
            try database.breathingPresets().map(\.name).sorted().filter { $0.hasPrefix("Box") } == [
                "Box four", "Box four ruhe",
            ])
        #expect(try database.meditationPresets().map(\.name) == ["Untitled 00000013"])
        #expect(try database.people().map(\.name) == ["Ada", "Ben"])
        #expect(try database.workoutPrograms().first { $0.id == "legs-day" }?.plan.exerciseNames == ["Squats"])
    }

    @Test func cleaningLeavesDirectionControlsOutAndTurnsControlCharactersIntoSpaces() {
        #expect(TextInput.cleaned("\u{FEFF}Tea\u{202E}\tcup") == "Tea cup")
        #expect(TextInput.cleaned("a\u{200F}\nb", lines: .multiple) == "a\u{200F}\nb")
    }
}
