import Foundation
import Logging
import MomentumCore
import MomentumServices
import MomentumStore
import MomentumStoreContract
import NIOCore
import Testing

@testable import MomentumCLI
@testable import MomentumServer

@Suite("Hidden streaks and one Morse streak in every command")
struct HiddenStreaksTests {
    static let hiddenLine =
        "Streaks are hidden. Show them again with: momentum settings set progress.hide-streaks off"

    private func hidingStreaks() async throws -> TestTerminal {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["settings", "set", "progress.hide-streaks", "on"]) == 0)
        #expect(await terminal.run(["log", "add", "--kind", "morse", "--minutes", "10"]) == 0)
        return try TestTerminal(sharing: terminal)
    }

    @Test func chartStreakSaysStreaksAreHiddenAndWritesNoPicture() async throws {
        let terminal = try await hidingStreaks()
        let file = terminal.directory.url.appendingPathComponent("streak.svg").path
        #expect(await terminal.run(["chart", "streak", "--category", "morse", "-o", file]) == 0)
        #expect(terminal.output.lines == [Self.hiddenLine])
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func chartStreakJSONHasNoNumbersWhileHidden() async throws {
        let terminal = try await hidingStreaks()
        #expect(await terminal.run(["chart", "streak", "--json"]) == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(terminal.output.text.utf8)) as? [String: Any])
        #expect(object["streaksHidden"] as? Bool == true)
        #expect(object["points"] == nil)
    }

    @Test func otherChartsStayWhileStreaksAreHidden() async throws {
        let terminal = try await hidingStreaks()
        #expect(await terminal.run(["chart", "minutes", "--category", "morse", "--json"]) == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(terminal.output.text.utf8)) as? [String: Any])
        #expect((object["points"] as? [Any])?.isEmpty == false)
    }

    @Test func morseProgressSaysStreaksAreHiddenInsteadOfTheStreak() async throws {
        let terminal = try await hidingStreaks()
        #expect(await terminal.run(["morse", "progress"]) == 0, "\(terminal.errors.text)")
        #expect(terminal.output.lines.last == Self.hiddenLine)
        #expect(!terminal.output.text.contains("Morse streak"))
    }

    @Test func morseProgressJSONHasNoStreakWhileHidden() async throws {
        let terminal = try await hidingStreaks()
        #expect(await terminal.run(["morse", "progress", "--json"]) == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(terminal.output.text.utf8)) as? [String: Any])
        #expect(object["streak"] == nil)
        #expect(object["streaksHidden"] as? Bool == true)
    }

    @Test func aHandLoggedMorseSessionMovesTheCourseStreakAndTheProgressStreakEqually() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["log", "add", "--kind", "morse", "--minutes", "5"]) == 0)
        let course = try TestTerminal(sharing: terminal)
        #expect(await course.run(["morse", "progress", "--json"]) == 0)
        let form = try #require(try JSONSerialization.jsonObject(with: Data(course.output.text.utf8)) as? [String: Any])
        let courseStreak = try #require(form["streak"] as? [String: Any])
        let progress = try TestTerminal(sharing: terminal)
        #expect(await progress.run(["streak", "--json"]) == 0)
        let streaks = try #require(
            try JSONSerialization.jsonObject(with: Data(progress.output.text.utf8)) as? [String: Any])
        let morse = try #require((streaks["categories"] as? [String: Any])?["morse"] as? [String: Any])
        #expect(courseStreak["current"] as? Int == 1)
        #expect(morse["current"] as? Int == courseStreak["current"] as? Int)
        #expect(morse["longest"] as? Int == courseStreak["longest"] as? Int)
    }
}

@Suite("No internal text in the terminal's errors")
struct ErrorTextTests {
    /// Words that only ever come from code or the OS, never from the catalog.
    static let internalWords = [
        "MomentumCore.", "Error", "errno", "NSCocoaErrorDomain", "wrongValue", "invalidEnergy", "Optional(",
    ]

