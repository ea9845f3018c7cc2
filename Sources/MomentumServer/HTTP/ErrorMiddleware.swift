import Foundation
import Hummingbird
import Logging
import MomentumCore
import MomentumServices
import MomentumStore
import NIOHTTP1

/// Answers every error as JSON with the right status, and never lets an internal detail out:
/// store errors and anything unexpected are logged and answered with a generic 500.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            return try answer(error, request: request, context: context)
        }
    }

    private func answer(_ error: any Error, request: Request, context: Context) throws -> Response {
        let apiError: APIError
        switch error {
        case let error as APIError:
            apiError = error
        case let error as HTTPError where error.status == .notFound:
            let allowed = routes.methods(forPath: request.uri.path)
            if allowed.isEmpty {
                apiError = .notFound("Nothing is at \(request.uri.path).")
            } else {
                var notAllowed = APIError(
                    .methodNotAllowed, code: "method_not_allowed",
                    message: "\(request.method.rawValue) is not allowed here; use \(allowed.joined(separator: ", ")).")
                notAllowed.headers[.allow] = allowed.joined(separator: ", ")
                apiError = notAllowed
            }
        case let error as any HTTPResponseError where error.status == .contentTooLarge:
            apiError = .bodyTooLarge
        case is HTTPParserError:
            // A malformed request (an invalid chunk size, say) that the HTTP decoder refused mid-body.
            apiError = .badRequest("The request is not valid HTTP.", code: "bad_request")
        case let error as HTTPError where error.status.code < 500:
            apiError = APIError(
                error.status, code: "bad_request", message: error.body ?? error.status.reasonPhrase)
        default:
            let language = LanguageChoice.accepted(by: request) ?? .english
            apiError = ServiceErrorMapping.apiError(
                for: error, catalog: StringCatalog.shared(for: language), logger: context.logger)
        }
        return try apiError.response(from: request, context: context)
    }
}

extension APIError {
    static let bodyTooLarge = APIError(
        .contentTooLarge, code: "body_too_large", message: "The request body is larger than this server accepts.")
}

/// The typed errors of the core and the services, as HTTP answers.
enum ServiceErrorMapping {
    /// `catalog` is the language of the message: the request's `Accept-Language`, else English.
    static func apiError(for error: any Error, catalog: StringCatalog, logger: Logger) -> APIError {
        if let store = storeError(in: error) {
            if store == .busy {
                // Another writer (a long terminal import) held the database past the wait: nothing
                // changed, and the same request works again shortly.
                var busy = APIError(
                    .serviceUnavailable, code: "busy", message: ErrorMessages.message(for: store, catalog: catalog))
                busy.headers[.retryAfter] = "\(Int(MomentumDatabase.busyTimeout))"
                return busy
            }
            logger.error("store error", metadata: ["error": "\(store)"])
            return .serverFault
        }
        let message = ErrorMessages.message(describing: error, catalog: catalog)
        switch error {
        case is JSONInputError:
            return .badRequest(message ?? "A field is not known.", code: "unknown_field")
        case let error as PracticeLogError:
            switch error {
            case .notFound: return .notFound(message ?? "No such record.")
            case .idTooShort, .ambiguous: return .badRequest(message ?? "Not a record id.")
            default: return .invalid(message ?? "Not a valid record.")
            }
        case let error as BreathingServiceError:
            if case .invalid(.unknownPreset) = error { return .notFound(message ?? "No such preset.") }
        case let error as WorkoutServiceError:
            if case .invalid(.unknownProgram) = error { return .notFound(message ?? "No such program.") }
        case let error as FocusTimerServiceError:
            switch error {
            case .invalid(.unknownTimer), .invalid(.unknownItem): return .notFound(message ?? "No such timer.")
            case .invalid(.alreadyRunning), .invalid(.notRunning), .invalid(.notPaused), .invalid(.notStarted):
                return .conflict(message ?? "The timer cannot do that now.")
            default: break
            }
        case let error as TimelineRunError:
            return .conflict(runMessage(error))
        case let error as LibraryError:
            if case .notFound = error { return .notFound(message ?? "No such library item.") }
        case let error as LibraryImportError:
            switch error {
            case .tooLarge:
                return APIError(.contentTooLarge, code: "file_too_large", message: message ?? "The file is too large.")
            case .unreadableAudio:
                return APIError(.unprocessableContent, code: "not_audio", message: message ?? "The file is not audio.")
            case .sourceUnreadable, .writeFailed, .saveFailed, .folderUnusable, .alreadyEnded:
                // The disk or the folder failed: the reason names server paths, so it is logged.
                logger.error("library import failed", metadata: ["error": "\(error)"])
                return .serverFault
            }
        default:
            break
        }
        if let message { return .invalid(message) }
        logger.error("unexpected error", metadata: ["error": "\(error)"])
        return .serverFault
    }

    static func storeError(in error: any Error) -> StoreError? {
        switch error {
        case let error as StoreError: error
        case MeditationServiceError.store(let error), SettingsChangeError.store(let error),
            PracticeLogError.store(let error), BreathingServiceError.store(let error),
            WorkoutServiceError.store(let error), FocusTimerServiceError.store(let error),
            LibraryError.store(let error), MorseCourseServiceError.store(let error),
            AccessTokenError.store(let error), ImportError.store(let error), SyncError.store(let error),
            BackupFailure.store(let error), SyncClientError.store(let error), SyncClientError.sync(.store(let error)):
            error
        default: nil
        }
    }

    static func runMessage(_ error: TimelineRunError) -> String {
        switch error {
        case .alreadyStarted: "The run has already started."
        case .notStarted: "The run has not started."
        case .alreadyPaused: "The run is already paused."
        case .notPaused: "The run is not paused."
        case .alreadyStopped: "The run has already stopped."
        case .alreadyCompleted: "The run has already completed."
        case .instantBeforeStart: "The instant is before the run's start or its last pause or resume."
        }
    }
}
