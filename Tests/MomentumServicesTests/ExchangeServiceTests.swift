import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServices

/// On every store (see ``StoreKind/available``): each `services` call is a fresh, empty store.
@Suite("Export and import through the services and a real database")
struct ExchangeServiceTests {
    let directory: TemporaryDirectory
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))
    let catalog = StringCatalog.shared(for: .english)

    init() throws { directory = try TemporaryDirectory() }

    func services(_ kind: StoreKind) async throws -> LogServices {
        let clock = self.clock
        return await LogServices(
            store: try StoreUnderTest(kind), timeZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt,
            device: "laptop", now: { clock.now })
    }

    /// A log with a bit of everything: kinds, energy, details with awkward characters, settings.
    func filled(_ kind: StoreKind) async throws -> LogServices {
        let services = try await services(kind)
        _ = try await services.settings.change(.dayStartHour, to: "3")
        _ = try await services.settings.change(.workoutGoal, to: "30")
        _ = try await services.settings.change(.meditationDuration, to: "25")
        for day in 0..<40 {
            let start = Date(timeIntervalSince1970: 1_796_000_000 + Double(day) * 86_400 + Double(day % 5) * 3_600)
            try await services.practiceLog.addRecord(kind: .meditation, start: start, length: 600 + Double(day) * 7.5)
            if day % 3 == 0 {
                try await services.practiceLog.addRecord(
                    kind: .workout, start: start.addingTimeInterval(36_000), length: 1_200, energyKilocalories: 180.5,
                    details: ["program": "Tabata, \"hard\"", "note": "legs\nand arms"])
            }
            clock.advance(by: 61)
        }
        return services
    }

    @Test(arguments: StoreKind.available, ExchangeService.ExportFormat.allCases)
    func exportImportIntoAnEmptyDatabaseAndExportAgainGivesIdenticalFiles(
        kind: StoreKind, _ format: ExchangeService.ExportFormat
    ) async throws {
        let source = try await filled(kind)
        let first = try await source.exchange.export(format, catalog: catalog)
        #expect(first.count == 54)
        guard format != .ics else {
            // iCalendar is export only; two exports of the same log are identical.
            await #expect(try source.exchange.export(.ics, catalog: catalog).data == first.data)
            return
        }
        let target = try await services(kind)
        let summary = try await target.exchange.importData(first.data, dryRun: false)
        #expect(summary.imported == 54)
        #expect(summary.duplicates == 0)
        let second = try await target.exchange.export(format, catalog: catalog)
        #expect(String(decoding: second.data, as: UTF8.self) == String(decoding: first.data, as: UTF8.self))
        if format == .json {
            await #expect(try target.settings.load() == source.settings.load())
            await #expect(
                try target.progress.report().streak(for: .mindfulness)
                    == source.progress.report().streak(for: .mindfulness))
        }
    }

    @Test(arguments: StoreKind.available)
    func aSecondImportSkipsEverythingAsDuplicates(kind: StoreKind) async throws {
        let source = try await filled(kind)
        let target = try await services(kind)
        for format in [ExchangeService.ExportFormat.json, .csv] {
            let data = try await source.exchange.export(format, catalog: catalog).data
            _ = try await target.exchange.importData(data, dryRun: false)
            let again = try await target.exchange.importData(data, dryRun: false)
            #expect(again.imported == 0)
            #expect(again.duplicates == 54)
        }
        await #expect(try target.practiceLog.records().count == 54)
    }

    @Test(arguments: StoreKind.available)
    func aDryRunReportsAndChangesNothing(kind: StoreKind) async throws {
        let source = try await filled(kind)
        let target = try await services(kind)
        let before = try await target.exchange.export(.json, catalog: catalog).data
        let summary = try await target.exchange.importData(
            try await source.exchange.export(.json, catalog: catalog).data, dryRun: true)
        #expect(
            summary
                == ImportSummary(
                    format: .backup, total: 54, imported: 54, duplicates: 0, restoresSettings: true, dryRun: true))
        await #expect(try target.exchange.export(.json, catalog: catalog).data == before)
    }

    @Test(arguments: StoreKind.available)
    func aFileWithOneBadRowLeavesTheDataExactlyAsItWas(kind: StoreKind) async throws {
        let services = try await filled(kind)
        let before = try await services.exchange.export(.json, catalog: catalog).data
        var csv = String(decoding: try await services.exchange.export(.csv, catalog: catalog).data, as: UTF8.self)
        csv += ",meditation,2027-02-29T10:00:00Z,2027-02-29T10:20:00Z,1200,,,\r\n"
        csv = csv.replacingOccurrences(of: "laptop", with: "phone")
        await #expect(throws: ImportError.self) {
            try await services.exchange.importData(Data(csv.utf8), dryRun: false)
        }
        await #expect(try services.exchange.export(.json, catalog: catalog).data == before)
    }

    @Test(arguments: StoreKind.available)
    func aBackupFromANewerMomentumIsRefusedUntouched(kind: StoreKind) async throws {
        let services = try await filled(kind)
        let before = try await services.exchange.export(.json, catalog: catalog).data
        let newer = String(decoding: before, as: UTF8.self)
            .replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 2")
        await #expect(throws: ImportError.file(.newerBackup(version: 2, supported: 1))) {
            try await services.exchange.importData(Data(newer.utf8), dryRun: false)
        }
        await #expect(try services.exchange.export(.json, catalog: catalog).data == before)
    }

    @Test(arguments: StoreKind.available)
    func aTwoGigabyteFileIsRefusedWithoutReadingIt(kind: StoreKind) async throws {
        let services = try await services(kind)
        let huge = directory.file("huge.csv")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 2 * 1024 * 1024 * 1024)  // sparse: no disk used
        try handle.close()
        await #expect(throws: ImportError.file(.tooLarge(bytes: 2 * 1024 * 1024 * 1024, limit: 64 * 1024 * 1024))) {
            try await services.exchange.importFile(at: huge, dryRun: false)
        }
        await #expect(throws: ImportError.cannotRead(.missing)) {
            try await services.exchange.importFile(at: directory.file("missing.csv"), dryRun: false)
        }
        await #expect(try services.practiceLog.records().isEmpty)
    }
}
