import Foundation
import Hummingbird

/// An error answered as JSON: `{"error": {"code": "…", "message": "…"}}`.
///
/// Messages are English: they are meant for the browser UI's developer and its logs; the UI shows
/// its own catalog texts for the codes a person can cause.
public struct APIError: Error, HTTPResponseError, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var headers: HTTPFields = [:]
    /// For a refused sync batch: the position (from 0) of the change at fault.
    public var index: Int?

    public init(_ status: HTTPResponse.Status, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static func badRequest(_ message: String, code: String = "bad_request") -> APIError {
        APIError(.badRequest, code: code, message: message)
    }

    static func invalid(_ message: String, code: String = "invalid_value") -> APIError {
        APIError(.unprocessableContent, code: code, message: message)
    }

    static func notFound(_ message: String) -> APIError {
        APIError(.notFound, code: "not_found", message: message)
    }

    static func conflict(_ message: String) -> APIError {
        APIError(.conflict, code: "conflict", message: message)
    }

    static let unauthorized = APIError(
        .unauthorized, code: "unauthorized", message: "An access token is needed: send it as a bearer token or log in.")

    static let serverFault = APIError(
        .internalServerError, code: "internal", message: "Something went wrong on the server; it has been logged.")

    private struct Body: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
            var index: Int?
        }
        var error: Detail
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try JSONResponse(Body(error: .init(code: code, message: message, index: index)), status: status)
            .response(from: request, context: context)
        response.headers.append(contentsOf: headers)
        return response
    }
}
