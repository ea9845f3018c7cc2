import Foundation
import MomentumAudio
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

@testable import MomentumServices

@Suite("Library service: listing, editing, suggestions, delete, ambient beds, positions, logging")
struct LibraryServiceTests {
    let bed: LibraryTestBed
    let english = StringCatalog.shared(for: .english)
    let german = Locale(identifier: "de_DE")

    init() async throws {
        bed = try await LibraryTestBed()
    }

    var library: LibraryService { bed.library }

    @Test func theLibraryIsListedByTeacherWithUnknownTeachersLast() async throws {
        for fixture in ["id3v23-latin1.mp3", "id3v24-utf8.mp3", "no-tags.mp3", "vbr-xing.mp3", "tagged.m4a"] {
            try await bed.importFixture(fixture)
        }
        let groups = try await library.groupedItems(locale: german)
        #expect(groups.map(\.teacher) == ["Aiko Tanaka", "Jürgen Weiß", "Mara Lindqvist", nil])
        #expect(groups[2].items.map(\.name) == ["Body Scan", "Walking Practice"])
        #expect(groups[3].items.map(\.name) == ["no-tags"])
    }

    @Test func editsAreShownAndOriginalsKeptAndAnEmptyEditRestoresThem() async throws {
        let item = try await bed.importFixture("id3v23-latin1.mp3")
        let edited = try await library.edit(id: item.id, teacher: .set("Mara L."), name: .set("Evening scan"))
        #expect(edited.teacher == "Mara L." && edited.name == "Evening scan")
        await #expect(try library.item(id: item.id) == edited)
        await #expect(try library.item(id: item.id).originalTeacher == "Mara Lindqvist")
        let restored = try await library.edit(id: item.id, teacher: .set(""), name: .restoreOriginal)
        #expect(restored.teacher == "Mara Lindqvist" && restored.name == "Body Scan")
        await #expect(try library.item(id: item.id) == restored)
    }

