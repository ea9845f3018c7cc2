import Foundation
import HTTPTypes
import Logging
import MomentumCore
import MomentumServices
import MomentumStore
import MomentumStoreContract
import MomentumTestSupport
import Testing

@testable import MomentumServer

@Suite("The HTTP error boundary")
struct ErrorBoundaryTests {
    static let sqliteText = "SQLite error 1: no such table: morseCourse"

    /// Every service error that wraps a store error, with the store error in it.
    static func wrapping(_ store: StoreError) -> [any Error & Sendable] {
        [
            store,
            MeditationServiceError.store(store), SettingsChangeError.store(store), PracticeLogError.store(store),
            BreathingServiceError.store(store), WorkoutServiceError.store(store),
            FocusTimerServiceError.store(store), LibraryError.store(store), MorseCourseServiceError.store(store),
            AccessTokenError.store(store), ImportError.store(store), SyncError.store(store),
            BackupFailure.store(store), SyncClientError.store(store), SyncClientError.sync(.store(store)),
        ]
    }

    /// A service error written after this test: nobody listed it anywhere.
    enum FutureServiceError: Error {
        case refused(String)
        case store(StoreError)
    }

    static let failures: [StoreError] = [
        .database(message: sqliteText), .corruptRow(table: "practiceRecord", id: "1", reason: "invalidEnergy"),
        .notADatabase(path: "/home/someone/momentum.sqlite"),
    ]

