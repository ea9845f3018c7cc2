import Foundation
import Hummingbird
import Logging
import MomentumCore
import MomentumServices
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
                apiError = .notFound(.apiNothingAt, ["path": request.uri.path])
            } else {
                var notAllowed = APIError(
                    .methodNotAllowed, code: "method_not_allowed", key: .apiMethodNotAllowed,
                    arguments: ["method": request.method.rawValue, "allowed": allowed.joined(separator: ", ")])
                notAllowed.headers[.allow] = allowed.joined(separator: ", ")
                apiError = notAllowed
            }
        case let error as any HTTPResponseError where error.status == .contentTooLarge:
            apiError = .bodyTooLarge
        case is HTTPParserError:
            // A malformed request (an invalid chunk size, say) that the HTTP decoder refused mid-body.
            apiError = .badRequest(.apiNotHTTP)
        case let error as HTTPError where error.status.code < 500:
            // Hummingbird's own refusals; their English detail goes to the log only.
            context.logger.debug("request refused", metadata: ["detail": "\(error.body ?? "")"])
            apiError = APIError(error.status, code: "bad_request", key: .apiRequestUnreadable)
        default:
            apiError = ServiceErrorMapping.apiError(for: error, logger: context.logger)
        }
        return try apiError.response(from: request, context: context)
    }
}

/// The typed errors of the core and the services, as HTTP answers: each error says its own
/// ``FailureKind`` (and may name a more exact code); this only turns kinds into statuses.
enum ServiceErrorMapping {
    static func apiError(for error: any Error, logger: Logger) -> APIError {
        var refusal = refusal(for: error, logger: logger)
        // A refused value names its field (`durationMs`, `name`), so a form shows the sentence
        // beside it; a failure of the machine names nothing.
        if refusal.status.code < 500 { refusal.field = FieldAddressing.field(of: error) }
        return refusal
    }

    private static func refusal(for error: any Error, logger: Logger) -> APIError {
        let kind = FailureKind.of(error)
        let code = (error as? any ClassifiedFailure)?.failureCode
        switch kind {
        case .unexpected:
            // A database or disk failure, or a bug: the detail (SQLite's text, server paths) is
            // for the log only.
            logger.error("unexpected error", metadata: ["error": "\(String(reflecting: error))"])
            return .serverFault
        case .unavailable:
            // Another writer (a long terminal import) held the database past the wait: nothing
            // changed, and the same request works again shortly.
            var busy = APIError(.serviceUnavailable, code: code ?? "busy", describing: error)
            busy.headers[.retryAfter] = "\(FailureKind.retryAfterSeconds)"
            return busy
        case .storageFull:
            // Said in the person's words, never "Something went wrong": nothing was written, and
            // what is stored can still be read.
            logger.warning("disk full", metadata: ["error": "\(String(reflecting: error))"])
            return .diskFull
        case .malformed: return APIError(.badRequest, code: code ?? "bad_request", describing: error)
        case .invalid: return APIError(.unprocessableContent, code: code ?? "invalid_value", describing: error)
        case .forbidden: return APIError(.forbidden, code: code ?? "forbidden", describing: error)
        case .notFound: return APIError(.notFound, code: code ?? "not_found", describing: error)
        case .conflict: return APIError(.conflict, code: code ?? "conflict", describing: error)
        case .tooLarge: return APIError(.contentTooLarge, code: code ?? "too_large", describing: error)
        }
    }
}