    @Test func aTenThousandCharacterTeacherIsRefusedAndChangesNothing() async throws {
        let item = try await bed.importFixture("id3v23-latin1.mp3")
        let error = await #expect(throws: LibraryError.self) {
            try await library.edit(id: item.id, teacher: .set(String(repeating: "x", count: 10_000)), name: .set("ok"))
        }
        #expect(error == .invalidEdit(.tooLong(field: .teacher, characters: 10_000)))
        await #expect(try library.item(id: item.id) == item)
        let message = error.map { ErrorMessages.message(for: $0, catalog: english) }
        #expect(message == "The teacher is 10000 characters long; at most 200 are allowed. Nothing was changed.")
    }

    @Test func suggestionsComeFromTheLibrary() async throws {
        try await bed.importFixture("id3v23-latin1.mp3")
        try await bed.importFixture("id3v24-utf8.mp3")
        await #expect(try library.teacherSuggestions(for: "lind", locale: german) == ["Mara Lindqvist"])
        // ß matches ss, as accents and case are ignored.
        await #expect(try library.teacherSuggestions(for: "weiss", locale: german) == ["Jürgen Weiß"])
        await #expect(try library.teacherSuggestions(for: "Weiß", locale: german) == ["Jürgen Weiß"])
    }

    @Test func idsAreFoundByAUniquePrefixOfAtLeastFourCharacters() async throws {
        let item = try await bed.importFixture("id3v23-latin1.mp3")
        await #expect(try library.item(idPrefix: String(item.shortID.prefix(4))) == item)
        await #expect(try library.item(idPrefix: item.id.uuidString.uppercased()) == item)
        await #expect(throws: LibraryError.idTooShort("000")) { try await library.item(idPrefix: "000") }
        await #expect(throws: LibraryError.notFound("ffff")) { try await library.item(idPrefix: "ffff") }
        try await bed.importFixture("id3v24-utf8.mp3")
        await #expect(throws: LibraryError.ambiguous("0000")) { try await library.item(idPrefix: "0000") }
    }

    @Test func deleteRemovesTheRowAndTheFile() async throws {
        let kept = try await bed.importFixture("id3v23-latin1.mp3")
        let item = try await bed.importFixture("tagged.m4a")
        #expect(FileManager.default.fileExists(atPath: library.fileURL(for: item).path))
        await #expect(try library.delete(id: item.id) == item)
        #expect(!FileManager.default.fileExists(atPath: library.fileURL(for: item).path))
        #expect(try bed.snapshot().rows == [kept])
        #expect(try bed.snapshot().files.keys.sorted() == [kept.fileName])
        await #expect(throws: LibraryError.notFound(item.id.uuidString.lowercased())) {
            try await library.delete(id: item.id)
        }
    }

    @Test func aFileCanBeMarkedAsAnAmbientBedAndUnmarked() async throws {
        let item = try await bed.importFixture("vbr-xing.mp3")
        try await bed.importFixture("tagged.m4a")
        await #expect(try library.ambientBeds(locale: german).isEmpty)
        await #expect(try library.setAmbientBed(id: item.id, true).isAmbientBed)
        await #expect(try library.ambientBeds(locale: german).map(\.id) == [item.id])
        await #expect(try !library.setAmbientBed(id: item.id, false).isAmbientBed)
        await #expect(try library.ambientBeds(locale: german).isEmpty)
    }

    @Test func thePositionIsRememberedAndKeptWithinTheMeditation() async throws {
        let item = try await bed.importFixture("vbr-xing.mp3")
        await #expect(try library.savePosition(id: item.id, .milliseconds(2500)).position == .milliseconds(2500))
        await #expect(try library.item(id: item.id).position == .milliseconds(2500))
        await #expect(try library.savePosition(id: item.id, .seconds(60)).position == item.duration)
        await #expect(throws: LibraryError.negativePosition) {
            try await library.savePosition(id: item.id, .seconds(-1))
        }
    }

    @Test func listeningIsLoggedAsGuidedWhenFinishedOrAfterAMinute() async throws {
        let item = try await bed.importFixture("id3v23-latin1.mp3")
        try await library.savePosition(id: item.id, .seconds(2))
        let end = bed.clock.now.addingTimeInterval(-30)
        await #expect(try library.logListening(itemID: item.id, listened: .seconds(59), finished: false) == nil)
        let record = try await #require(
            try library.logListening(itemID: item.id, listened: .seconds(3), finished: true, endedAt: end))
        #expect(record.kind == .guided)
        #expect(record.countedSeconds == 3)
        #expect(record.end == end)
        #expect(record.device == "test-device")
        await #expect(try bed.services.practiceLog.records().map(\.id) == [record.id])
        // Finishing starts the meditation from the beginning next time.
        await #expect(try library.item(id: item.id).position == .zero)
        let early = try await #require(
            try library.logListening(itemID: item.id, listened: .seconds(90), finished: false))
        #expect(early.details["stoppedEarly"] == "true")
        await #expect(throws: LibraryError.listenedOutOfRange) {
            try await library.logListening(itemID: item.id, listened: .seconds(-5), finished: true)
        }
        await #expect(throws: LibraryError.listenedOutOfRange) {
            try await library.logListening(itemID: item.id, listened: .seconds(25 * 3600), finished: true)
        }
        await #expect(try bed.services.practiceLog.records().count == 2)
    }

    @Test func unknownItemsAreNamedInTheError() async throws {
        let id = UUID(uuidString: "12345678-0000-0000-0000-000000000000") ?? UUID()
        await #expect(throws: LibraryError.notFound("12345678-0000-0000-0000-000000000000")) {
            try await library.edit(id: id, name: .set("x"))
        }
        await #expect(throws: LibraryError.notFound("12345678-0000-0000-0000-000000000000")) {
            try await library.logListening(itemID: id, listened: .seconds(100), finished: true)
        }
    }

    @Test func everyLibraryAndAudioErrorHasAGermanMessage() {
        let german = StringCatalog.shared(for: .german)
        let errors: [any Error] = [
            AudioMetadataErrorSamples.notAudio, LibraryImportError.tooLarge(fileName: "a.mp3", limit: 1024),
            LibraryError.ambiguous("abcd"), LibraryEditError.controlCharacter(field: .name),
        ]
        for error in errors {
            let message = ErrorMessages.message(describing: error, catalog: german)
            #expect(message != nil && message?.contains("error.") == false)
        }
        #expect(
            ErrorMessages.message(describing: AudioMetadataErrorSamples.notAudio, catalog: german)
                == "„x.mp3“ ist keine MP3-, M4A- oder WAV-Audiodatei.")
    }
}

enum AudioMetadataErrorSamples {
    static let notAudio = AudioMetadataError.notAudio(fileName: "x.mp3")
}
