import Crypto
import Foundation
import MomentumComposition
import MomentumCore
import MomentumStore
import MomentumStoreTestSupport
import MomentumTestSupport
import Synchronization
import Testing
import ZIPFoundation

@testable import MomentumServices

/// A backup made of one of every entity, restored into empty and non-empty data directories,
/// and damaged in every way the issue names — through the services, a real database and real
/// ZIP files.
@Suite("Backup and restore of everything a person keeps")
struct BackupServiceTests {
    let directory: TemporaryDirectory
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))

    init() throws { directory = try TemporaryDirectory() }

    func services(_ name: String) async throws -> MomentumServices {
        let clock = self.clock
        return try await MomentumServices.open(
            dataDirectory: directory.file(name), device: "laptop", timeZone: TimeZone(identifier: "UTC") ?? .gmt,
            now: { clock.now }, makeID: { UUID() })
    }

    /// A data directory with at least one of every entity a backup holds.
    func everything(_ name: String) async throws -> MomentumServices {
        let services = try await services(name)
        _ = try await services.settings.change(.meditationDuration, to: "25")
        _ = try await services.settings.change(.dayStartHour, to: "3")
        var settings = try await services.settings.load()
        settings.reminders = try ReminderSettings(
            kindsOff: [.streak], preferredTime: try TimeOfDay(hour: 7),
            dailyReminders: [
                DailyReminder(
                    id: "morning", time: try TimeOfDay(hour: 7, minute: 30), weekdays: [.monday, .wednesday],
                    category: .mindfulness)
            ])
        try await services.settings.save(settings)
        try await services.practiceLog.addRecord(
            kind: .workout, start: clock.now.addingTimeInterval(-86_400), length: 1_200, energyKilocalories: 180.5,
            details: ["note": "legs\nand arms"])
        _ = try await services.breathing.addPreset(
            name: "Evening calm",
            pattern: try BreathingPattern(inhale: 4, holdAfterInhale: 2, exhale: 6, holdAfterExhale: 0),
            rounds: 8)
        _ = try await services.meditationPresets.addPreset(
            name: "Evening sit",
            plan: MeditationPlan(
                duration: .minutes(20), intervalGongs: .offsets([.minutes(5), .minutes(15)]), reflection: .minutes(2),
                ambientID: "rain", ambientVolume: 0.3))
        _ = try await services.workouts.addProgram(
            name: "Morning HIIT", plan: WorkoutPlan(work: .seconds(30), rest: .seconds(15), rounds: 6))
        _ = try await services.focusTimers.addTimer(
            name: "Tea", duration: .seconds(180), items: ["cup", "kettle"], notes: "green, 80 °C")
        _ = try await services.focusTimers.setItem("cup", ofTimer: "Tea", done: true)
        _ = try await services.focusTimers.start(named: "Tea")
        clock.advance(by: 30)
        _ = try await services.focusTimers.pause(named: "Tea")
        try await services.morse.saveCourseSettings(try MorseCourseSettings(characterWPM: 22, effectiveWPM: 12))
        try await services.morse.saveCallSign(try CallSign("DL1ABC"))
        var session = try await services.morse.startSession(.receive)
        var generator = SeededRandomNumberGenerator(seed: 7)
        try session.startTraining(at: clock.now)
        for _ in 0..<20 {
            clock.advance(by: 3)  // a minute of training: logged (README, "What gets logged")
            let item = try session.nextItem(at: clock.now, using: &generator)
            try session.record(
                MorseAttempt(item: item, answer: item.text, responseTime: .milliseconds(800)), at: clock.now)
        }
        _ = try await services.morse.finish(&session)
        for file in ["id3v24-utf8.mp3", "tagged.m4a"] {
            _ = try await services.library.importFile(at: SharedAudioFixtures.url(file))
        }
        let first = try await #require(try services.library.items().first)
        _ = try await services.library.edit(id: first.id, teacher: .set("Jürgen"), name: .set("Ankommen"))
        _ = try await services.library.savePosition(id: first.id, .seconds(2))
        let second = try await #require(try services.library.items().last)
        _ = try await services.library.setAmbientBed(id: second.id, true)
        _ = try await services.trackers.add(name: "Alcohol-free", askAt: try TimeOfDay(hour: 21), about: .today)
        _ = try await services.trackers.add(name: "No phone in bed", askAt: try TimeOfDay(hour: 8), about: .yesterday)
        try await services.trackers.answer("Alcohol-free", true)
        try await services.trackers.answer("alcohol-free", false, day: try Day(parsing: "2026-01-02"))
        try await services.trackers.answer("No phone in bed", true)
        clock.advance(by: 60)
        return services
    }

    /// Everything each listing shows, as one comparable value.
    struct Listings: Equatable {
        var presets: [BreathingPreset]
        var sits: [MeditationPreset]
        var programs: [WorkoutProgram]
        var timers: [FocusTimer]
        var morse: MorseCourseProgress
        var morseSettings: MorseCourseSettings
        var callSign: CallSign?
        var morseSessions: [MorseSessionSummary]
        var library: [LibraryItem]
        var settings: MomentumSettings
        var log: [LoggedRecord]
        var trackers: TrackersView
    }

    func listings(_ services: MomentumServices) async throws -> Listings {
        await Listings(
            presets: try services.breathing.presets(), sits: try services.meditationPresets.presets(),
            programs: try services.workouts.programs(),
            timers: try services.focusTimers.timers(), morse: try services.morse.progress(),
            morseSettings: try services.morse.courseSettings(), callSign: try services.morse.callSign(),
            morseSessions: try services.morse.sessions(), library: try services.library.items(),
            settings: try await services.settings.load(), log: try services.store.loggedRecords(),
            trackers: try services.trackers.list(language: .english))
    }

    func libraryFiles(_ services: MomentumServices) async throws -> [String: Data] {
        var files: [String: Data] = [:]
        for item in try await services.library.items() {
            files[item.fileName] = try Data(contentsOf: services.library.fileURL(for: item))
        }
        return files
    }

    // MARK: - Restore is identical

    @Test func anArchiveRestoresEverythingIntoAnEmptyDirectoryIdentically() async throws {
        let source = try await everything("source")
        let archive = directory.file("backup.zip")
        let written = try await source.backup.writeArchive(to: archive)
        #expect(written.includesAudio)
        for kind in BackupKind.allCases { #expect(written.counts[kind.rawValue, default: 0] >= 1, "\(kind)") }

        let target = try await services("target")
        let summary = try await target.backup.restore(from: archive, dryRun: false)
        #expect(summary.kept.isEmpty)
        #expect(summary.added == written.counts)
        await #expect(try listings(target) == listings(source))
        await #expect(try libraryFiles(target) == libraryFiles(source))
        await #expect(try target.backup.document().encoded() == source.backup.document().encoded())

        // A second restore finds everything already there.
        let again = try await target.backup.restore(from: archive, dryRun: false)
        #expect(again.added.isEmpty)
        #expect(again.kept == written.counts)
        await #expect(try listings(target) == listings(source))
    }

    @Test func theJSONDocumentRestoresEverythingButAudioItDoesNotHave() async throws {
        let source = try await everything("source")
        let json = directory.file("backup.json")
        let written = try await source.backup.writeDocument(to: json)
        #expect(!written.includesAudio)
        let target = try await services("target")
        let summary = try await target.backup.restore(from: json, dryRun: false)
        #expect(summary.skippedWithoutAudio == 2)
        await #expect(try target.library.items().isEmpty)
        await #expect(try target.breathing.presets() == source.breathing.presets())
        await #expect(try target.morse.progress() == source.morse.progress())
        // The archive then brings the library, and keeps the rest.
        let archive = directory.file("backup.zip")
        try await source.backup.writeArchive(to: archive)
        let second = try await target.backup.restore(from: archive, dryRun: false)
        #expect(second.added == [BackupKind.library.rawValue: 2])
        await #expect(try listings(target) == listings(source))
    }

    @Test func restoringIntoADirectoryWithDataAddsWhatIsMissingAndKeepsWhatIsThere() async throws {
        let source = try await everything("source")
        let archive = directory.file("backup.zip")
        try await source.backup.writeArchive(to: archive)
        let target = try await services("target")
        // Another preset with the same name, and the same audio under another id.
        _ = try await target.breathing.addPreset(name: "evening CALM")
        _ = try await target.library.importFile(at: SharedAudioFixtures.url("tagged.m4a"))
        _ = try await target.settings.change(.meditationDuration, to: "40")

        let dry = try await target.backup.restore(from: archive, dryRun: true)
        #expect(dry.dryRun)
        await #expect(try target.breathing.presets().filter { !$0.isBuiltIn }.count == 1)

        let summary = try await target.backup.restore(from: archive, dryRun: false)
        #expect(summary.renamed == ["Evening calm": "Evening calm (2)"])
        #expect(summary.kept[BackupKind.library.rawValue] == 1)
        #expect(summary.added[BackupKind.library.rawValue] == 1)
        await #expect(
            try Set(target.breathing.presets().filter { !$0.isBuiltIn }.map(\.name))
                == ["evening CALM", "Evening calm (2)"])
        await #expect(try target.settings.load().meditation.duration == .seconds(40 * 60))
        await #expect(try target.library.items().count == 2)
        await #expect(try target.focusTimers.timers() == source.focusTimers.timers())
    }

    @Test func aSavedSitWhoseNameIsTakenHereIsRestoredUnderAFreeNameWithItsWholePlan() async throws {
        let source = try await everything("source")
        let archive = directory.file("backup.zip")
        try await source.backup.writeArchive(to: archive)
        let target = try await services("target")
        let mine = try await target.meditationPresets.addPreset(name: "EVENING SIT", plan: MeditationPlan())
        let summary = try await target.backup.restore(from: archive, dryRun: false)
        #expect(summary.renamed == ["Evening sit": "Evening sit (2)"])
        let restored = try await target.meditationPresets.preset(named: "Evening sit (2)")
        await #expect(try restored.plan == source.meditationPresets.preset(named: "Evening sit").plan)
        await #expect(try Set(target.meditationPresets.presets().map(\.id)) == [mine.id, restored.id])
    }

    @Test func aVersionOneBackupIsNotThisServicesAndStillImportsThroughTheLogImport() async throws {
        let source = try await everything("source")
        let v1 = directory.file("v1.json")
        try PracticeBackup(settings: try await source.settings.load(), log: try source.sqlite.loggedRecords()).encoded()
            .write(to: v1)
        #expect(!BackupService.recognizes(v1))
        let target = try await services("target")
        let summary = try await target.exchange.importFile(at: v1, dryRun: false)
        #expect(summary.imported == 2)
        await #expect(try target.settings.load() == source.settings.load())
        #expect(try target.sqlite.loggedRecords() == source.sqlite.loggedRecords())
    }

    // MARK: - All or nothing

    /// Every file of a data directory and its bytes' SHA-256 (the database, its WAL, the library).
    func snapshot(_ name: String) throws -> [String: String] {
        let root = directory.file(name)
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            let path = String(url.path.dropFirst(root.path.count))
            // The shared-memory index of the WAL is SQLite's scratch space, rebuilt by every reader.
            guard !path.hasSuffix("-shm") else { continue }
            files[path] =
                isDirectory.boolValue
                ? "folder" : SHA256.hash(data: try Data(contentsOf: url)).map { String(format: "%02x", $0) }.joined()
        }
        return files
    }

    /// Restores `file` into a directory that has data of its own and checks it is refused with
    /// `expected` and leaves every file as it was.
    func expectRefused(_ file: URL, _ expected: BackupError, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        try await expectRefused(file, matching: { $0 == expected }, sourceLocation: sourceLocation)
    }

    func expectRefused(
        _ file: URL, matching: @escaping (BackupError) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let target = try await services("target-\(UUID().uuidString.prefix(8))")
        _ = try await target.breathing.addPreset(name: "Mine")
        _ = try await target.library.importFile(at: SharedAudioFixtures.url("id3v23-latin1.mp3"))
        let name = try target.sqlite.path.split(separator: "/").dropLast().last.map(String.init) ?? ""
        let before = try snapshot(name)
        await #expect(sourceLocation: sourceLocation) {
            try await target.backup.restore(from: file, dryRun: false)
        } throws: { error in
            guard case BackupFailure.backup(let backup) = error else { return false }
            return matching(backup)
        }
        #expect(try snapshot(name) == before, sourceLocation: sourceLocation)
    }

    func archiveData(_ source: MomentumServices) async throws -> Data {
        let archive = directory.file("good-\(UUID().uuidString.prefix(8)).zip")
        try await source.backup.writeArchive(to: archive)
        return try Data(contentsOf: archive)
    }

    func write(_ data: Data, _ name: String) throws -> URL {
        let url = directory.file(name)
        try data.write(to: url)
        return url
    }

    @Test func aTruncatedArchiveIsRefusedAndChangesNothing() async throws {
        let data = try await archiveData(try await everything("source"))
        for cut in [data.count / 2, data.count - 10, 30] {
            let file = try write(data.prefix(cut), "truncated-\(cut).zip")
            let target = try await services("t-\(cut)")
            let before = try snapshot("t-\(cut)")
            await #expect(throws: BackupFailure.self) { try await target.backup.restore(from: file, dryRun: false) }
            #expect(try snapshot("t-\(cut)") == before)
        }
        let half = try write(data.prefix(data.count / 2), "half.zip")
        try await expectRefused(half) { if case .damagedArchive = $0 { true } else { false } }
    }

    @Test func anArchiveWithOneAudioByteChangedIsRefusedAndChangesNothing() async throws {
        let source = try await everything("source")
        var data = try await archiveData(source)
        let audio = try await #require(try libraryFiles(source).values.first)
        let range = try #require(data.range(of: audio))
        let at = range.lowerBound + audio.count / 2
        data[at] ^= 0x01
        let file = try write(data, "changed.zip")
        let files = try await libraryFiles(source)
        let item = try #require(try await source.library.items().first { files[$0.fileName] == audio })
        try await expectRefused(file, .fileMismatch(path: "library/" + item.fileName))
    }

    @Test func pathsOutsideTheLibraryAreRefused() async throws {
        let source = try await everything("source")
        let document = try await source.backup.document().encoded()
        for path in [
            "../evil.mp3", "library/../../evil.mp3", "/etc/evil", "library/evil.mp3", "library\\x.mp3",
            "library/", "other.txt",
        ] {
            let url = directory.file("slip-\(UUID().uuidString.prefix(8)).zip")
            let archive = try Archive(url: url, accessMode: .create)
            try archive.addEntry(
                with: BackupArchiveLayout.documentPath, type: .file, uncompressedSize: Int64(document.count)
            ) { position, size in document.subdata(in: Int(position)..<Int(position) + size) }
            let evil = Data("evil".utf8)
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(evil.count), compressionMethod: .none
            ) { (_: Int64, _: Int) in evil }
            try await expectRefused(url, .unexpectedEntry(path: path))
        }
        #expect(
            !FileManager.default.fileExists(
                atPath: directory.url.deletingLastPathComponent().appendingPathComponent("evil.mp3").path))
    }

    @Test func compressedEntriesAndSizesBeyondTheArchiveAreRefusedBeforeUnpacking() async throws {
        let url = directory.file("bomb.zip")
        let archive = try Archive(url: url, accessMode: .create)
        let zeros = Data(count: 10_000_000)
        try archive.addEntry(
            with: BackupArchiveLayout.documentPath, type: .file, uncompressedSize: Int64(zeros.count),
            compressionMethod: .deflate
        ) { position, size in zeros.subdata(in: Int(position)..<Int(position) + size) }
        try await expectRefused(url, .compressedEntry(path: BackupArchiveLayout.documentPath))
    }

    @Test func aForeignZIPAndABackupFromANewerMomentumAreRefused() async throws {
        let source = try await everything("source")
        let foreign = directory.file("foreign.zip")
        let archive = try Archive(url: foreign, accessMode: .create)
        let text = Data("hello".utf8)
        try archive.addEntry(
            with: "notes.txt", type: .file, uncompressedSize: 5, compressionMethod: .none
        ) { (_: Int64, _: Int) in text }
        try await expectRefused(foreign, .unexpectedEntry(path: "notes.txt"))

        let newer = await String(decoding: try source.backup.document().encoded(), as: UTF8.self)
            .replacingOccurrences(of: "\"version\" : 2", with: "\"version\" : 3")
        try await expectRefused(try write(Data(newer.utf8), "newer.json"), .newerVersion(version: 3, supported: 2))
        #expect(BackupService.recognizes(directory.file("newer.json")))

        let unknown = await String(decoding: try source.backup.document().encoded(), as: UTF8.self)
            .replacingOccurrences(of: "\"rounds\" : 8,", with: "\"rounds\" : 8, \"colour\" : \"red\",")
        try await expectRefused(
            try write(Data(unknown.utf8), "unknown.json"),
            .unknownColumn(table: "breathingPresets", row: 1, column: "colour"))

        let bad = await String(decoding: try source.backup.document().encoded(), as: UTF8.self)
            .replacingOccurrences(of: "\"rounds\" : 8,", with: "\"rounds\" : 800,")
        let badFile = try write(Data(bad.utf8), "bad.json")
        let target = try await services("bad")
        await #expect {
            try await target.backup.restore(from: badFile, dryRun: false)
        } throws: { error in
            guard case BackupFailure.backup(.invalidRow(let table, let row, _)) = error else { return false }
            return table == "breathingPresets" && row == 1
        }
    }

    /// 1,200 records (more than a batch of 1,000): each restored row is one change in the sync log (a put of all its fields,
    /// not one per field); observers hear only the restore's last change (more than a batch was
    /// logged), the page after it pulls every row, and the write-ahead log is emptied after.
    @Test func aLargeRestoreLogsEachRowOnceAndTellsObserversOnlyItsLastChange() async throws {
        let source = try await services("many")
        try await source.practiceLog.addRecord(
            kind: .meditation, start: clock.now.addingTimeInterval(-3600), length: 600)
        var document = try await source.backup.document()
        let row = try #require(document.tables[BackupKind.practiceLog.rawValue]?.first)
        guard case .integer(let startMs) = row["startMs"], case .integer(let endMs) = row["endMs"] else {
            Issue.record("a record row without its instants: \(row)")
            return
        }
        document.tables[BackupKind.practiceLog.rawValue] = (0..<1200).map { index in
            var copy = row
            copy["id"] = .text(UUID().uuidString.lowercased())
            copy["startMs"] = .integer(startMs - Int64(index) * 3_600_000)
            copy["endMs"] = .integer(endMs - Int64(index) * 3_600_000)
            return copy
        }
        let json = try write(document.encoded(), "many.json")
        let target = try await services("target")
        let heard = Mutex<[Int64]>([])
        await target.sync.observeChanges { changes in heard.withLock { $0 += changes.map(\.seq) } }
        let summary = try await target.backup.restore(from: json, dryRun: false)
        #expect(summary.added[BackupKind.practiceLog.rawValue] == 1200)
        let head = try await target.sync.head()
        #expect(head == 1200)
        #expect(heard.withLock { $0 } == [head])
        var pulled: [LoggedChange] = []
        while pulled.count < 1200 {
            let page = try await JSONDecoder().decode(
                SyncPullAnswer.self, from: try target.sync.pullPageJSON(after: pulled.last?.seq ?? 0, limit: 500))
            guard !page.changes.isEmpty else { break }
            pulled += page.changes
        }
        #expect(pulled.count == 1200)
        #expect(pulled.allSatisfy { $0.change.type == "practiceRecord" && $0.change.op == "put" })
        let wal = directory.file("target").appendingPathComponent(MomentumDatabase.fileName + "-wal")
        let walSize = (try? FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? NSNumber)?.intValue ?? 0
        #expect(walSize == 0)
    }
}

