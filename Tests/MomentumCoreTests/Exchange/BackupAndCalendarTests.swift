import Foundation
import MomentumCore
import Testing

@Suite("JSON backups and the iCalendar export")
struct BackupAndCalendarTests {
    func logged(_ seconds: TimeInterval, kind: PracticeKind, counted: Int, details: [String: String] = [:])
        throws -> LoggedRecord
    {
        let start = Date(timeIntervalSince1970: seconds)
        let record = try PracticeRecord(
            id: UUID(), kind: kind, start: start, end: start.addingTimeInterval(Double(counted) + 0.345),
            countedSeconds: counted, energyKilocalories: kind == .workout ? 88.25 : nil, details: details,
            device: "terminal@laptop")
        return LoggedRecord(
            record: record, createdAt: start.addingTimeInterval(2000), updatedAt: start.addingTimeInterval(3000.5))
    }

    @Test func aBackupReadsBackAsTheSameSettingsAndRecords() throws {
        var settings = MomentumSettings()
        settings.language = .german
        settings.progress.dayStartHour = 4
        settings.progress.goals[.workout] = 25
        settings.meditation = MeditationPlan(duration: .minutes(25), intervalGongs: .every(minutes: 5))
        let log = [
            try logged(1_800_000_000.125, kind: .meditation, counted: 1200, details: ["note": "quiet, \"still\""]),
            try logged(1_800_090_000, kind: .workout, counted: 900),
        ]
        let data = PracticeBackup(settings: settings, log: log).encoded()
        let file = try PracticeLogImport(data: data, device: "elsewhere", makeID: UUID.init)
        #expect(file.format == .backup)
        #expect(file.settings == settings)
        #expect(file.records.map(\.record) == log.map(\.record))
        #expect(file.records.map(\.createdAt) == log.map(\.createdAt))
        #expect(file.records.map(\.updatedAt) == log.map(\.updatedAt))
        let again = PracticeBackup(
            settings: try #require(file.settings),
            log: file.records.map {
                LoggedRecord(record: $0.record, createdAt: $0.createdAt!, updatedAt: $0.updatedAt!)
            })
        #expect(again.encoded() == data)
    }

    @Test func aRepeatedIDInABackupIsABadRecord() throws {
        let one = try logged(1_800_000_000, kind: .meditation, counted: 600)
        let data = PracticeBackup(settings: MomentumSettings(), log: [one, one]).encoded()
        #expect(
            throws: ImportFileError.invalidRows(
                [ImportProblem(row: 2, field: "id", reason: .repeatedID(one.record.id.uuidString.lowercased()))],
                inBackup: true)
        ) {
            try PracticeLogImport(data: data, device: "here", makeID: UUID.init)
        }
    }

    @Test func theCalendarHasOneFoldedEscapedEventPerSession() throws {
        let catalog = StringCatalog.shared(for: .english)
        let long = String(repeating: "ä", count: 60)
        let log = [
            try logged(1_800_000_000, kind: .meditation, counted: 1200, details: ["note": "a, b; c\\d\n\(long)"])
        ]
        let text = PracticeLogCalendar.export(log, catalog: catalog)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        let lines = text.components(separatedBy: "\r\n").dropLast()
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("UID:\(log[0].record.id.uuidString.lowercased())@momentum\r\n"))
        #expect(unfolded.contains("DTSTART:20270115T080000Z\r\nDTEND:20270115T082000Z\r\n"))
        #expect(unfolded.contains("SUMMARY:Meditation · 20 min\r\n"))
        #expect(unfolded.contains("DESCRIPTION:Counted: 20 min\\nnote: a\\, b\\; c\\\\d\\n\(long)\r\n"))
        #expect(unfolded.contains("DTSTAMP:20270115T085000Z\r\n"))
    }

    @Test func theCSVExportReadsBackAsTheSameRecords() throws {
        let log = [
            try logged(1_800_000_000.5, kind: .breathing, counted: 300, details: ["preset": "4-7-8, calm"]),
            try logged(1_800_090_000, kind: .workout, counted: 900),
        ].map(\.record)
        let text = PracticeLogCSV.export(log, timeZone: LogBuilder.berlin)
        let file = try PracticeLogImport(data: Data(text.utf8), device: "here", makeID: UUID.init)
        #expect(file.records.map(\.record) == log)
        let allHaveTheirIDs = file.records.allSatisfy { $0.hasOwnID }
        #expect(allHaveTheirIDs)
        #expect(PracticeLogCSV.export(file.records.map(\.record), timeZone: LogBuilder.berlin) == text)
    }

    @Test func randomBytesAndMangledFilesNeverCrashTheReader() throws {
        var generator = SeededGenerator(seed: 2027)
        let seeds = [
            PracticeBackup(settings: MomentumSettings(), log: [try logged(1_800_000_000, kind: .morse, counted: 60)])
                .encoded(),
            Data(
                PracticeLogCSV.export([try logged(1_800_000_000, kind: .focus, counted: 1500).record], timeZone: .gmt)
                    .utf8),
            Data(
                "\"ID\",\"Length\",\"Started\",\"Completed\",\"Message\"\n\"1\",\"00:20\",\"2024-03-01 06:30\",\"2024-03-01 06:50\",\"\"\n"
                    .utf8),
        ]
        for round in 0..<3000 {
            var bytes = [UInt8](seeds[round % seeds.count])
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: index)
                default:
                    let structural = Array("\",\n{}:0-".utf8)
                    bytes.insert(structural[Int.random(in: 0..<structural.count, using: &generator)], at: index)
                }
                if bytes.isEmpty { break }
            }
            // Any answer is fine — a file or a typed error — as long as there is one.
            _ = try? PracticeLogImport(data: Data(bytes), device: "here", makeID: UUID.init)
        }
    }
}
