import Foundation
import Logging
import MomentumCore
import MomentumServices
import MomentumStore
import Testing

@testable import MomentumServer

@Suite("The HTTP error boundary")
struct ErrorBoundaryTests {
    static let sqliteText = "SQLite error 1: no such table: morseCourse"

    @Test(
        arguments: [
            MorseCourseServiceError.store(.database(message: sqliteText)),
            BackupFailure.store(.database(message: sqliteText)),
            PracticeLogError.store(.database(message: sqliteText)),
            SyncError.store(.database(message: sqliteText)),
            ImportError.store(.corruptRow(table: "practiceRecord", id: "1", reason: "invalidEnergy")),
        ] as [any Error & Sendable])
    func aStoreFailureInsideAnyServiceErrorIsALogged500(_ error: any Error & Sendable) {
        for language in [Language.english, .german] {
            let answer = ServiceErrorMapping.apiError(
                for: error, catalog: .shared(for: language), logger: Logger(label: "test"))
            #expect(answer.status == .internalServerError, "\(error)")
            #expect(answer == .serverFault)
            #expect(!answer.message.contains("SQLite") && !answer.message.contains("invalidEnergy"))
        }
    }
}