extension BackupServiceTests {
    @Test func aDocumentWithAFieldOfItsOwnIsRefused() async throws {
        let source = try await everything("source")
        let extra = await String(decoding: try source.backup.document().encoded(), as: UTF8.self)
            .replacingOccurrences(of: "\"format\" :", with: "\"comment\" : \"mine\", \"format\" :")
        try await expectRefused(
            try write(Data(extra.utf8), "extra.json"), .unreadableDocument(detail: "unknown field “comment”"))
    }
}

extension BackupServiceTests {
    @Test func exportingOverAnEarlierBackupReplacesItWhole() async throws {
        let source = try await everything("source")
        let archive = directory.file("backup.zip")
        try await source.backup.writeArchive(to: archive)
        _ = try await source.breathing.addPreset(name: "Later")
        try await source.backup.writeArchive(to: archive)
        let target = try await services("target")
        let summary = try await target.backup.restore(from: archive, dryRun: false)
        #expect(summary.added[BackupKind.breathingPresets.rawValue] == 2)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            .filter { $0.hasSuffix(".partial") }
        #expect(leftovers.isEmpty)
    }
}

extension BackupServiceTests {
    /// A large truncated archive is refused from its last bytes, without a scan of the whole
    /// file, and a look-alike end record inside the audio does not fool the check.
    @Test func aLargeTruncatedArchiveIsRefusedFromItsEnd() async throws {
        let source = try await services("source")
        var generator = SeededRandomNumberGenerator(seed: 22)
        var audio = Data((0..<4_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        // A ZIP end-record signature in the middle of the sound.
        audio.replaceSubrange(2_000_000..<2_000_004, with: [0x50, 0x4B, 0x05, 0x06])
        let wav = directory.file("noise.wav")
        try (Self.wavHeader(dataBytes: audio.count) + audio).write(to: wav)
        _ = try await source.library.importFile(at: wav)
        let data = try await archiveData(source)
        #expect(try BackupSource.endsWithEndRecord(try write(data, "whole.zip"), size: Int64(data.count)))
        let truncated = try write(data.prefix(data.count - 100_000), "large-truncated.zip")
        try await expectRefused(truncated, .damagedArchive(detail: "no end record"))
    }

    static func wavHeader(dataBytes: Int) -> Data {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        var header: [UInt8] = Array("RIFF".utf8) + le32(36 + dataBytes) + Array("WAVEfmt ".utf8)
        header += le32(16) + le16(1) + le16(1) + le32(44_100) + le32(88_200) + le16(2) + le16(16)
        header += Array("data".utf8) + le32(dataBytes)
        return Data(header)
    }
}
