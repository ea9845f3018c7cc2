import Foundation
import MomentumCore

/// Speech by espeak-ng, the text-to-speech engine Debian packages (`apt install espeak-ng`): run
/// once per text, writing a WAV file to a temporary folder, never through a shell.
///
/// ```swift
/// let speech = try EspeakSpeech.installed().speak("D L 1 A B C", language: .german)
/// speech.sampleRate  // 22_050
/// ```
public struct EspeakSpeech: SpeechEngine {
    /// How long one text may take to speak before the engine is stopped.
    public static let timeLimit: DispatchTimeInterval = .seconds(20)
    /// Words per minute of the voice: a little slower than espeak-ng's 175, for call signs.
    public static let wordsPerMinute = 160

    public let executable: URL

    public init(executable: URL) {
        self.executable = executable
    }

    /// espeak-ng found on `PATH` (in `environment`), or ``SpeechError/engineMissing``.
    public static func installed(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(SpeechError) -> EspeakSpeech
    {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for folder in folders where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("espeak-ng")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return EspeakSpeech(executable: candidate)
            }
        }
        throw .engineMissing
    }

    /// The voice for each language: British English (as the app's English is), German.
    static func voice(for language: Language) -> String {
        switch language {
        case .english: "en-gb"
        case .german: "de"
        }
    }

    public func speak(_ text: String, language: Language) throws(SpeechError) -> SpokenAudio {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "momentum-speech-\(UUID().uuidString)", isDirectory: true)
        // try?: a folder that cannot be made shows as the engine's failure to write below.
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            // try?: a temporary folder left behind costs a few kilobytes, not the speech.
            try? FileManager.default.removeItem(at: folder)
        }
        let output = folder.appendingPathComponent("speech.wav")
        let process = Process()
        process.executableURL = executable
        // `--` ends the options: a text starting with "-" is still text.
        process.arguments = [
            "-v", Self.voice(for: language), "-s", "\(Self.wordsPerMinute)", "-w", output.path, "--", text,
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw .engineMissing
        }
        guard finished.wait(timeout: .now() + Self.timeLimit) == .success else {
            process.terminate()
            throw .timedOut
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile().prefix(4096), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            if message.contains("voice does not exist") { throw .voiceMissing(language) }
            throw .engineFailed(process.terminationStatus)
        }
        let audio: WAVAudio
        do {
            audio = try WAVFile.decode(Data(contentsOf: output))
        } catch {
            throw .unreadableOutput
        }
        let channels = audio.format.channels
        let samples = stride(from: 0, to: audio.samples.count, by: channels).map {
            Float(audio.samples[$0]) / Float(Int16.max)
        }
        return SpokenAudio(samples: samples, sampleRate: audio.format.sampleRate)
    }
}
