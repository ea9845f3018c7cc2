import Foundation

/// The shared audio fixtures (`../shared/fixtures/audio` beside the repository) and what their
/// MANIFEST.json says, for tests that import them.
public enum SharedAudioFixtures {
    public struct Entry: Decodable, Sendable, CustomStringConvertible {
        public var file: String
        public var artist: String?
        public var title: String?
        public var album: String?
        public var duration: Double?
        public var error: Bool?

        public var isRejected: Bool { error == true }
        public var description: String { file }
    }

    private struct Manifest: Decodable {
        var files: [Entry]
    }

    public static let directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent()  // MomentumTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the repository
        .deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/audio")

    /// The manifest's entries; empty when it cannot be read (tests check that it can).
    public static let entries: [Entry] = (try? manifest()) ?? []

    public static func manifest() throws -> [Entry] {
        let data = try Data(contentsOf: directory.appendingPathComponent("MANIFEST.json"))
        return try JSONDecoder().decode(Manifest.self, from: data).files
    }

    public static func url(_ file: String) -> URL { directory.appendingPathComponent(file) }
}
