import Foundation

/// The shared audio fixtures and what their MANIFEST.json says about each.
///
/// The repository is cloned with `shared/` beside it, so the folder is found from this source
/// file's own path (symlinks resolved, for packages that link the test folder in).
enum AudioFixtures {
    struct Entry: Decodable, Sendable, CustomStringConvertible {
        var file: String
        var tag: String
        var artist: String?
        var title: String?
        var album: String?
        var duration: Double?
        var error: Bool?

        var description: String { file }
    }

    private struct Manifest: Decodable {
        var files: [Entry]
    }

    static let directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent()  // MomentumAudioTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the repository
        .deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/audio")

    /// The manifest's entries; empty when it cannot be read (a test checks that it can).
    static let entries: [Entry] = (try? manifest()) ?? []

    static func manifest() throws -> [Entry] {
        let data = try Data(contentsOf: directory.appendingPathComponent("MANIFEST.json"))
        return try JSONDecoder().decode(Manifest.self, from: data).files
    }

    static func url(_ file: String) -> URL { directory.appendingPathComponent(file) }

    static func bytes(_ file: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(file))) }
}
