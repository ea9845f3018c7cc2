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
        // Written beside and renamed, so a player never reads half a file. rename(2) replaces
        // atomically whether or not the file exists (FileManager.replaceItemAt needs it to exist
        // on Linux), and each writer has its own partial file, so two at once cannot collide.
        let partial = url.appendingPathExtension("\(UUID().uuidString).partial")
        try data.write(to: partial)
        guard rename(partial.path, url.path) == 0 else {
            // try?: the rename's failure is thrown below; a partial file that stays is only a cue's
            // sound, which is rendered again the next time.
            try? FileManager.default.removeItem(at: partial)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return url
    }
}
