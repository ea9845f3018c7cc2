import Foundation
import Hummingbird
import Logging
import MomentumCore
import MomentumServices
import MomentumStoreContract

/// Reads JSON request bodies and turns every decoding problem into a clear 400 or 422.
enum RequestBody {
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = WireDate.date(text) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: container.codingPath,
                        debugDescription: "not an ISO 8601 instant such as 2026-11-21T08:00:00Z",
                        underlyingError: NotAnInstant()))
            }
            return date
        }
        return decoder
    }

    /// The body as `T`. The body size was already checked by ``BodyLimitMiddleware``.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        guard let data = try await data(of: request) else {
            throw APIError.badRequest(.apiBodyNeeded)
        }
        return try decode(T.self, from: data)
    }

    /// The body as `T`, or `fallback` when the request has none.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, orEmpty fallback: T) async throws -> T {
        guard let data = try await data(of: request) else { return fallback }
        return try decode(T.self, from: data)
    }

    /// JSON from a request (a body, a query parameter) as `T`. Every body is read strictly: a
    /// field `T` does not read is refused (``JSONInputError/unknownField(_:)``, a 400), so a
    /// misspelled key never silently takes its default.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try StrictJSON.decode(T.self, from: data, using: decoder)
        } catch let error as DecodingError {
            throw problem(in: error)
        }
    }

    /// The body's bytes, `nil` when there are none; a body whose strings hold a control character
    /// no text may hold is refused before anything reads it.
    static func data(of request: Request) async throws -> Data? {
        let buffer = try await request.body.collect(upTo: .max)
        guard buffer.readableBytes > 0 else { return nil }
        let data = Data(buffer: buffer)
        if let code = refusedControlCharacter(inJSON: data) {
            throw TextInputError.controlCharacter(field: "body", code: code)
        }
        return data
    }

    /// The first control character in JSON text that no text takes (see ``TextInput``; tab, line
    /// feed and carriage return pass here, one-line fields refuse them in the core). Raw control
    /// bytes are already invalid JSON, so this reads the escapes (`\u0000`, `\b`, `\f`), DEL and
    /// the UTF-8 form of C1 controls. Belt and braces: the core's rules refuse them field by field.
    static func refusedControlCharacter(inJSON data: Data) -> UInt32? {
        data.withUnsafeBytes { bytes -> UInt32? in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x7F { return 0x7F }
                if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                    return UInt32(bytes[index + 1])
                }
                guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                    index += 1
                    continue
                }
                switch bytes[index + 1] {
                case UInt8(ascii: "b"): return 0x08
                case UInt8(ascii: "f"): return 0x0C
                case UInt8(ascii: "u") where index + 5 < bytes.count:
                    let digits = String(
                        decoding: UnsafeRawBufferPointer(rebasing: bytes[(index + 2)...(index + 5)]), as: UTF8.self)
                    if let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code),
                        TextInput.firstRefusedCharacter(in: String(Character(scalar)), lines: .multiple) != nil
                    {
                        return code
                    }
                    index += 6
                default: index += 2
                }
            }
            return nil
        }
    }

    /// What to answer for a body that did not decode: a rule of the core that refused a value
    /// (carried as the underlying error) is answered like the core's error, in the request's
    /// language; anything else as ``apiError(for:)`` says.
    static func problem(in error: DecodingError) -> any Error {
        if case .dataCorrupted(let context) = error, let underlying = context.underlyingError,
            ErrorMessages.message(describing: underlying, catalog: .shared(for: .english)) != nil
        {
            var refusal = ServiceErrorMapping.apiError(for: underlying, logger: Logger(label: "momentum.body"))
            // The path to the object that refused, then the field the rule names inside it.
            let object = path(context.codingPath)
            let inner = refusal.field.map { object.hasSuffix($0) ? "" : $0 } ?? ""
            let whole = [object, inner].filter { !$0.isEmpty }.joined(separator: ".")
            if !whole.isEmpty { refusal.field = whole }
            return refusal
        }
        var refusal = apiError(for: error)
        refusal.field = field(of: error)
        return refusal
    }

    /// `progress.goals.focus`, `reminders.daily[0].time`: a coding path as a page names a field.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(into: "") { text, key in
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
    }

    /// The path of the value a decoding error is about, if it names one.
    private static func field(of error: DecodingError) -> String? {
        let codingPath: [any CodingKey] =
            switch error {
            case .keyNotFound(let key, let context): context.codingPath + [key]
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                context.codingPath
            @unknown default: []
            }
        return codingPath.isEmpty ? nil : path(codingPath)
    }

    /// Malformed JSON, wrong types and missing fields are 400; a well-formed value the rules
    /// reject (an unknown enum case, an impossible date) is 422.
    static func apiError(for error: DecodingError) -> APIError {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .badRequest(.apiMissingField, ["field": path(context.codingPath + [key])], code: "missing_field")
        case .typeMismatch(let type, let context):
            let (field, expected) = (path(context.codingPath), describe(type))
            return APIError(.badRequest, code: "wrong_type") { catalog in
                catalog.format(.apiWrongType, ["field": field, "expected": catalog[expected]])
            }
        case .valueNotFound(let type, let context):
            let (field, expected) = (path(context.codingPath), describe(type))
            return APIError(.badRequest, code: "wrong_type") { catalog in
                catalog.format(.apiNullField, ["field": field, "expected": catalog[expected]])
            }
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .badRequest(.apiMalformedJSON, code: "malformed_json")
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            if context.underlyingError is NotAnInstant { return .invalid(.apiInstantFormat, ["name": field]) }
            return context.debugDescription.hasPrefix("Cannot initialize")
                ? .invalid(.apiNotAllowedValue, ["field": field]) : .invalid(.apiFieldInvalid, ["field": field])
        @unknown default:
            return .badRequest(.apiBodyUnreadable)
        }
    }

    /// A text where an ISO 8601 instant belongs.
    struct NotAnInstant: Error {}

    private static func describe(_ type: Any.Type) -> StringKey {
        switch type {
        case is String.Type: .apiTypeString
        case is Bool.Type: .apiTypeBool
        case is Int.Type, is Int64.Type: .apiTypeWholeNumber
        case is Double.Type: .apiTypeNumber
        default: "\(type)".contains("Array") ? .apiTypeList : .apiTypeObject
        }
    }
}
