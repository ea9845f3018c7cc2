import Foundation

/// The catalog keys the code declares, read from `Sources/MomentumCore/Localization/Keys/`
/// (`public static let phaseCountdown = StringKey("phase.countdown")`), so tests can check
/// them against the catalogs: `StringKey` is a struct declared by area, not an enumerable enum.
public enum DeclaredStringKeys {
    public struct Key: Sendable, Hashable, CustomStringConvertible {
        public var name: String
        public var rawValue: String
        public var description: String { rawValue }
    }

    /// Every declared key, in the order of the files (sorted by name) and of the lines in them.
    public static func all() throws -> [Key] {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/MomentumCore/Localization/Keys")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        var keys: [Key] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                if let match = line.wholeMatch(of: #/ {4}public static let (\w+) = StringKey\("([^"]+)"\)/#) {
                    keys.append(Key(name: String(match.output.1), rawValue: String(match.output.2)))
                } else if line.contains("static let") {
                    throw UnreadDeclaration(line: String(line), file: file)
                }
            }
        }
        return keys
    }

    /// A line that declares something the reader does not understand: the check would miss it.
    public struct UnreadDeclaration: Error, CustomStringConvertible {
        public var line: String
        public var file: String
        public var description: String { "\(file): cannot read `\(line)`" }
    }
}
