import Foundation

/// What a `Range` request header asks of a file of a known size (RFC 9110 §14), for streaming
/// library audio: the whole file (`200`), one byte range (`206`), or nothing the file has (`416`).
///
/// One range is served. A header in another unit, or one asking for several ranges, is ignored
/// and the whole file is sent, as the RFC allows; a `bytes=` header that does not parse, or whose
/// ranges all lie beyond the end, is refused (`416`, with `Content-Range: bytes */size`).
enum ByteRangeRequest: Equatable, Sendable {
    case whole
    /// The first and last byte offsets, both inclusive and inside the file.
    case partial(ClosedRange<Int>)
    case unsatisfiable

    init(header: String?, size: Int) {
        guard let header else {
            self = .whole
            return
        }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let specs = trimmed.dropFirst("bytes=".count).split(separator: ",", omittingEmptySubsequences: false)
        guard specs.count == 1, let spec = specs.first else {
            self = specs.allSatisfy { Self.parse($0) != nil } ? .whole : .unsatisfiable
            return
        }
        guard let parsed = Self.parse(spec) else {
            self = .unsatisfiable
            return
        }
        self = Self.resolve(parsed, size: size)
    }

    /// The `Content-Range` value answering this request for a file of `size` bytes.
    func contentRange(size: Int) -> String? {
        switch self {
        case .whole: nil
        case .partial(let range): "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
        case .unsatisfiable: "bytes */\(size)"
        }
    }

    private enum Spec: Equatable {
        case from(first: Int, last: Int?)
        case suffix(length: Int)
    }

    /// `first-last`, `first-` or `-length`, digits only; numbers too long for `Int` saturate.
    private static func parse(_ text: Substring) -> Spec? {
        let spec = text.trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        let head = spec[..<dash]
        let tail = spec[spec.index(after: dash)...]
        if head.isEmpty {
            guard let length = number(tail) else { return nil }
            return .suffix(length: length)
        }
        guard let first = number(head) else { return nil }
        if tail.isEmpty { return .from(first: first, last: nil) }
        guard let last = number(tail), last >= first else { return nil }
        return .from(first: first, last: last)
    }

    private static func number(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits) ?? Int.max
    }

    private static func resolve(_ spec: Spec, size: Int) -> ByteRangeRequest {
        switch spec {
        case .from(let first, let last):
            guard first < size else { return .unsatisfiable }
            return .partial(first...min(last ?? size - 1, size - 1))
        case .suffix(let length):
            guard length > 0, size > 0 else { return .unsatisfiable }
            return .partial(max(0, size - length)...(size - 1))
        }
    }
}
