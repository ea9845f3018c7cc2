import Foundation

/// The ambient sounds a meditation can play under the sit.
///
/// The built-in catalog is a JSON resource; every sound in it is synthesized, so no recordings
/// are needed. People's own ambient files join it later (see the library).
public struct AmbientCatalog: Sendable, Equatable {
    public var entries: [AmbientSound]

    public init(entries: [AmbientSound]) throws(AmbientCatalogError) {
        var seen = Set<String>()
        for entry in entries {
            guard !entry.id.isEmpty else { throw .emptyID }
            guard seen.insert(entry.id).inserted else { throw .duplicateID(entry.id) }
            guard (0...1).contains(entry.defaultVolume) else { throw .volumeOutOfRange(entry.id) }
        }
        self.entries = entries
    }

    /// Decodes a catalog from its JSON form (`{"sounds": [...]}`).
    public init(json: Data) throws {
        let file = try JSONDecoder().decode(CatalogFile.self, from: json)
        try self.init(entries: file.sounds)
    }

    /// The catalog bundled with Momentum. Its tests guarantee it decodes; should it ever not,
    /// only `silent` is offered rather than crashing.
    public static let builtIn: AmbientCatalog =
        // try?: the bundled JSON is compiled in and LocalizationTests decodes it and compares it
        // with this one, so the fallback is never reached by a release that passed its tests.
        (try? AmbientCatalog(json: Data(PackageResources.ambient_catalog_json)))
        ?? AmbientCatalog(unchecked: [.silent])

    private init(unchecked entries: [AmbientSound]) { self.entries = entries }

    /// The sound with `id`, if the catalog has it.
    public func sound(id: String) -> AmbientSound? {
        entries.first { $0.id == id }
    }

    private struct CatalogFile: Decodable { var sounds: [AmbientSound] }
}

/// One ambient sound: its names in every language, an icon, a volume, and where its audio comes from.
public struct AmbientSound: Sendable, Equatable, Codable, Identifiable {
    public var id: String
    public var name: [String: String]
    public var description: [String: String]
    /// A symbol name for the front ends, e.g. `cloud.rain`.
    public var icon: String
    public var defaultVolume: Double
    public var source: AmbientSource

    public func name(in language: Language) -> String { name[language.rawValue] ?? id }
    public func description(in language: Language) -> String { description[language.rawValue] ?? "" }

    static let silent = AmbientSound(
        id: "silent", name: ["en": "Silence", "de": "Stille"], description: [:], icon: "speaker.slash",
        defaultVolume: 0, source: .generator(.silent))
}

/// Where an ambient sound's audio comes from.
public enum AmbientSource: Sendable, Equatable, Codable {
    /// Synthesized by the audio module.
    case generator(AmbientGenerator)
    /// A file in the library folder.
    case file(String)

    private enum CodingKeys: String, CodingKey { case generator, file }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let generator = try container.decodeIfPresent(AmbientGenerator.self, forKey: .generator) {
            self = .generator(generator)
        } else {
            self = .file(try container.decode(String.self, forKey: .file))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .generator(let generator): try container.encode(generator, forKey: .generator)
        case .file(let path): try container.encode(path, forKey: .file)
        }
    }
}

/// The synthesized ambient beds.
public enum AmbientGenerator: String, Sendable, Codable, CaseIterable {
    case silent, rain, ocean, stream, brown
}

/// The ambient sound chosen for a timeline and how loud it plays.
public struct AmbientChoice: Sendable, Equatable, Codable {
    /// How long the bed fades in at the start (and on resume) and out at the end (and on pause):
    /// the same for the renderer, the terminal's live bed and the browser.
    public static let fade: Duration = .milliseconds(1500)

    public var id: String
    public var volume: Double

    public init(id: String, volume: Double) {
        self.id = id
        self.volume = volume
    }
}

/// Why an ambient catalog is not usable.
public enum AmbientCatalogError: Error, Equatable, Sendable {
    case emptyID
    case duplicateID(String)
    case volumeOutOfRange(String)
}