    /// No internal word, no leftover `{placeholder}`, and no camelCase word (an enum case) outside
    /// `quotes`, which hold what the person typed.
    static func isCatalogSentence(_ text: String) -> Bool {
        let unquoted = text.replacing(/`[^`]*`/, with: "")
        return !text.isEmpty && !internalWords.contains { text.contains($0) }
            && text.firstMatch(of: /\{[a-zA-Z]+\}/) == nil && unquoted.firstMatch(of: /\b[a-z]+[A-Z]\w*/) == nil
    }

    @Test func aBusyPortIsOneSentenceWithTheWayOut() throws {
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 8080, dataDirectory: URL(fileURLWithPath: "/tmp"))
        let failure = Serve.listenFailure(
            IOError(errnoCode: EADDRINUSE, reason: "bind(descriptor:ptr:bytes:)"), configuration: configuration,
            catalog: .shared(for: .english))
        #expect(failure?.message == "Port 8080 is in use; choose another with --port.")
        let german = Serve.listenFailure(
            IOError(errnoCode: EADDRINUSE, reason: "bind"), configuration: configuration,
            catalog: .shared(for: .german))
        #expect(german?.message == "Port 8080 ist belegt; wähle mit --port einen anderen.")
    }

    @Test func aFileThatCannotBeWrittenGivesAReasonInWords() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["log", "add", "--minutes", "10"]) == 0)
        let chart = try TestTerminal(sharing: terminal)
        let file = chart.directory.url.appendingPathComponent("missing/folder/chart.svg").path
        #expect(await chart.run(["chart", "minutes", "-o", file]) == 74)
        // Every command that writes a file says a missing folder alike (`OutputTarget`).
        let folder = chart.directory.url.appendingPathComponent("missing/folder").path
        #expect(chart.errors.text.hasPrefix("momentum: The folder \(folder) does not exist"))
        #expect(Self.isCatalogSentence(chart.errors.text), "\(chart.errors.text)")
        let reason = ErrorMessages.fileReason(for: CocoaError(.fileWriteUnknown), catalog: .shared(for: .english))
        #expect(reason == "the file system refused")
    }

    /// One or more cases of every error a person can meet, with inner store failures and the
    /// cases that used to carry Swift's own description of an inner error.
    static let errors: [any Error & Sendable] = [
        SyncClientError.sync(
            .invalidPulledChange(seq: 4, .wrongValue(type: .practiceRecord, field: "end", expected: "an instant"))),
        SyncClientError.sync(.batch(.invalidChange(index: 0, .unknownEntityType("thing")))),
        SyncClientError.sync(.batch(.invalidChange(index: 0, .stamp(.malformed("x"))))),
        SyncClientError.sync(.batch(.tooManyChanges(count: 600, maximum: 500))),
        SyncClientError.sync(.cursorBeyondHead(cursor: 9, head: 3)),
        SyncClientError.sync(.invalidPulledChange(seq: 1, .notDeletable(.setting))),
        SyncClientError.store(.corruptRow(table: "practiceRecord", id: "ab12", reason: "invalidEnergy")),
        StoreError.database(message: "SQLite error 1: no such table"),
        MorseCourseServiceError.store(.database(message: "SQLite error 5")),
        MorseCourseServiceError.corruptProgress(.missingCourseStart),
        MorseCourseServiceError.session(.timeIsUp),
        MorseCourseServiceError.session(.instantBeforeLastEvent),
        MorseCourseServiceError.progress(.missingCourseStart),
        SyncClientError.unreachable(
            server: "http://127.0.0.1:1",
            reason: "The operation could not be completed. (NSURLErrorDomain error -1004.)"),
        PracticeLogError.invalidRecord(.invalidEnergy),
        PracticeLogError.invalidRecord(.endsBeforeItStarts),
        LibraryError.invalidRecord(.countsMoreThanItLasted),
        PracticeLogError.store(.busy),
        MeditationServiceError.store(.database(message: "disk I/O error")),
        BreathingServiceError.store(.corruptRow(table: "breathingPreset", id: "x", reason: "DecodingError")),
        WorkoutServiceError.store(.busy),
        FocusTimerServiceError.store(.database(message: "constraint failed")),
        SettingsChangeError.store(.database(message: "SQLite error")),
        AccessTokenError.store(.database(message: "SQLite error")),
        CocoaError(.fileWriteUnknown),
        TimelineRunError.alreadyPaused, TimelineRunError.instantBeforeStart, TimelineRunError.alreadyCompleted,
        MorseCourseServiceError.session(.invalidTransition(from: .paused, action: .startTraining)),
        FocusTimerServiceError.invalid(.notRunning("Tea")), PracticeLogError.notFound("abcd"),
        PracticeLogError.idTooShort("ab"), JSONInputError.unknownField("plan.durationMinutes"),
        BreathingServiceError.invalid(.unknownPreset("x")), LibraryError.ambiguous("abcd"),
        LibraryImportError.tooLarge(fileName: "a.mp3", limit: 10),
        SyncError.cursorBeyondHead(cursor: 9, head: 3), SyncError.invalidPage(after: -1, limit: 10),
        ImportError.store(.busy), BackupFailure.store(.database(message: "SQLite error 5")),
    ]

    @Test func everyErrorIsACatalogSentenceInTheTerminalAndOverHTTPInBothLanguages() {
        for language in [Language.english, .german] {
            let catalog = StringCatalog.shared(for: language)
            for error in Self.errors {
                let terminal = ErrorMessages.commandMessage(for: error, catalog: catalog)
                #expect(Self.isCatalogSentence(terminal), "\(language) \(error): \(terminal)")
                let http = ServiceErrorMapping.apiError(for: error, logger: Logger(label: "test")).message(in: catalog)
                #expect(Self.isCatalogSentence(http), "\(language) \(error): \(http)")
                if language == .german {
                    let english = StringCatalog.shared(for: .english)
                    #expect(terminal != ErrorMessages.commandMessage(for: error, catalog: english), "\(error)")
                }
            }
        }
    }
}

@Suite("momentum serve on a busy port")
struct BusyPortTests {
    /// A socket listening on a free loopback port, closed when the test ends.
    private static func occupiedPort() throws -> (socket: Int32, port: Int) {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        try #require(bound == 0 && listen(descriptor, 1) == 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test func serveOnABusyPortSaysWhichPortAndHowToChooseAnother() async throws {
        let (descriptor, port) = try Self.occupiedPort()
        defer { close(descriptor) }
        let terminal = try TestTerminal()
        #expect(await terminal.run(["serve", "--port", "\(port)"]) == 69)
        #expect(terminal.errors.text == "momentum: Port \(port) is in use; choose another with --port.\n")
    }
}