    @Test func aStoreFailureInsideAnyServiceErrorIsALogged500InBothFrontEnds() {
        for failure in Self.failures {
            for error in Self.wrapping(failure) + [FutureServiceError.store(failure)] {
                #expect(FailureKind.of(error) == .unexpected, "\(error)")
                let answer = ServiceErrorMapping.apiError(for: error, logger: Logger(label: "test"))
                #expect(answer.status == .internalServerError, "\(error)")
                #expect(answer.code == "internal")
                for language in Language.allCases {
                    let message = answer.message(in: .shared(for: language))
                    #expect(message == StringCatalog.shared(for: language)[.apiServerFault])
                    #expect(!message.contains("SQLite") && !message.contains("invalidEnergy"))
                }
                // The terminal says what the store error says, whatever wraps it.
                let english = StringCatalog.shared(for: .english)
                #expect(
                    ErrorMessages.message(describing: error, catalog: english)
                        == ErrorMessages.message(for: failure, catalog: english), "\(error)")
            }
        }
    }

    @Test func aBusyStoreInsideAnyServiceErrorIsA503WithRetryAfter() {
        for error in Self.wrapping(.busy) + [FutureServiceError.store(.busy)] {
            let answer = ServiceErrorMapping.apiError(for: error, logger: Logger(label: "test"))
            #expect(answer.status == .serviceUnavailable, "\(error)")
            #expect(answer.code == "busy")
            #expect(answer.headers[.retryAfter] != nil)
        }
        let german = ServiceErrorMapping.apiError(for: WorkoutServiceError.store(.busy), logger: Logger(label: "t"))
        #expect(german.message(in: .shared(for: .german)) == StringCatalog.shared(for: .german)[.errorDatabaseBusy])
    }

    @Test func eachErrorDecidesItsOwnStatus() {
        let cases: [(any Error, HTTPResponse.Status, String)] = [
            (PracticeLogError.notFound("abcd"), .notFound, "not_found"),
            (PracticeLogError.idTooShort("ab"), .badRequest, "bad_request"),
            (PracticeLogError.lengthNotPositive, .unprocessableContent, "invalid_value"),
            (FocusTimerServiceError.invalid(.notRunning("Tea")), .conflict, "conflict"),
            (BreathingServiceError.invalid(.unknownPreset("x")), .notFound, "not_found"),
            (TimelineRunError.alreadyPaused, .conflict, "conflict"),
            (JSONInputError.unknownField("plan.x"), .badRequest, "unknown_field"),
            (LibraryImportError.tooLarge(fileName: "a.mp3", limit: 10), .contentTooLarge, "file_too_large"),
            (LibraryImportError.writeFailed(fileName: "a.mp3", reason: "/srv/x"), .internalServerError, "internal"),
            (FutureServiceError.refused("x"), .internalServerError, "internal"),
            (MeditationPlanError.durationTooShort, .unprocessableContent, "invalid_value"),
        ]
        for (error, status, code) in cases {
            let answer = ServiceErrorMapping.apiError(for: error, logger: Logger(label: "test"))
            #expect(answer.status == status, "\(error)")
            #expect(answer.code == code, "\(error)")
            for language in Language.allCases {
                let catalog = StringCatalog.shared(for: language)
                let message = answer.message(in: catalog)
                #expect(Self.isCatalogSentence(message), "\(error)")
                #expect((message == catalog[.apiServerFault]) == (status == .internalServerError), "\(error)")
            }
        }
    }

    /// Every sentence the server itself says is in both catalogs, and the German one is German.
    @Test func everyRefusalOfTheServerIsInBothCatalogs() throws {
        let keys = try DeclaredStringKeys.all().map(\.rawValue)
            .filter { $0.hasPrefix("api.") || $0.hasPrefix("error.run.") }
        #expect(keys.count > 50)
        let (english, german) = (StringCatalog.shared(for: .english), StringCatalog.shared(for: .german))
        for key in keys {
            #expect(english.strings[key] != nil, "\(key)")
            #expect(german.strings[key] != nil, "\(key)")
            #expect(english.strings[key] != german.strings[key], "\(key)")
        }
    }

    /// Words that only ever come from code or the OS, never from the catalog.
    static func isCatalogSentence(_ text: String) -> Bool {
        let internalWords = [
            "MomentumCore", "MomentumServer", "Error", "errno", "NSCocoaErrorDomain", "Optional(", "rawValue",
        ]
        // A camelCase word outside `quotes` (which hold what the request sent) is an enum case.
        let unquoted = text.replacing(/`[^`]*`/, with: "")
        return !text.isEmpty && !internalWords.contains { text.contains($0) }
            && text.firstMatch(of: /\{[a-zA-Z]+\}/) == nil && unquoted.firstMatch(of: /\b[a-z]+[A-Z]\w*/) == nil
    }

    static func headers(_ language: String, _ extra: [(HTTPField.Name, String)] = []) -> HTTPFields {
        var headers = HTTPFields()
        headers[.acceptLanguage] = language
        for (name, value) in extra { headers[name] = value }
        return headers
    }

    struct Refusal: Sendable, CustomStringConvertible {
        var method: HTTPRequest.Method
        var path: String
        var json: String? = nil
        var headers: [(HTTPField.Name, String)] = []
        var code: String
        var description: String { "\(method) \(path) → \(code)" }
    }

    static let refusals: [Refusal] = [
        Refusal(method: .get, path: "/api/v1/nothing-here", code: "not_found"),
        Refusal(method: .delete, path: "/api/v1/settings", code: "method_not_allowed"),
        Refusal(method: .post, path: "/api/v1/sync/push", json: "{", code: "malformed_json"),
        Refusal(method: .post, path: "/api/v1/sync/push", json: "{}", code: "missing_field"),
        Refusal(method: .post, path: "/api/v1/sync/push", json: #"{"changes":"x"}"#, code: "wrong_type"),
        Refusal(method: .post, path: "/api/v1/sync/push", json: #"{"changes":null}"#, code: "wrong_type"),
        Refusal(
            method: .post, path: "/api/v1/timers", json: #"{"name":"x","durationMs":60000}"#,
            headers: [(.origin, "http://evil.example")], code: "cross_origin"),
        Refusal(
            method: .post, path: "/api/v1/timers", headers: [(.contentType, "text/plain"), (.contentLength, "1")],
            code: "unsupported_media_type"),
        Refusal(method: .get, path: "/api/v1/sync/pull?after=x", code: "invalid_cursor"),
        Refusal(method: .get, path: "/api/v1/sync/pull?after=-1", code: "invalid_page"),
        Refusal(method: .get, path: "/api/v1/sync/last-change", code: "bad_request"),
        Refusal(method: .get, path: "/api/v1/sync/last-change?type=thing&id=1&field=f", code: "unknown_type"),
        Refusal(method: .get, path: "/api/v1/sync/last-change?type=focusTimer&id=1&field=f", code: "malformed_id"),
        Refusal(
            method: .get,
            path: "/api/v1/sync/last-change?type=focusTimer&id=00000000-0000-0000-0000-00000000abcd&field=name",
            code: "not_found"),
        Refusal(method: .get, path: "/api/v1/live", code: "websocket_required"),
        Refusal(method: .get, path: "/api/v1/runs/not-an-id", code: "not_found"),
        Refusal(method: .get, path: "/api/v1/runs/00000000-0000-0000-0000-00000000abcd", code: "not_found"),
        Refusal(method: .get, path: "/api/v1/sounds/nothing.wav", code: "not_found"),
        Refusal(method: .get, path: "/api/v1/catalog?lang=xx", code: "invalid_value"),
        Refusal(method: .post, path: "/api/v1/morse/sessions/not-an-id/answer", json: "{}", code: "not_found"),
    ]

    @Test func everyRefusalIsASentenceInTheRequestsLanguage() async throws {
        let server = try await TestServer()
        let refusals = Self.refusals
        try await server.test { client in
            for refusal in refusals {
                var messages: [String] = []
                for language in ["en", "de-DE,de;q=0.9"] {
                    let response = try await client.send(
                        refusal.method, refusal.path, json: refusal.json,
                        headers: Self.headers(language, refusal.headers))
                    let message = response.errorMessage ?? ""
                    #expect(response.errorCode == refusal.code, "\(refusal): \(response.text)")
                    #expect(Self.isCatalogSentence(message), "\(refusal): \(message)")
                    // A refusal says what was wrong, never the sentence of a server failure.
                    let fault = StringCatalog.shared(for: language == "en" ? .english : .german)[.apiServerFault]
                    #expect(message != fault, "\(refusal)")
                    messages.append(message)
                }
                #expect(messages[0] != messages[1], "\(refusal): the German answer is the English one")
            }
        }
    }
}
