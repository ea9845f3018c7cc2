import Foundation
import MomentumCore
import Testing

@Suite("Reading exchange files: backups, our CSV and Meditation Assistant's")
struct PracticeLogImportTests {
    /// Ids made while reading, counting up so tests can name them.
    final class IDs: @unchecked Sendable {
        private var next = 0
        func make() -> UUID {
            next += 1
            return UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", next)) ?? UUID()
        }
    }

    func read(_ text: String) throws(ImportFileError) -> PracticeLogImport {
        let ids = IDs()
        return try PracticeLogImport(data: Data(text.utf8), device: "here", makeID: ids.make)
    }

    func problems(_ text: String) -> [ImportProblem] {
        do {
            _ = try read(text)
            return []
        } catch {
            guard case .invalidRows(let problems, _) = error else { return [] }
            return problems
        }
    }

    let header = "id,kind,start,end,counted_seconds,energy_kcal,details,device\n"

    @Test func readsOurCSVWithOrWithoutIDsAndDevices() throws {
        let file = try read(
            header
                + "3f1c2b7e-0000-4000-8000-000000000001,workout,2027-01-15T18:00:00.000+01:00,"
                + "2027-01-15T18:30:00.000+01:00,1800,250.5,\"{\"\"program\"\":\"\"Tabata\"\"}\",phone\n"
                + ",Meditation,2027-01-16T07:00:00Z,2027-01-16T07:20:00Z,1200,,,\n")
        #expect(file.format == .csv)
        #expect(file.records.count == 2)
        let workout = file.records[0].record
        #expect(workout.kind == .workout)
        #expect(workout.start == Date(timeIntervalSince1970: 1_800_032_400))
        #expect(workout.energyKilocalories == 250.5)
        #expect(workout.details == ["program": "Tabata"])
        #expect(workout.device == "phone")
        #expect(file.records[0].hasOwnID)
        let sit = file.records[1]
        #expect(!sit.hasOwnID)
        #expect(sit.record.kind == .meditation)
        #expect(sit.record.device == "here")
        #expect(sit.record.id.uuidString == "00000000-0000-0000-0000-000000000001")
        #expect(sit.row == 3)
    }

