import Foundation
import HTTPTypes
import Hummingbird
import MomentumCore

/// Stamps the changes an API request makes with the name of the browser that sent it
/// (`X-Momentum-Device`, percent-encoded: see ``DeviceName``), so "changed by" says "Anna's phone"
/// rather than the server's own name. A request without the header keeps the server's name; a name
/// that is not valid (empty, too long, control characters, a reserved form, sent twice) is refused
/// with 422 before anything is written. Only a state-changing request (`POST`, `PATCH`, `DELETE` …)
/// stamps with it; every request's header is checked.
///
/// It runs behind ``AccessGuard``: only a request with access to the API may name a change. A web
/// page of another site cannot send the header at all: a custom header makes the browser ask first
/// (CORS preflight), and the server answers no preflight.
struct DeviceNameMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let values = request.headers[values: .xMomentumDevice]
        guard !values.isEmpty else { return try await next(request, context) }
        let name = try Self.name(from: values)
        // A read names nothing: a timer that ran out and is settled while a browser reads the list
        // ended by itself, so its completion keeps the server's name.
        guard RequestGuardMiddleware<Context>.changesState(request.method) else {
            return try await next(request, context)
        }
        return try await DeviceName.$current.withValue(name) { try await next(request, context) }
    }

    /// The one valid name `values` (the header's values) give, or the refusal.
    static func name(from values: [String]) throws(APIError) -> String {
        guard values.count == 1 else { throw refusal(.repeated) }
        do {
            return try DeviceName.decodedHeader(values[0])
        } catch {
            throw refusal(error)
        }
    }

    static func refusal(_ error: DeviceNameError) -> APIError {
        let code = "invalid_device_name"
        return switch error {
        case .empty: APIError.invalid(.apiDeviceNameEmpty, code: code)
        case .tooLong(let count):
            APIError.invalid(
                .apiDeviceNameTooLong, ["count": "\(count)", "maximum": "\(DeviceName.maximumLength)"], code: code)
        case .controlCharacter(let value):
            APIError.invalid(.apiDeviceNameControlCharacter, ["code": String(format: "U+%04X", value)], code: code)
        case .bidirectionalControl(let value):
            APIError.invalid(.apiDeviceNameBidirectionalControl, ["code": String(format: "U+%04X", value)], code: code)
        case .reserved: APIError.invalid(.apiDeviceNameReserved, code: code)
        case .encoding: APIError.invalid(.apiDeviceNameEncoding, code: code)
        case .repeated: APIError.invalid(.apiDeviceNameRepeated, code: code)
        }
    }
}

/// `GET /api/v1/device`: the name this request's changes are stamped with — what the server makes
/// of its `X-Momentum-Device` header (`{"name": "Anna's phone"}`, or `{"name": null}` without
/// one). The browser asks it before it keeps a new name, so a refused name is said in the page's
/// language next to the field.
struct DeviceController: Sendable {
    struct Answer: Encodable {
        var name: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
        }

        enum CodingKeys: String, CodingKey { case name }
    }

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("device", use: device)
    }

    @Sendable func device(_ request: Request, context: BasicRequestContext) throws -> JSONResponse<Answer> {
        let values = request.headers[values: .xMomentumDevice]
        return JSONResponse(
            Answer(name: values.isEmpty ? nil : try DeviceNameMiddleware<BasicRequestContext>.name(from: values)))
    }
}
