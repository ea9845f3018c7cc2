import Foundation
import MomentumCore
import Testing

@Suite("Editing a library item: originals kept, shown = edit if present, texts checked")
struct LibraryEditTests {
    let original = LibraryTestItems.item(1, teacher: "Mara Lindqvist", name: "Body Scan")

    @Test func theShownValueIsTheEditIfPresentElseTheOriginal() throws {
        let edited = try original.editing(teacher: .set("Mara L."), name: .set("  Evening Body Scan "))
        #expect(edited.teacher == "Mara L.")
        #expect(edited.name == "Evening Body Scan")
        #expect(edited.originalTeacher == "Mara Lindqvist")
        #expect(edited.originalName == "Body Scan")
        let nameKept = try edited.editing(teacher: .restoreOriginal)
        #expect(nameKept.teacher == "Mara Lindqvist")
        #expect(nameKept.name == "Evening Body Scan")
    }

    @Test(arguments: ["", "   ", "\n"])
    func aBlankEditRestoresTheOriginal(_ blank: String) throws {
        let edited = try original.editing(teacher: .set("Someone"), name: .set("Other"))
        let restored = try edited.editing(teacher: .set(blank), name: .set(blank))
        #expect(restored.editedTeacher == nil)
        #expect(restored.editedName == nil)
        #expect(restored.name == "Body Scan")
    }

    @Test func anEditEqualToTheOriginalIsNoEdit() throws {
        let edited = try original.editing(teacher: .set("Mara Lindqvist"))
        #expect(edited.editedTeacher == nil)
    }

    @Test func aMissingArtistShowsAsTheLocalizedUnknownTeacher() throws {
        let unknown = LibraryTestItems.item(2, teacher: nil, name: "x")
        #expect(unknown.teacher == nil)
        #expect(unknown.shownTeacher(.shared(for: .english)) == "Unknown teacher")
        #expect(unknown.shownTeacher(.shared(for: .german)) == "Unbekannte Lehrperson")
        #expect(try unknown.editing(teacher: .set("Ajahn")).shownTeacher(.shared(for: .english)) == "Ajahn")
    }

    struct BadText: CustomStringConvertible, Sendable {
        var text: String
        var error: LibraryEditError
        var description: String { "\(text.prefix(20))… (\(text.count) characters)" }
    }

    static let badTexts: [BadText] = [
        BadText(text: String(repeating: "x", count: 10_000), error: .tooLong(field: .teacher, characters: 10_000)),
        BadText(text: String(repeating: "ä", count: 201), error: .tooLong(field: .teacher, characters: 201)),
        BadText(text: "Mara\nLindqvist", error: .controlCharacter(field: .teacher)),
        BadText(text: "Tab\there", error: .controlCharacter(field: .teacher)),
        BadText(text: "Bell\u{7}", error: .controlCharacter(field: .teacher)),
        BadText(text: "Escape\u{1B}[2J", error: .controlCharacter(field: .teacher)),
        BadText(text: "Mara\u{202E}tsiuqdniL", error: .bidirectionalControl(field: .teacher)),
        BadText(text: "\u{FEFF}Mara", error: .bidirectionalControl(field: .teacher)),
    ]

    @Test(arguments: badTexts)
    func badTextIsAClearErrorAndChangesNothing(_ bad: BadText) {
        #expect(throws: bad.error) { try original.editing(teacher: .set(bad.text), name: .set("New name")) }
    }

    @Test func theNameFieldIsNamedInItsError() {
        #expect(throws: LibraryEditError.tooLong(field: .name, characters: 300)) {
            try original.editing(name: .set(String(repeating: "n", count: 300)))
        }
    }

    @Test func twoHundredCharactersAfterTrimmingAreAllowed() throws {
        let longest = String(repeating: "é", count: 200)
        #expect(try original.editing(name: .set("  " + longest + "  ")).name == longest)
        #expect(try LibraryText.validated("😀 Metta 慈悲", field: .name) == "😀 Metta 慈悲")
    }
}

@Suite("An imported file's own name: a default title, never a path")
struct LibraryFileNameTests {
    @Test(arguments: [
        ("../../etc/passwd.mp3", "passwd.mp3", "passwd"),
        ("Body Scan.mp3", "Body Scan.mp3", "Body Scan"),
        ("C:\\Users\\me\\Sit.final.m4a", "Sit.final.m4a", "Sit.final"),
        ("bad\u{0}na\u{1B}me\n.wav", "badname.wav", "badname"),
        ("..", "audio", "audio"),
        ("/", "audio", "audio"),
        ("", "audio", "audio"),
        (".mp3", ".mp3", ".mp3"),
        ("no-extension", "no-extension", "no-extension"),
    ])
    func namesAreCleaned(_ given: String, _ sanitized: String, _ title: String) {
        #expect(LibraryFileName.sanitized(given) == sanitized)
        #expect(LibraryFileName.defaultTitle(for: given) == title)
        #expect(!LibraryFileName.sanitized(given).contains("/"))
    }

    @Test func longNamesAreCut() {
        let name = String(repeating: "a", count: 5000) + ".mp3"
        #expect(LibraryFileName.sanitized(name).count == LibraryFileName.maximumCharacters)
    }
}

@Suite("Logging a guided meditation: finishing, or stopping after a minute")
struct GuidedListeningTests {
    let item = LibraryTestItems.item(1, teacher: "Mara", name: "Body Scan")
    let end = Date(timeIntervalSince1970: 1_900_000_000)
    let id = UUID(uuidString: "AAAAAAAA-0000-0000-0000-000000000001") ?? UUID()

    @Test(arguments: [
        // (listened seconds, finished, logged seconds or nil, stopped early)
        (30.0, true, Int?.some(30), false),
        (59.0, false, nil, false),
        (60.0, false, 60, true),
        (754.4, false, 754, true),
        (600.0, true, 600, false),
        (0.4, true, nil, false),
        (0.0, false, nil, false),
    ])
    func theRule(_ listened: Double, _ finished: Bool, _ logged: Int?, _ stoppedEarly: Bool) throws {
        let record = try GuidedListening.record(
            item: item, listened: .milliseconds(Int64(listened * 1000)), finished: finished, endedAt: end, id: id,
            device: "test")
        #expect(record?.countedSeconds == logged)
        guard let record else { return }
        #expect(record.kind == .guided)
        #expect(record.end == end)
        #expect(record.start == end.addingTimeInterval(-listened))
        #expect(record.details["libraryItem"] == item.id.uuidString.lowercased())
        #expect(record.details["name"] == "Body Scan")
        #expect(record.details["teacher"] == "Mara")
        #expect((record.details["stoppedEarly"] == "true") == stoppedEarly)
    }
}
