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

    init() throws {
        bed = try LibraryTestBed()
    }

    var library: LibraryService { bed.library }

    @Test func theLibraryIsListedByTeacherWithUnknownTeachersLast() throws {
        for fixture in ["id3v23-latin1.mp3", "id3v24-utf8.mp3", "no-tags.mp3", "vbr-xing.mp3", "tagged.m4a"] {
            try bed.importFixture(fixture)
        }
        let groups = try library.groupedItems(locale: german)
        #expect(groups.map(\.teacher) == ["Aiko Tanaka", "Jürgen Weiß", "Mara Lindqvist", nil])
        #expect(groups[2].items.map(\.name) == ["Body Scan", "Walking Practice"])
        #expect(groups[3].items.map(\.name) == ["no-tags"])
    }

    @Test func editsAreShownAndOriginalsKeptAndAnEmptyEditRestoresThem() throws {
        let item = try bed.importFixture("id3v23-latin1.mp3")
        let edited = try library.edit(id: item.id, teacher: .set("Mara L."), name: .set("Evening scan"))
        #expect(edited.teacher == "Mara L." && edited.name == "Evening scan")
        #expect(try library.item(id: item.id) == edited)
        #expect(try library.item(id: item.id).originalTeacher == "Mara Lindqvist")
        let restored = try library.edit(id: item.id, teacher: .set(""), name: .restoreOriginal)
        #expect(restored.teacher == "Mara Lindqvist" && restored.name == "Body Scan")
        #expect(try library.item(id: item.id) == restored)
    }

    @Test func aTenThousandCharacterTeacherIsRefusedAndChangesNothing() throws {
        let item = try bed.importFixture("id3v23-latin1.mp3")
        let error = #expect(throws: LibraryError.self) {
            try library.edit(id: item.id, teacher: .set(String(repeating: "x", count: 10_000)), name: .set("ok"))
        }
        #expect(error == .invalidEdit(.tooLong(field: .teacher, characters: 10_000)))
        #expect(try library.item(id: item.id) == item)
        let message = error.map { ErrorMessages.message(for: $0, catalog: english) }
        #expect(message == "The teacher is 10000 characters long; at most 200 are allowed. Nothing was changed.")
    }

    @Test func suggestionsComeFromTheLibrary() throws {
        try bed.importFixture("id3v23-latin1.mp3")
        try bed.importFixture("id3v24-utf8.mp3")
        #expect(try library.teacherSuggestions(for: "lind", locale: german) == ["Mara Lindqvist"])
        // ß matches ss, as accents and case are ignored.
        #expect(try library.teacherSuggestions(for: "weiss", locale: german) == ["Jürgen Weiß"])
        #expect(try library.teacherSuggestions(for: "Weiß", locale: german) == ["Jürgen Weiß"])
    }

    @Test func idsAreFoundByAUniquePrefixOfAtLeastFourCharacters() throws {
        let item = try bed.importFixture("id3v23-latin1.mp3")
        #expect(try library.item(idPrefix: String(item.shortID.prefix(4))) == item)
        #expect(try library.item(idPrefix: item.id.uuidString.uppercased()) == item)
        #expect(throws: LibraryError.idTooShort("000")) { try library.item(idPrefix: "000") }
        #expect(throws: LibraryError.notFound("ffff")) { try library.item(idPrefix: "ffff") }
        try bed.importFixture("id3v24-utf8.mp3")
        #expect(throws: LibraryError.ambiguous("0000")) { try library.item(idPrefix: "0000") }
    }

    @Test func deleteRemovesTheRowAndTheFile() throws {
        let kept = try bed.importFixture("id3v23-latin1.mp3")
        let item = try bed.importFixture("tagged.m4a")
        #expect(FileManager.default.fileExists(atPath: library.fileURL(for: item).path))
        #expect(try library.delete(id: item.id) == item)
        #expect(!FileManager.default.fileExists(atPath: library.fileURL(for: item).path))
        #expect(try bed.snapshot().rows == [kept])
        #expect(try bed.snapshot().files.keys.sorted() == [kept.fileName])
        #expect(throws: LibraryError.notFound(item.id.uuidString.lowercased())) { try library.delete(id: item.id) }
    }

    @Test func aFileCanBeMarkedAsAnAmbientBedAndUnmarked() throws {
        let item = try bed.importFixture("vbr-xing.mp3")
        try bed.importFixture("tagged.m4a")
        #expect(try library.ambientBeds(locale: german).isEmpty)
        #expect(try library.setAmbientBed(id: item.id, true).isAmbientBed)
        #expect(try library.ambientBeds(locale: german).map(\.id) == [item.id])
        #expect(try !library.setAmbientBed(id: item.id, false).isAmbientBed)
        #expect(try library.ambientBeds(locale: german).isEmpty)
    }

    @Test func thePositionIsRememberedAndKeptWithinTheMeditation() throws {
        let item = try bed.importFixture("vbr-xing.mp3")
        #expect(try library.savePosition(id: item.id, .milliseconds(2500)).position == .milliseconds(2500))
        #expect(try library.item(id: item.id).position == .milliseconds(2500))
        #expect(try library.savePosition(id: item.id, .seconds(60)).position == item.duration)
        #expect(throws: LibraryError.negativePosition) { try library.savePosition(id: item.id, .seconds(-1)) }
    }

    @Test func listeningIsLoggedAsGuidedWhenFinishedOrAfterAMinute() throws {
        let item = try bed.importFixture("id3v23-latin1.mp3")
        try library.savePosition(id: item.id, .seconds(2))
        let end = bed.clock.now.addingTimeInterval(-30)
        #expect(try library.logListening(itemID: item.id, listened: .seconds(59), finished: false) == nil)
        let record = try #require(
            try library.logListening(itemID: item.id, listened: .seconds(3), finished: true, endedAt: end))
        #expect(record.kind == .guided)
        #expect(record.countedSeconds == 3)
        #expect(record.end == end)
        #expect(record.device == "test-device")
        #expect(try bed.services.practiceLog.records().map(\.id) == [record.id])
        // Finishing starts the meditation from the beginning next time.
        #expect(try library.item(id: item.id).position == .zero)
        let early = try #require(try library.logListening(itemID: item.id, listened: .seconds(90), finished: false))
        #expect(early.details["stoppedEarly"] == "true")
        #expect(throws: LibraryError.listenedOutOfRange) {
            try library.logListening(itemID: item.id, listened: .seconds(-5), finished: true)
        }
        #expect(throws: LibraryError.listenedOutOfRange) {
            try library.logListening(itemID: item.id, listened: .seconds(25 * 3600), finished: true)
        }
        #expect(try bed.services.practiceLog.records().count == 2)
    }

    @Test func unknownItemsAreNamedInTheError() throws {
        let id = UUID(uuidString: "12345678-0000-0000-0000-000000000000") ?? UUID()
        #expect(throws: LibraryError.notFound("12345678-0000-0000-0000-000000000000")) {
            try library.edit(id: id, name: .set("x"))
        }
        #expect(throws: LibraryError.notFound("12345678-0000-0000-0000-000000000000")) {
            try library.logListening(itemID: id, listened: .seconds(100), finished: true)
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
