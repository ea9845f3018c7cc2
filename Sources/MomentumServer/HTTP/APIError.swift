import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// An error answered as JSON: `{"error": {"code": "…", "message": "…"}}`.
///
/// `code` is for programs (the browser, `momentum sync`); `message` is a catalog sentence for
/// people. An `APIError` carries what to say — a catalog key and its arguments, or a typed error
/// of the core or the services — and the sentence is written only when the response is, in the
/// language the request accepts (`Accept-Language`, else English): guards and middlewares that
/// run before any controller need no catalog.
public struct APIError: Error, HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var headers: HTTPFields = [:]
    /// For a refused sync batch: the position (from 0) of the change at fault.
    public var index: Int?
    /// For a refused body: the path of the value at fault (`progress.goals.focus`,
    /// `reminders.daily[0].time`), so a page shows the message next to its field.
    public var field: String?
    private let text: @Sendable (StringCatalog) -> String

    /// A refusal said by `key` of the catalogs, with its `{placeholder}` arguments.
    public init(_ status: HTTPResponse.Status, code: String, key: StringKey, arguments: [String: String] = [:]) {
        self.status = status
        self.code = code
        self.text = { $0.format(key, arguments) }
    }

    /// A refusal whose sentence is written by `text` in the request's catalog: for sentences made
    /// of several catalog texts.
    public init(_ status: HTTPResponse.Status, code: String, text: @escaping @Sendable (StringCatalog) -> String) {
        self.status = status
        self.code = code
        self.text = text
    }

    /// A typed error of the core or the services, in the words ``ErrorMessages`` has for it.
    public init(_ status: HTTPResponse.Status, code: String, describing error: any Error) {
        self.init(status, code: code) { catalog in
            ErrorMessages.message(describing: error, catalog: catalog) ?? catalog[.apiServerFault]
        }
    }

    /// The sentence in `catalog`'s language.
    public func message(in catalog: StringCatalog) -> String {
        text(catalog)
    }

    static func badRequest(_ key: StringKey, _ arguments: [String: String] = [:], code: String = "bad_request")
        -> APIError
    {
        APIError(.badRequest, code: code, key: key, arguments: arguments)
    }

    static func invalid(_ key: StringKey, _ arguments: [String: String] = [:], code: String = "invalid_value")
        -> APIError
    {
        APIError(.unprocessableContent, code: code, key: key, arguments: arguments)
    }

    static func notFound(_ key: StringKey, _ arguments: [String: String] = [:]) -> APIError {
        APIError(.notFound, code: "not_found", key: key, arguments: arguments)
    }

    static func conflict(_ key: StringKey, _ arguments: [String: String] = [:]) -> APIError {
        APIError(.conflict, code: "conflict", key: key, arguments: arguments)
    }

    static func unavailable(_ key: StringKey, _ arguments: [String: String] = [:]) -> APIError {
        APIError(.serviceUnavailable, code: "unavailable", key: key, arguments: arguments)
    }

    static let unauthorized = APIError(.unauthorized, code: "unauthorized", key: .apiUnauthorized)

    static let serverFault = APIError(.internalServerError, code: "internal", key: .apiServerFault)

    static let bodyTooLarge = APIError(.contentTooLarge, code: "body_too_large", key: .apiBodyTooLarge)

    /// 507 Insufficient Storage: a write the full disk refused (``FailureKind/storageFull``).
    static let diskFull = APIError(
        .init(code: 507, reasonPhrase: "Insufficient Storage"), code: "disk_full", key: .apiDiskFull)

    private struct Body: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
            var index: Int?
            var field: String?
        }
        var error: Detail
    }

    /// The language of the answer to `request`: its `?lang=`, else the first of its
    /// `Accept-Language` that Momentum speaks, else English.
    static func language(of request: Request) -> Language {
        request.uri.queryParameters["lang"].flatMap { Language(rawValue: String($0)) }
            ?? LanguageChoice.accepted(by: request) ?? .english
    }

    /// The one place an error becomes words: in the language of `request`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let catalog = StringCatalog.shared(for: Self.language(of: request))
        var response = try JSONResponse(
            Body(error: .init(code: code, message: message(in: catalog), index: index, field: field)), status: status
        )
        .response(from: request, context: context)
        response.headers.append(contentsOf: headers)
        return response
    }
}