    @Test func everyBadRowIsNamedWithItsLineAndField() {
        let found = problems(
            header
                + ",yoga,2027-01-01T10:00:00Z,2027-01-01T10:20:00Z,1200,,,\n"
                + ",meditation,2027-02-30T10:00:00Z,2027-03-01T10:20:00Z,1200,,,\n"
                + ",meditation,2027-03-01T10:00:00Z,2027-03-01T09:20:00Z,600,,,\n"
                + ",meditation,2027-03-02T10:00:00Z,2027-03-03T10:20:00Z,87000,,,\n"
                + ",meditation,2027-03-05T10:00:00Z,2027-03-05T10:20:00Z,-5,,,\n"
                + ",meditation,2027-03-05T10:00:00Z,2027-03-05T10:20:00Z,twenty,,,\n"
                + ",meditation,2027-03-05T10:00:00Z,2027-03-05T10:20:00Z,1300,,,\n"
                + ",workout,2027-03-05T10:00:00Z,2027-03-05T10:20:00Z,1200,-3,,\n"
                + ",workout,2027-03-05T10:00:00Z,2027-03-05T10:20:00Z,1200,,[1],\n"
                + "not-an-id,workout,2027-03-05T10:00:00Z,2027-03-05T10:20:00Z,1200,,,\n"
                + ",,2027-03-05T10:00:00Z,,1200,,,\n"
                + ",meditation,2027-03-06T10:00:00Z\n")
        #expect(
            found == [
                ImportProblem(row: 2, field: "kind", reason: .unknownKind("yoga")),
                ImportProblem(row: 3, field: "start", reason: .invalidInstant("2027-02-30T10:00:00Z")),
                ImportProblem(row: 4, field: "end", reason: .endsBeforeItStarts),
                ImportProblem(row: 5, field: "counted_seconds", reason: .longerThanADay),
                ImportProblem(row: 6, field: "counted_seconds", reason: .negativeCountedTime),
                ImportProblem(row: 7, field: "counted_seconds", reason: .invalidNumber("twenty")),
                ImportProblem(row: 8, field: "counted_seconds", reason: .countsMoreThanItLasted),
                ImportProblem(row: 9, field: "energy_kcal", reason: .invalidEnergy),
                ImportProblem(row: 10, field: "details", reason: .invalidDetails),
                ImportProblem(row: 11, field: "id", reason: .invalidID("not-an-id")),
                ImportProblem(row: 12, field: "kind", reason: .missingValue),
                ImportProblem(row: 12, field: "end", reason: .missingValue),
                ImportProblem(row: 13, field: nil, reason: .wrongFieldCount(expected: 8, found: 3)),
            ])
    }

    @Test func readsMeditationAssistantsExport() throws {
        // As its CSVWriter writes it: every field quoted, times in UTC, length as HH:MM.
        let file = try read(
            """
            "ID","Length","Started","Completed","Message"
            "12","00:20","2024-03-01 06:30","2024-03-01 06:50",""
            "13","01:05","2024-03-02 05:00","2024-03-02 06:06","Deep, with a ""quote""
            and a second line"

            """)
        #expect(file.format == .meditationAssistant)
        #expect(file.records.map(\.record.countedSeconds) == [1200, 3900])
        #expect(file.records.map(\.record.kind) == [.meditation, .meditation])
        #expect(file.records[0].record.start == Date(timeIntervalSince1970: 1_709_274_600))
        #expect(file.records[0].record.details == ["source": "Meditation Assistant"])
        #expect(file.records[1].record.details["note"] == "Deep, with a \"quote\"\nand a second line")
        let noneHaveTheirOwnIDs = file.records.allSatisfy { !$0.hasOwnID }
        #expect(noneHaveTheirOwnIDs)
    }

    @Test func badMeditationAssistantRowsAreNamedToo() {
        let found = problems(
            """
            "ID","Length","Started","Completed","Message"
            "1","20 min","2024-03-01 06:30","2024-03-01 06:50",""
            "2","00:20","2024-02-30 06:30","2024-03-01 06:50",""
            "3","00:20","2024-03-01 06:30","2024-03-01 06:00",""
            "4","25:00","2024-03-01 06:30","2024-03-02 07:31",""

            """)
        #expect(
            found == [
                ImportProblem(row: 2, field: "Length", reason: .invalidLength("20 min")),
                ImportProblem(row: 3, field: "Started", reason: .invalidInstant("2024-02-30 06:30")),
                ImportProblem(row: 4, field: "Completed", reason: .endsBeforeItStarts),
                ImportProblem(row: 5, field: "Length", reason: .longerThanADay),
            ])
    }

    @Test func wholeFileProblemsAreTypedBeforeAnyRowIsRead() {
        #expect(throws: ImportFileError.empty) { try read("  \n") }
        #expect(throws: ImportFileError.wrongColumns(found: ["date", "minutes"])) { try read("date,minutes\n1,2\n") }
        #expect(throws: ImportFileError.unrecognized(firstLine: "hello")) { try read("hello\nworld") }
        #expect(throws: ImportFileError.notText) {
            try PracticeLogImport(data: Data([0xFF, 0xFE, 0x00, 0x41]), device: "here", makeID: UUID.init)
        }
        #expect(throws: ImportFileError.malformedCSV(.unterminatedQuote(line: 2))) { try read(header + "\"oops\n") }
        #expect(throws: ImportFileError.notABackup) { try read("{\"hello\": 1}") }
        #expect(throws: ImportFileError.newerBackup(version: 2, supported: 1)) {
            try read("{\"format\": \"momentum-backup\", \"version\": 2, \"everything\": \"different\"}")
        }
        guard
            case .unreadableJSON = capture({ () throws(ImportFileError) in
                try read("{\"format\": \"momentum-backup\", \"version\": 1")
            })
        else {
            Issue.record("a truncated backup should be unreadable JSON")
            return
        }
    }

    private func capture(_ body: () throws(ImportFileError) -> PracticeLogImport) -> ImportFileError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func aBackupWithAnImpossibleSettingNamesIt() {
        let backup = PracticeBackup(settings: MomentumSettings(), log: [])
        let text = String(decoding: backup.encoded(), as: UTF8.self)
            .replacingOccurrences(of: "\"dayStartHour\" : 0", with: "\"dayStartHour\" : 9")
        let error = capture { () throws(ImportFileError) in try read(text) }
        #expect(
            error
                == .invalidSettings(
                    path: "settings.progress.dayStartHour", detail: "A new day can begin between 00:00 and 06:00."))
    }

    @Test func duplicatesAreRecognizedByIDOrByKindAndMinute() throws {
        let existingID = UUID()
        let existing = try PracticeRecord(
            id: existingID, kind: .meditation, start: Date(timeIntervalSince1970: 1_800_000_000),
            end: Date(timeIntervalSince1970: 1_800_001_200), countedSeconds: 1200, device: "a")
        let file = try read(
            header
                + "\(existingID.uuidString),meditation,2027-01-15T08:00:00Z,2027-01-15T08:20:00Z,1200,,,\n"
                + ",meditation,2027-01-15T08:00:30Z,2027-01-15T08:20:00Z,1000,,,\n"
                + ",breathing,2027-01-15T08:00:30Z,2027-01-15T08:20:00Z,1000,,,\n"
                + ",breathing,2027-01-15T08:00:40Z,2027-01-15T08:20:00Z,1000,,,\n"
                + ",breathing,2027-01-15T08:01:00Z,2027-01-15T08:20:00Z,1000,,,\n")
        let plan = file.plan(existing: [existing])
        #expect(plan.duplicates.map(\.row) == [2, 3, 5])
        #expect(plan.new.map(\.row) == [4, 6])
    }
}
