import Foundation
import Logging

/// How `momentum serve` logs (`--log-level`, `--log-format`): to standard error, where systemd's
/// journal keeps it, as text lines or one JSON object per line for a log collector. Momentum's own
/// lines show at the chosen level; the framework's (Hummingbird, the service group) only from
/// `debug` on, unless they warn (docs/deploy.md, "Logs").
public struct ServerLogging: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable {
        case text
        case json
    }

    public var level: Logger.Level = .info
    public var format: Format = .text

    public init(level: Logger.Level = .info, format: Format = .text) {
        self.level = level
        self.format = format
    }

    /// A logger at this level in this format.
    public func logger(label: String) -> Logger {
        var logger: Logger
        switch format {
        case .text: logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
        case .json: logger = Logger(label: label) { JSONLogHandler(label: $0, write: JSONLogHandler.standardError) }
        }
        logger.logLevel = level
        return logger
    }

    /// The level the framework's own logger gets for a chosen level: the same from `debug` down,
    /// else no chattier than `warning` ("Server started and listening on …" is ours to say).
    public static func frameworkLevel(for level: Logger.Level) -> Logger.Level {
        level <= .debug ? level : max(level, .warning)
    }
}

/// One JSON object per line: `time` (ISO 8601, UTC, milliseconds), `level`, `label`, `message`,
/// `source` and the metadata's keys under `metadata` — what journald's and most collectors'
/// JSON parsers take as it is.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String
    let write: @Sendable (String) -> Void

    public init(label: String, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: JSONValue] = [
            "time": .string(Self.timestamp(Date())),
            "level": .string(event.level.rawValue),
            "label": .string(label),
            "message": .string(event.message.description),
            "source": .string(event.source),
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        if !merged.isEmpty { fields["metadata"] = .object(merged.mapValues(JSONValue.init)) }
        if let error = event.error { fields["error"] = .string(String(describing: error)) }
        write(JSONValue.object(fields).text + "\n")
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// Writes whole lines to standard error, one `write(2)` each where it can, so lines of
    /// several threads never interleave.
    public static let standardError: @Sendable (String) -> Void = { line in
        let bytes = Array(line.utf8)
        bytes.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress else { return }
            var written = 0
            while written < buffer.count {
                let result = Foundation.write(2, start + written, buffer.count - written)
                if result <= 0 { break }
                written += result
            }
        }
    }
}

/// The few JSON shapes a log line holds, written with sorted keys (stable lines to read and test).
indirect enum JSONValue {
    case string(String)
    case object([String: JSONValue])
    case array([JSONValue])

    init(_ value: Logger.Metadata.Value) {
        switch value {
        case .string(let text): self = .string(text)
        case .stringConvertible(let value): self = .string(value.description)
        case .dictionary(let dictionary): self = .object(dictionary.mapValues(JSONValue.init))
        case .array(let values): self = .array(values.map(JSONValue.init))
        }
    }

    var text: String {
        switch self {
        case .string(let text):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            // try?: a String always encodes as a JSON string; the fallback only keeps the line whole.
            let data = (try? encoder.encode(text)) ?? Data("\"\"".utf8)
            return String(decoding: data, as: UTF8.self)
        case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let fields):
            return "{"
                + fields.sorted { $0.key < $1.key }.map { JSONValue.string($0.key).text + ":" + $0.value.text }
                .joined(separator: ",") + "}"
        }
    }
}
