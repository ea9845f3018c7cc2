import Foundation
import Hummingbird

/// A value answered as JSON with sorted keys and ISO 8601 dates.
struct JSONResponse<Value: Encodable>: ResponseGenerator {
    var value: Value
    var status: HTTPResponse.Status

    init(_ value: Value, status: HTTPResponse.Status = .ok) {
        self.value = value
        self.status = status
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(WireDate.text(date))
        }
        return encoder
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONBody.response(try Self.encoder.encode(value), status: status)
    }
}

/// JSON already encoded, answered with the same headers as ``JSONResponse``.
enum JSONBody {
    static func response(_ data: Data, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Instants on the wire: ISO 8601 in UTC, with milliseconds when the instant has them.
enum WireDate {
    static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// Reads `2026-11-21T08:00:00Z`, `2026-11-21T08:00:00.250+01:00` and the like.
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
