import Foundation
import MomentumAudio
import MomentumCore

/// Renders each cue sound once into the data directory's cache, for system players to play.
public struct CueSoundCache: Sendable {
    public let directory: URL
    public let sampleRate: Int

    /// Bump when the synthesis changes, so old renderings are not played.
    static let version = 2

    public init(dataDirectory: URL, sampleRate: Int = 44_100) {
        directory = dataDirectory.appendingPathComponent("cache/sounds", isDirectory: true)
        self.sampleRate = sampleRate
    }

    /// The WAV file of `sound`, rendered now if it is not cached yet.
    public func file(for sound: CueSound) throws -> URL {
        let url = directory.appendingPathComponent("\(sound.rawValue)-v\(Self.version)-\(sampleRate).wav")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let samples = CueSynthesizer(sampleRate: sampleRate).samples(for: sound)
        let data = try WAVFile.encode(samples: samples, format: AudioFormat(sampleRate: sampleRate))
        // Written beside and renamed, so a player never reads half a file.
        let partial = url.appendingPathExtension("partial")
        try data.write(to: partial)
        _ = try FileManager.default.replaceItemAt(url, withItemAt: partial)
        return url
    }
}
